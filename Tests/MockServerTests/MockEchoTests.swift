import CatalogTestSupport
import DispatcherCore
import Foundation
import LiveTransport
@testable import MockServer
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// An example with `echo: true`: the mock and stub mode answer with what the request carried, a
/// multipart body's text fields and files (by name, type and size) included, so an upload is
/// checked end to end, offline too.
@Suite(.offPool) struct MockEchoTests {
    static let catalog = """
        service: files
        environments:
          local: { baseURL: "http://127.0.0.1:9/files", fixtures: never }
        endpoints:
          upload:
            method: POST
            path: /upload
            query: { album: trips }
            multipart:
              - { name: title, value: "Holiday {{year}}" }
              - { name: photo, file: photo.png }
            parameters: { year: "2026" }
            stub: { status: 201, echo: true, body: { stub: true } }
          form:
            method: POST
            path: /form
            form: { a: "1", b: two words }
            stub: { echo: true }
        """

    @Test func theMockEchoesMultipartFieldsAndFilesAndForms() async throws {
        let folder = try TemporaryCatalog(["files.yaml": Self.catalog])
        try folder.write("photo.png", Data(repeating: 7, count: 70))
        let catalog = folder.load()
        let service = try #require(catalog.service("files"))
        // An echoing example's body is never sent: said, not silently dropped.
        #expect(catalog.diagnostics.map(\.message) == ["the stub of endpoint 'upload' echoes the request, so its 'body' is never sent"], "\(catalog.diagnostics)")
        let server = MockServer(services: [service], configuration: MockServer.Configuration(port: 0, honourDelays: false))
        try await server.start()
        let transport = HTTPTransport(configuration: HTTPTransport.Configuration(proxy: .none))
        var environment = service.environments[0]
        environment.baseURL = try #require(server.baseURL(of: "files"))
        let session = ServiceSession(service: service, environment: environment, transport: transport)
        let upload = await session.send("upload", options: RequestOptions(stubBehavior: .never))
        #expect(upload.response?.status == 201)
        let echoed = try #require(try JSONSerialization.jsonObject(with: upload.response?.body ?? Data()) as? [String: Any])
        #expect(echoed["method"] as? String == "POST")
        #expect((echoed["args"] as? [String: Any])?["album"] as? String == "trips")
        #expect((echoed["form"] as? [String: Any])?["title"] as? String == "Holiday 2026")
        let photo = try #require((echoed["files"] as? [String: Any])?["photo"] as? [String: Any])
        #expect(photo["filename"] as? String == "photo.png")
        #expect(photo["contentType"] as? String == "image/png")
        #expect(photo["size"] as? Int == 70)
        let form = await session.send("form", options: RequestOptions(stubBehavior: .never))
        let fields = try #require(try JSONSerialization.jsonObject(with: form.response?.body ?? Data()) as? [String: Any])
        #expect((fields["form"] as? [String: Any])?["b"] as? String == "two words")
        // Stub mode echoes too, with the same method, query, fields and files as the mock saw.
        let stubbed = await session.send("upload", options: RequestOptions(stubBehavior: .immediate))
        #expect(stubbed.response?.status == 201)
        #expect(stubbed.response?.headers["Content-Type"] == "application/json")
        let stubEcho = try #require(try JSONSerialization.jsonObject(with: stubbed.response?.body ?? Data()) as? [String: Any])
        let canonical = { (value: Any?) in
            value.flatMap { try? JSONSerialization.data(withJSONObject: $0, options: [.sortedKeys, .fragmentsAllowed]) }.map { String(decoding: $0, as: UTF8.self) }
        }
        for key in ["method", "path", "args", "form", "files", "size"] {
            #expect(canonical(stubEcho[key]) != nil && canonical(stubEcho[key]) == canonical(echoed[key]), "\(key)")
        }
        let stubForm = await session.send("form", options: RequestOptions(stubBehavior: .immediate))
        let stubFields = try #require(try JSONSerialization.jsonObject(with: stubForm.response?.body ?? Data()) as? [String: Any])
        #expect((stubFields["form"] as? [String: Any])?["b"] as? String == "two words")
        try await transport.shutdown()
        await server.stop()
    }
}
