import DispatcherCore
import Foundation
import LiveTransport
import Synchronization
import TestSupport
import Testing
import TestTraits

/// Streamed request bodies on the wire: a multipart form arrives byte for byte as described, a file
/// body is read from disk as it is sent with its progress reported, and an unreadable file sends nothing.
@Suite("Bodies: streamed uploads", .offPool)
struct UploadTests {
    static func streamed(_ body: RequestBody, to url: URL, in environment: Environment, progress: (@Sendable (Int, Int) -> Void)? = nil) -> Request {
        let endpoint = Endpoint(
            identifier: "upload", url: url, method: .post, headers: Headers(), body: body, sampleResponse: .empty, examples: [],
            validation: .successCodes, expectsResponseBody: false, settings: TransportSettings(environment: environment))
        var options = RequestOptions()
        options.uploadProgress = progress
        return Request.make(from: endpoint, options: options)
    }

    @Test func aMultipartFormArrivesByteForByte() async throws {
        let folder = try TemporaryDirectory()
        let photo = folder.url.appendingPathComponent("photo.png")
        try Data(TestPattern.bytes(count: 700_000)).write(to: photo)
        let form = RequestBody.multipart([
            MultipartField(name: "title", content: .text("Holiday")),
            MultipartField(name: "photo", content: .file(path: photo.path, filename: nil)),
        ])
        try await withServerAndTransport(handler: { _ in .status(.created) }) { server, transport in
            let request = Self.streamed(form, to: server.url("/upload"), in: liveEnvironment(server.baseURL))
            let response = try await transport.send(request)
            #expect(response.status == 201)
            let received = try #require(server.lastRequest)
            let expected = try #require(request.streamedBody).collect(limit: 10 << 20)
            #expect(Data(received.body) == expected)
            #expect(received.headers.first(name: "Content-Type") == request.headers["Content-Type"])
            #expect(received.headers.first(name: "Content-Length") == String(expected.count))
        }
    }

    @Test func aFileBodyIsReadAsItIsSentWithItsProgress() async throws {
        let folder = try TemporaryDirectory()
        let file = folder.url.appendingPathComponent("data.bin")
        try Data(TestPattern.bytes(count: 1_500_000)).write(to: file)
        let reports = Mutex<[Int]>([])
        try await withServerAndTransport(handler: { _ in .status(.noContent) }) { server, transport in
            let request = Self.streamed(.file(path: file.path, contentType: nil), to: server.url("/put"), in: liveEnvironment(server.baseURL)) { sent, total in
                #expect(total == 1_500_000)
                reports.withLock { $0.append(sent) }
            }
            #expect(request.headers["Content-Type"] == "application/octet-stream")
            _ = try await transport.send(request)
            #expect(server.lastRequest?.body == TestPattern.bytes(count: 1_500_000))
            let sent = reports.withLock { $0 }
            #expect(sent.last == 1_500_000)
            #expect(sent.count >= 2)
            #expect(sent == sent.sorted())
        }
    }

    @Test func anUnreadableFileSendsNothingAndSaysWhich() async throws {
        try await withServerAndTransport(handler: { _ in .status(.ok) }) { server, transport in
            let request = Self.streamed(.file(path: "/nonexistent/upload.bin", contentType: nil), to: server.url("/put"), in: liveEnvironment(server.baseURL))
            let error = await failure(of: request, through: transport)
            #expect(error?.message == "Nothing was sent: the file /nonexistent/upload.bin of the request body cannot be read (missing, a folder, or not readable).")
            #expect(server.requestCount == 0)
        }
    }
}
