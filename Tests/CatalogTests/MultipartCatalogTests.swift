import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import TestSupport
import Testing

@testable import Catalog
import TestTraits

/// `multipart:` and `bodyFile:` request bodies in a catalog: files checked where they are written,
/// not read; placeholders in text fields; bad fields diagnosed with their place.
@Suite(.offPool) struct MultipartCatalogTests {
    static let catalog = """
        service: album
        environments:
          local: { baseURL: "http://127.0.0.1:9/album" }
        endpoints:
          upload:
            method: POST
            path: /photos
            parameters: { year: "2026" }
            multipart:
              - { name: title, value: "Trip {{year}}" }
              - { name: photo, file: photos/beach.png, filename: sea.png }
              - { name: meta, file: photos/meta.json, contentType: application/vnd.meta+json }
        """

    @Test func fieldsAreReadWithTheirFilesCheckedButNotRead() throws {
        let folder = try TemporaryDirectory()
        try folder.write("album.yaml", Self.catalog)
        try folder.write("photos/beach.png", "PNG")
        try folder.write("photos/meta.json", "{}")
        let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: folder.url, displayPath: folder.url.path), trust: .everything)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        let endpoint = try #require(catalog.service("album")?.endpoint("upload"))
        guard case .multipart(let fields) = endpoint.body else {
            Issue.record("a multipart body")
            return
        }
        #expect(fields.map(\.name) == ["title", "photo", "meta"])
        #expect(fields[0].content == .text("Trip {{year}}"))
        guard case .file(let path, "sea.png") = fields[1].content else {
            Issue.record("a file field")
            return
        }
        #expect(path.hasPrefix("/") && path.hasSuffix("photos/beach.png"))
        #expect(fields[2].contentType == "application/vnd.meta+json")
        // Sent, the text is rendered and the files streamed.
        let service = try #require(catalog.service("album"))
        let prepared = try ServiceSession(service: service, environment: service.environments[0]).prepare(endpoint)
        guard case .multipart(let sent) = prepared.target.body else {
            Issue.record("rendered multipart")
            return
        }
        #expect(sent[0].content == .text("Trip 2026"))
    }

    @Test func missingFilesFoldersAndBadFieldsAreDiagnosedWhereTheyAre() throws {
        let folder = try TemporaryDirectory()
        try folder.write("cat/album.yaml", """
            service: album
            environments:
              local: { baseURL: "http://127.0.0.1:9/album" }
            endpoints:
              one:
                method: POST
                path: /one
                multipart:
                  - { name: photo, file: photos/missing.png }
                  - { name: folder, file: photos }
                  - { name: both, value: x, file: photos/a.png }
                  - { name: neither }
                  - { name: away, file: ../outside.png }
              two:
                method: PUT
                path: /two
                bodyFile: photos
            """)
        try folder.write("cat/photos/a.png", "A")
        try folder.write("outside.png", "O")
        let messages = CatalogLoader.load(CatalogSource(origin: .option, directory: folder.url.appendingPathComponent("cat"), displayPath: "cat"), trust: .everything).diagnostics.filter(\.isError).map { "\($0.line):\($0.column): \($0.message)" }
        #expect(messages.contains("9:30: the file of multipart field 1 of endpoint 'one' does not exist: 'photos/missing.png'"), "\(messages)")
        #expect(messages.contains("10:31: the file of multipart field 2 of endpoint 'one' is a folder, not a file: 'photos'"), "\(messages)")
        #expect(messages.contains { $0.hasPrefix("11:33: multipart field 3 of endpoint 'one' has both 'value' and 'file'") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("12:9: multipart field 4 of endpoint 'one' needs 'value' (text) or 'file'") }, "\(messages)")
        #expect(messages.contains { $0.hasPrefix("13:29: the file of multipart field 5 of endpoint 'one' is outside the catalog folder") }, "\(messages)")
        #expect(messages.contains("17:15: the body file of endpoint 'two' is a folder, not a file: 'photos'"), "\(messages)")
    }
}
