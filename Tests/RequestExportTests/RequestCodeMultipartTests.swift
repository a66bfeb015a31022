import CatalogTestSupport
import RequestExport
import Catalog
import DispatcherCore
import Foundation
import Sessions
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// Code export of a multipart endpoint: the curl command, the HTTPie command, the Python script
/// and the JavaScript module, each run against a capture server, send the same parts — names,
/// filenames, given types, bytes — as the request `call` sends (issue 34).
@Suite(.offPool) struct RequestCodeMultipartTests {
    struct Part: Equatable, CustomStringConvertible {
        var name: String
        var filename: String?
        var contentType: String?
        var content: Data
        var description: String { "\(name) \(filename ?? "-") \(contentType ?? "-") \(content.count) B" }
    }

    /// The request `call` sends for up/upload, its files in `folder`.
    static func request(base: String, folder: TemporaryDirectory) async throws -> Request {
        try folder.write("up.yaml", """
            service: up
            environments:
              local: { baseURL: "\(base)", fixtures: immediate }
            endpoints:
              upload:
                method: POST
                path: /upload
                headers: { X-Trace: t-1 }
                multipart:
                  - { name: title, value: "Trip & \\"sea\\" é" }
                  - { name: photo, file: beach.png }
                  - { name: meta, file: meta.json, contentType: application/vnd.meta+json }
            """)
        _ = FileManager.default.createFile(atPath: folder.url.appendingPathComponent("beach.png").path, contents: Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 1, 2, 255]))
        try folder.write("meta.json", #"{"camera": "x"}"#)
        let loaded = CatalogLoader.load(folder.catalogSource, trust: .everything)
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        let service = try #require(loaded.service("up"))
        let selection = EndpointSelection(service: service, endpoint: try #require(service.endpoint("upload")), environment: service.environments[0])
        return await EndpointCaller(catalog: loaded, transport: nil).call(selection, mode: .stub).exchange.request
    }

    /// The parts of a received multipart body (its boundary from the Content-Type).
    static func parts(of received: TestRequest) throws -> [Part] {
        let type = try #require(received.header("Content-Type"))
        #expect(type.hasPrefix("multipart/form-data"), "\(type)")
        let boundary = try #require(type.range(of: "boundary=").map { String(type[$0.upperBound...]).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) })
        let body = received.bodyData
        let delimiter = Data("--\(boundary)".utf8)
        var pieces: [Data] = []
        var start = body.startIndex
        while let range = body.range(of: delimiter, in: start..<body.endIndex) {
            pieces.append(body[start..<range.lowerBound])
            start = range.upperBound
        }
        // Between delimiters: CRLF, headers, CRLF CRLF, content, CRLF.
        return try pieces.dropFirst().map { piece in
            let separator = try #require(piece.range(of: Data("\r\n\r\n".utf8)))
            let head = String(decoding: piece[piece.startIndex..<separator.lowerBound], as: UTF8.self)
            var content = piece[separator.upperBound...]
            if content.suffix(2) == Data("\r\n".utf8) { content = content.dropLast(2) }
            var part = Part(name: "", content: Data(content))
            for line in head.split(separator: "\r\n") {
                let lowered = line.lowercased()
                if lowered.hasPrefix("content-type:") {
                    part.contentType = line.dropFirst("content-type:".count).trimmingCharacters(in: .whitespaces)
                } else if lowered.hasPrefix("content-disposition:") {
                    part.name = Self.parameter("name", in: String(line)) ?? ""
                    part.filename = Self.parameter("filename", in: String(line))
                }
            }
            return part
        }
    }

    static func parameter(_ name: String, in line: String) -> String? {
        guard let range = line.range(of: "; \(name)=\"") else { return nil }
        let rest = line[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// Runs what `render` writes with `tool` against a capture server: the parts it sent and the request.
    static func run(_ tool: String, probe: [String], file name: String, render: @escaping (Request) -> String) async throws -> (parts: [Part], received: TestRequest, sent: Request)? {
        guard let (path, environment) = try await RequestCodeTests.available(tool, probe: probe) else { return nil }
        return try await withTestHTTPServer(handler: { _ in .ok() }) { server in
            let folder = try TemporaryDirectory()
            let sent = try await request(base: server.url("/api").absoluteString, folder: folder)
            try folder.write(name, render(sent))
            let result = await (try ChildProcess(path, [folder.url.appendingPathComponent(name).path], environment: environment, directory: folder.path)).finish()
            #expect(result.status == 0, "\(result.errors)")
            let received = try #require(server.lastRequest)
            return (try parts(of: received), received, sent)
        }
    }

    /// What every tool must send: the fields in order, the files' bytes and names, the given type.
    static func expectTheParts(_ parts: [Part], _ received: TestRequest, tool: String) {
        #expect(received.method.rawValue == "POST", "\(tool)")
        #expect(received.uri == "/api/upload", "\(tool)")
        #expect(received.header("X-Trace") == "t-1", "\(tool)")
        #expect(parts.map(\.name) == ["title", "photo", "meta"], "\(tool): \(parts)")
        guard parts.count == 3 else { return }
        #expect(parts[0].content == Data("Trip & \"sea\" é".utf8), "\(tool)")
        #expect(parts[0].filename == nil, "\(tool)")
        #expect(parts[1].filename == "beach.png", "\(tool)")
        #expect(parts[1].content == Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 1, 2, 255]), "\(tool)")
        #expect(parts[2].filename == "meta.json", "\(tool)")
        #expect(parts[2].contentType == "application/vnd.meta+json", "\(tool)")
        #expect(parts[2].content == Data(#"{"camera": "x"}"#.utf8), "\(tool)")
    }

    @Test func curlSendsTheParts() async throws {
        guard let (parts, received, _) = try await Self.run("sh", probe: ["-c", "command -v curl"], file: "request.sh", render: {
            $0.curlCommand(redactor: nil) + " -s -o /dev/null"
        }) else { return }
        Self.expectTheParts(parts, received, tool: "curl")
    }

    @Test func httpieSendsTheParts() async throws {
        guard let (parts, received, _) = try await Self.run("sh", probe: ["-c", "command -v http"], file: "request.sh", render: {
            RequestCode.httpie.render($0, redactor: nil).trimmingCharacters(in: .newlines) + " --print=h"
        }) else { return }
        Self.expectTheParts(parts, received, tool: "HTTPie")
    }

    @Test func pythonSendsTheParts() async throws {
        guard let (parts, received, _) = try await Self.run("python3", probe: ["-c", "import requests"], file: "request.py", render: {
            RequestCode.python.render($0, redactor: nil)
        }) else { return }
        Self.expectTheParts(parts, received, tool: "Python")
    }

    @Test func javaScriptSendsTheParts() async throws {
        guard let (parts, received, _) = try await Self.run("node", probe: ["-e", "fetch; FormData; Blob"], file: "request.mjs", render: {
            RequestCode.javascript.render($0, redactor: nil)
        }) else { return }
        Self.expectTheParts(parts, received, tool: "JavaScript")
    }

    /// The exports name every part, so a multipart Content-Type never goes out with an empty body.
    @Test func everyExportNamesTheFilesAndNoBoundary() async throws {
        let folder = try TemporaryDirectory()
        let request = try await Self.request(base: "http://127.0.0.1:9/api", folder: folder)
        for code in RequestCode.allCases {
            let text = code.render(request)
            #expect(text.contains("beach.png") && text.contains("meta.json") && text.contains("title"), "\(code): \(text)")
            #expect(!text.contains("boundary="), "\(code): \(text)")
        }
    }
}
