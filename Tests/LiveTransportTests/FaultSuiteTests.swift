import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

/// Hostile and broken servers (issue 12): every case ends with the right error kind, in bounded
/// time, through the dispatcher as the explorer and `call` see it.
@Suite("Fault suite", .offPool)
struct FaultSuiteTests {
    struct Fault: Sendable, CustomTestStringConvertible {
        let name: String
        let response: @Sendable () -> TestResponse
        /// Patient but for the timeout cases, so a loaded machine never turns a fault into a timeout.
        var timeouts = patientTimeouts
        var maximumBodySize = 1 << 20
        let kind: ErrorKind
        var atLeast: Duration = .zero

        var testDescription: String { name }
    }

    static let shortRead = Timeouts(connect: .seconds(60), read: .milliseconds(500), total: .seconds(120))

    static let faults: [Fault] = [
        Fault(name: "reset mid-body", response: { .truncated(declaredLength: 10_000, sentBytes: 100, ending: .reset) }, kind: .connectionLost),
        Fault(name: "closed mid-body (lying Content-Length)", response: { .truncated(declaredLength: 10_000, sentBytes: 100, ending: .close) }, kind: .connectionLost),
        Fault(name: "broken chunked body", response: { .chunked(totalBytes: 100_000, chunkSize: 1000, abortAfterBytes: 5000, abortEnding: .reset) }, kind: .connectionLost),
        Fault(name: "never answers", response: { .neverRespond }, timeouts: Self.shortRead, kind: .timeout, atLeast: .milliseconds(450)),
        Fault(
            name: "lying Content-Length, then silence", response: { .truncated(declaredLength: 1000, sentBytes: 100, ending: .stall) },
            timeouts: Self.shortRead, kind: .timeout, atLeast: .milliseconds(450)),
        Fault(
            name: "drip under the read timeout", response: { .chunked(totalBytes: 1000, chunkSize: 1, interval: .milliseconds(50)) },
            timeouts: Timeouts(connect: .seconds(60), read: .seconds(1), total: .seconds(1)), kind: .timeout, atLeast: .milliseconds(950)),
        Fault(name: "declared Content-Length over the cap", response: { .bytes(TestPattern.bytes(count: 2 << 20)) }, kind: .bodyTooLarge),
        Fault(name: "chunked body over the cap", response: { .chunked(totalBytes: 4 << 20, chunkSize: 65_536) }, kind: .bodyTooLarge),
        Fault(name: "gzip bomb (1 GiB from ~1 MB)", response: { .compressionBomb(.gzip, decodedSize: 1 << 30) }, kind: .bodyTooLarge),
        Fault(name: "damaged gzip", response: { .bytes([0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 0xFF, 0xFF, 0xFF, 0xFF], headers: ["Content-Encoding": "gzip"]) }, kind: .decodingFailed),
    ]

    @Test(arguments: faults)
    func endsWithItsKindInBoundedTime(fault: Fault) async throws {
        // Made before the clock starts (a 1 GiB bomb takes seconds to encode): the bound is the transport's.
        let response = fault.response()
        try await withServerAndTransport(handler: { _ in response }) { server, transport in
            let environment = liveEnvironment(server.baseURL, timeouts: fault.timeouts, maximumBodySize: fault.maximumBodySize)
            let dispatcher = Dispatcher<Target>(environment: environment, transport: transport)
            let (exchange, time) = await elapsed { await dispatcher.send(Target(.get, "/fault")) }
            #expect(exchange.error?.kind == fault.kind, "\(exchange.error?.message ?? "no error") \(time)")
            #expect(time >= fault.atLeast && time < atOnce, "\(time)")
            if fault.kind == .bodyTooLarge {
                #expect((exchange.error?.response?.body.count ?? 0) <= fault.maximumBodySize)
                #expect(exchange.error?.response?.isTruncated == true)
            }
        }
    }

    @Test func aRedirectLoopEndsAtTheLimit() async throws {
        try await withServerAndTransport(handler: TestHandlers.redirectLoop()) { server, transport in
            let dispatcher = Dispatcher<Target>(environment: liveEnvironment(server.baseURL), transport: transport)
            let (exchange, time) = await elapsed { await dispatcher.send(Target(.get, "/loop/a")) }
            #expect(exchange.error?.kind == .unknown)
            #expect(exchange.error?.message.lowercased().contains("redirect") == true, "\(exchange.error?.message ?? "")")
            // Milliseconds alone; the bound catches a loop that only the total deadline would end.
            #expect(time < atOnce)
        }
    }

    @Test func aStatusOfZeroWithABodyIsRefusedNotATrap() async throws {
        // Found by FuzzHTTPResponse: AsyncHTTPClient took "000" for an informational head and
        // trapped on the body that followed, ending the process.
        let server = try await SilentTCPServer.start(replying: Array("HTTP/1.1 000 OK\r\nContent-Length: 5\r\n\r\nhello".utf8))
        let baseURL = try #require(URL(string: "http://127.0.0.1:\(server.port)"))
        try await withTransport { transport in
            let dispatcher = Dispatcher<Target>(environment: liveEnvironment(baseURL), transport: transport)
            let (exchange, time) = await elapsed { await dispatcher.send(Target(.get, "/zero")) }
            #expect(exchange.error?.message.hasSuffix("answered with the status 0, which is not an HTTP status (100–999).") == true, "\(exchange.error?.message ?? "")")
            #expect(time < atOnce)
        }
        try await server.shutdown()
    }

    @Test func aStatusOfZeroOverHTTP2IsRefusedNotATrap() async throws {
        // The same head over HTTP/2 (`:status: 0`): the guard sits after each stream's HTTP/2 to
        // HTTP/1 translation too.
        let zero = TestResponse.bytes(Array("hello".utf8), status: .custom(code: 0, reasonPhrase: ""))
        try await withServerAndTransport(tls: .trusted, handler: { _ in zero }) { server, transport in
            let dispatcher = Dispatcher<Target>(environment: liveEnvironment(server.baseURL, trust: testCATrust), transport: transport)
            let (exchange, time) = await elapsed { await dispatcher.send(Target(.get, "/zero")) }
            #expect(server.lastRequest?.version == .init(major: 2, minor: 0))
            #expect(exchange.error?.kind == .unknown)
            #expect(exchange.error?.message.hasSuffix("answered with the status 0, which is not an HTTP status (100–999).") == true, "\(exchange.error?.message ?? "")")
            #expect(time < atOnce)
            // The connection still serves the next stream.
            let (next, _) = await elapsed { await dispatcher.send(Target(.get, "/again")) }
            #expect(next.error?.message.contains("status 0") == true)
        }
    }
}
