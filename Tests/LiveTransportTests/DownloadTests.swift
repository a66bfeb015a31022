import DispatcherCore
import Foundation
import LiveTransport
import NIOHTTP1
import TestSupport
import Testing
import TestTraits

/// Bodies written to a file as they arrive (`RequestOptions.download`): the file appears only
/// complete, an interrupted download continues with `Range`, a `200` to a range starts over, an
/// error's body stays in memory, and free space is checked before writing.
@Suite("Bodies: downloads to disk", .offPool)
struct DownloadTests {
    static func options(_ path: String) -> RequestOptions {
        var options = RequestOptions()
        options.download = DownloadDestination(path: path)
        return options
    }

    @Test func aBodyGoesToTheFileNotToMemoryAndPastTheCap() async throws {
        try await withServerAndTransport(handler: { _ in .chunked(totalBytes: 3_000_000, chunkSize: 65_536) }) { server, transport in
            let folder = try TemporaryDirectory()
            let path = folder.url.appendingPathComponent("body.bin").path
            // The memory cap is 1 MB: a download is not held to it.
            let environment = liveEnvironment(server.baseURL, maximumBodySize: 1_000_000)
            let response = try await transport.send(request(server.url("/big"), in: environment, options: Self.options(path)))
            #expect(response.body.isEmpty)
            #expect(response.downloadedFile == DownloadedFile(path: path, byteCount: 3_000_000))
            let written = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(written == Data(TestPattern.bytes(count: 3_000_000)))
            #expect(!FileManager.default.fileExists(atPath: path + ".part"))
            #expect(server.lastRequest?.headers.first(name: "Accept-Encoding") == "identity")
        }
    }

    @Test func anInterruptedDownloadContinuesWithRangeWhereItStopped() async throws {
        let whole = TestPattern.bytes(count: 500_000)
        let handler: TestHTTPServer.Handler = { request in
            guard let range = request.headers.first(name: "Range") else {
                // The first attempt: the connection breaks after 200,000 bytes.
                return .chunked(totalBytes: 500_000, chunkSize: 50_000, abortAfterBytes: 200_000, abortEnding: .close)
            }
            let start = Int(range.dropFirst(6).dropLast()) ?? 0
            return .chunked(
                bytes: [Array(whole[start...])], status: .partialContent,
                headers: ["Content-Range": "bytes \(start)-\(whole.count - 1)/\(whole.count)"])
        }
        try await withServerAndTransport(handler: handler) { server, transport in
            let folder = try TemporaryDirectory()
            let path = folder.url.appendingPathComponent("resumed.bin").path
            let environment = liveEnvironment(server.baseURL)
            let broken = await failure(of: request(server.url("/file"), in: environment, options: Self.options(path)), through: transport)
            #expect(broken != nil)
            let kept = try FileManager.default.attributesOfItem(atPath: path + ".part")[.size] as? Int ?? 0
            #expect(kept >= 200_000 && kept < 500_000, "\(kept)")
            #expect(!FileManager.default.fileExists(atPath: path))

            let response = try await transport.send(request(server.url("/file"), in: environment, options: Self.options(path)))
            #expect(server.lastRequest?.headers.first(name: "Range") == "bytes=\(kept)-")
            #expect(response.status == 206)
            #expect(response.downloadedFile == DownloadedFile(path: path, byteCount: 500_000, resumedFrom: kept))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(whole))
        }
    }

    @Test func aServerThatIgnoresTheRangeGetsTheWholeBodyWrittenAgain() async throws {
        try await withServerAndTransport(handler: { _ in .chunked(totalBytes: 100_000, chunkSize: 10_000) }) { server, transport in
            let folder = try TemporaryDirectory()
            let path = folder.url.appendingPathComponent("again.bin").path
            try Data(repeating: 0xFF, count: 40_000).write(to: URL(fileURLWithPath: path + ".part"))
            let response = try await transport.send(request(server.url("/file"), in: liveEnvironment(server.baseURL), options: Self.options(path)))
            #expect(server.lastRequest?.headers.first(name: "Range") == "bytes=40000-")
            #expect(response.downloadedFile == DownloadedFile(path: path, byteCount: 100_000))
            #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == Data(TestPattern.bytes(count: 100_000)))
        }
    }

    @Test func anErrorsBodyStaysInMemoryAndNoFileIsMade() async throws {
        try await withServerAndTransport(handler: { _ in .status(.notFound) }) { server, transport in
            let folder = try TemporaryDirectory()
            let path = folder.url.appendingPathComponent("missing.bin").path
            let response = try await transport.send(request(server.url("/gone"), in: liveEnvironment(server.baseURL), options: Self.options(path)))
            #expect(response.status == 404)
            #expect(response.downloadedFile == nil)
            #expect(!FileManager.default.fileExists(atPath: path))
            #expect(!FileManager.default.fileExists(atPath: path + ".part"))
        }
    }

    @Test func aBodyLargerThanTheFreeSpaceIsRefusedAtItsHead() async throws {
        // 1 PB declared: no disk here has that free.
        let handler: TestHTTPServer.Handler = { _ in .truncated(declaredLength: 1 << 50, sentBytes: 10, ending: .stall) }
        try await withServerAndTransport(handler: handler) { server, transport in
            let folder = try TemporaryDirectory()
            let path = folder.url.appendingPathComponent("huge.bin").path
            let error = await failure(of: request(server.url("/huge"), in: liveEnvironment(server.baseURL), options: Self.options(path)), through: transport)
            #expect(error?.code == .resourceUnavailable)
            #expect(error?.message.hasPrefix("Not enough free disk space for the download: it needs 1126 TB, ") == true)
            #expect(error?.message.hasSuffix(" are free where \(path) goes.") == true)
            #expect(!FileManager.default.fileExists(atPath: path + ".part"))
        }
    }
}
