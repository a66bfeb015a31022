@testable import CatalogAuthoring
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzImports_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A document as `import http|postman|har|insomnia` reads it, the importer chosen by the first
/// byte (`h`, `p`, `a`, `i`; anything else: each), with a file beside it that `< ./file` parts
/// and form-data sources may name; then the catalog written as text. Never a trap or a hang.
func exercise(_ data: Data) {
    let choice = data.first
    let document = Data(data.dropFirst())
    let files = DocumentFiles(["file.bin": Data("beside\r\n".utf8), "fixtures/x/y.png": Data([0x89, 0x50])])
    var results: [CatalogImport] = []
    if choice == UInt8(ascii: "h") || !"hpai".utf8.contains(choice ?? 0) {
        results += [try? HTTPFileImporter.catalog(text: String(decoding: document, as: UTF8.self), documentName: "fuzz.http", files: files)].compactMap { $0 }
        if let text = String(validating: document, as: UTF8.self) {
            _ = HTTPMultipartBody(text, contentType: "multipart/form-data; boundary=B")
        }
    }
    if choice == UInt8(ascii: "p") || !"hpai".utf8.contains(choice ?? 0) {
        results += [try? PostmanImporter.catalog(collection: document, documentName: "fuzz.json", files: files)].compactMap { $0 }
    }
    if choice == UInt8(ascii: "a") || !"hpai".utf8.contains(choice ?? 0) {
        results += [try? HARImporter.catalog(har: document, documentName: "fuzz.har")].compactMap { $0 }
    }
    if choice == UInt8(ascii: "i") || !"hpai".utf8.contains(choice ?? 0) {
        results += [try? InsomniaImporter.catalog(export: document, documentName: "fuzz.yaml", files: files)].compactMap { $0 }
    }
    for result in results {
        for draft in result.drafts { _ = draft.yaml }
        _ = result.groupedNotes.map(\.description)
    }
}
