import DispatcherCore
import Foundation
import RequestExport
import Testing
import TestTraits

/// Multipart bodies laid out by RFC 7578 byte for byte, files measured but not read, and the curl
/// arguments that send the same form.
@Suite(.offPool) struct StreamedBodyTests {
    static func file(_ name: String, _ contents: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("streamed-\(UUID().uuidString)-\(name)")
        try Data(contents.utf8).write(to: url)
        return url.path
    }

    @Test func aMultipartFormIsLaidOutAsRFC7578Says() throws {
        let photo = try Self.file("photo.png", "PNGDATA")
        let body = try #require(StreamedBody(.multipart([
            MultipartField(name: "title", content: .text("Hello, wörld")),
            MultipartField(name: "note \"quoted\"", content: .text("a\r\nb"), contentType: "text/plain; charset=utf-8"),
            MultipartField(name: "photo", content: .file(path: photo, filename: "été \"1\".png")),
            MultipartField(name: "raw", content: .bytes(Data([0, 1, 2]), filename: "raw.bin")),
        ]), boundary: "XyZ"))
        #expect(body.contentType == "multipart/form-data; boundary=XyZ")
        let expected = "--XyZ\r\nContent-Disposition: form-data; name=\"title\"\r\n\r\nHello, wörld\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"note %22quoted%22\"\r\nContent-Type: text/plain; charset=utf-8\r\n\r\na\r\nb\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"photo\"; filename=\"été %221%22.png\"\r\nContent-Type: image/png\r\n\r\nPNGDATA\r\n"
            + "--XyZ\r\nContent-Disposition: form-data; name=\"raw\"; filename=\"raw.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n"
        var bytes = Data(expected.utf8)
        bytes.append(contentsOf: [0, 1, 2])
        bytes.append(Data("\r\n--XyZ--\r\n".utf8))
        #expect(try body.collect(limit: 1 << 20) == bytes)
        #expect(body.length == bytes.count)
        #expect(body.summary.hasPrefix("<multipart/form-data: title=Hello, wörld, note \"quoted\"=a\r\nb, photo=@été \"1\".png (7 B)"))
    }

    @Test func aFileIsMeasuredNotReadAndAMissingOneIsNamed() throws {
        let path = try Self.file("data.json", #"{"a":1}"#)
        let body = try #require(StreamedBody(.file(path: path, contentType: nil)))
        #expect(body.contentType == "application/json")
        #expect(body.length == 7)
        #expect(body.pieces == [.file(path: path)])
        #expect(body.unreadableFiles.isEmpty)
        let missing = try #require(StreamedBody(.file(path: "/nonexistent/x.bin", contentType: nil)))
        #expect(missing.unreadableFiles == ["/nonexistent/x.bin"])
        #expect(throws: StreamedBodyError.unreadable("/nonexistent/x.bin")) { try missing.collect(limit: 10) }
        #expect(StreamedBody(.json(.object([:]))) == nil)
    }

    @Test func curlSendsTheSameFormWithF() throws {
        let request = Request.make(
            from: Endpoint(
                identifier: "up", url: URL(string: "http://127.0.0.1:9/up")!, method: .post, headers: Headers(),
                body: .multipart([
                    MultipartField(name: "title", content: .text("@not a file")),
                    MultipartField(name: "photo", content: .file(path: "/tmp/p.png", filename: "beach.png"), contentType: "image/png"),
                ]),
                sampleResponse: .empty, examples: [], validation: .successCodes, expectsResponseBody: false,
                settings: TransportSettings(environment: Environment(name: "e", baseURL: URL(string: "http://127.0.0.1:9")!))),
            options: RequestOptions())
        #expect(request.body == nil)
        #expect(request.headers["Content-Type"]?.hasPrefix("multipart/form-data; boundary=apiexplorer-") == true)
        let curl = request.curlCommand()
        #expect(curl.contains("--form-string 'title=@not a file'"))
        #expect(curl.contains("-F 'photo=@/tmp/p.png;type=image/png;filename=beach.png'"))
        #expect(!curl.contains("Content-Type"))
    }
}
