import DispatcherCore
import Foundation
import LiveTransport
import Synchronization
import TestSupport
import Testing
import TestTraits

/// Responses seen as they arrive (`RequestOptions.onResponsePart`): the head and each part before
/// the server has finished, an observer that declines the body never copies it, and a stream has
/// no total deadline.
@Suite("Bodies: streamed as they arrive", .offPool)
struct StreamingTests {
    /// What an observer saw, and when.
    final class Seen: Sendable {
        let parts = Mutex<[(part: String, at: ContinuousClock.Instant)]>([])
        let wantsBody: Bool
        init(wantsBody: Bool = true) { self.wantsBody = wantsBody }

        var observer: ResponsePartObserver {
            { [self] part in
                let text: String = switch part {
                case .head(let status, let headers): "head \(status) \(headers["Content-Type"] ?? "")"
                case .body(let data): String(decoding: data, as: UTF8.self)
                }
                parts.withLock { $0.append((text, .now)) }
                return wantsBody
            }
        }
    }

    @Test func theHeadAndEachEventArriveBeforeTheServerFinishes() async throws {
        let chunks = ["id: 1\ndata: one\n\n", "id: 2\ndata: two\n\n", "id: 3\ndata: three\n\n"]
        let seen = Seen()
        // The server sends each event only once the client has seen the one before: the request
        // completes only if every event arrived while the body was still open.
        let handler: TestHTTPServer.Handler = { _ in
            .chunked(chunks, headers: ["Content-Type": "text/event-stream"]) { index in
                while seen.parts.withLock({ $0.count }) < index + 1 { try? await Task.sleep(for: .milliseconds(5)) }
            }
        }
        try await withServerAndTransport(handler: handler) { server, transport in
            let response = try await transport.send(request(
                server.url("/events"), in: liveEnvironment(server.baseURL), options: RequestOptions(onResponsePart: seen.observer)))
            let parts = seen.parts.withLock { $0 }
            #expect(parts.map(\.part) == ["head 200 text/event-stream"] + chunks)
            var parser = ServerSentEventParser()
            #expect(parser.parse(response.body).map(\.data) == ["one", "two", "three"])
        }
    }

    @Test func anObserverThatDeclinesTheBodySeesOnlyTheHead() async throws {
        try await withServerAndTransport(handler: { _ in .chunked(totalBytes: 300_000, chunkSize: 16_384) }) { server, transport in
            let seen = Seen(wantsBody: false)
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL), options: RequestOptions(onResponsePart: seen.observer)))
            #expect(response.body.count == 300_000)
            #expect(seen.parts.withLock { $0.count } == 1)
        }
    }

    @Test func aStreamHasNoTotalDeadlineButKeepsTheReadTimeout() async throws {
        // 8 parts 100 ms apart: 800 ms, four times the total timeout of 200 ms (the read timeout is
        // generous: a starved machine may wait seconds for the head).
        let handler: TestHTTPServer.Handler = { _ in .chunked(Array(repeating: "data: tick\n\n", count: 8), interval: .milliseconds(100)) }
        try await withServerAndTransport(handler: handler) { server, transport in
            let environment = liveEnvironment(
                server.baseURL, timeouts: Timeouts(connect: .seconds(60), read: .seconds(30), total: .milliseconds(200)))
            let plain = await failure(of: request(server.url("/"), in: environment), through: transport)
            #expect(plain?.code == .timedOut)
            let endpoint = Endpoint(
                identifier: "ticks", url: server.url("/"), method: .get, headers: Headers(), body: .none, sampleResponse: .empty,
                examples: [], validation: .successCodes, expectsResponseBody: true, settings: TransportSettings(environment: environment))
            let streamed = Request.make(from: endpoint, options: RequestOptions(isStream: true))
            #expect(streamed.settings.timeouts.total == nil)
            #expect(streamed.settings.timeouts.read == .seconds(30))
            let response = try await transport.send(streamed)
            #expect(response.body.count == 8 * 12)
        }
    }
}
