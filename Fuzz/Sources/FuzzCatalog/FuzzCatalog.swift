@testable import Catalog
import FoundationEssentials
import FuzzDriver

@_cdecl("FuzzCatalog_main")
func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    FuzzDriver.run(argc, argv, exercise: exercise)
}

/// A catalog file: YAML, then every key, value and diagnostic of the decoder. Then the same bytes
/// made alias-heavy: anchored once as a body's text and repeated through aliases, nested, so the
/// expanded size of every input is counted (scripts/fuzz runs this target under a memory limit:
/// an expansion that is not bounded ends the run).
func exercise(_ data: Data) {
    let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(files: ["fuzz.yaml": data, "fixtures/a.json": Data("{}".utf8)]), source: .bundled)
    _ = catalog.summary
    let amplified = CatalogLoader.load(fileSystem: InMemoryFileSystem(files: ["bomb.yaml": Data(aliasHeavy(data).utf8)]), source: .bundled)
    _ = amplified.summary
}

/// A catalog whose stub body repeats `data` (as a quoted string, up to 4 KiB) 64 times in each of
/// four nested levels: 16 million copies once expanded, far past the 64 MiB cap.
func aliasHeavy(_ data: Data) -> String {
    var text = ""
    for byte in data.prefix(4096) {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): text += "\\" + String(UnicodeScalar(byte))
        case 0x20..<0x7F: text.unicodeScalars.append(UnicodeScalar(byte))
        default:
            let digits = Array("0123456789ABCDEF")
            text += "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0xF)])
        }
    }
    var lines = [
        "environments: { local: { baseURL: \"http://127.0.0.1:1\" } }", "endpoints:", "  bomb:", "    path: /bomb", "    stub:", "      body:",
        "        l0: &l0 \"\(text)\"",
    ]
    for level in 1...4 {
        lines.append("        l\(level): &l\(level) [" + Array(repeating: "*l\(level - 1)", count: 64).joined(separator: ", ") + "]")
    }
    return lines.joined(separator: "\n")
}
