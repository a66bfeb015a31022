import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

/// Each phase from the transport, against a server that delays that phase on purpose: the delay
/// lands in the phase curl puts it in, the phases keep curl's order, and curl's own figures on
/// the same server agree. Lower bounds and order only: the machine may be loaded.
@Suite("Transfer timing", .offPool)
struct TransferTimingTests {
    static let milliseconds200 = Duration.milliseconds(200)

    /// Sends GET `path` to a fresh phase server and returns the response.
    func send(_ delays: PhaseServer.Delays, tls: Bool = false, path: String = "/", host: String = "127.0.0.1") async throws -> Response {
        let server = try PhaseServer(delays, tls: tls)
        defer { server.stop() }
        return try await withTransport { transport in
            let base = URL(string: "\(tls ? "https" : "http")://\(host):\(server.port)")!
            let environment = liveEnvironment(base, trust: tls ? testCATrust : ServerTrust())
            return try await transport.send(request(base.appendingPathComponent(path), in: environment))
        }
    }

    /// The phases are in curl's order, none before the hop started.
    func expectOrdered(_ hop: HopTiming, sourceLocation: SourceLocation = #_sourceLocation) {
        let moments = [hop.nameLookup, hop.connect, hop.tlsHandshake, hop.requestStart, hop.requestSent, hop.firstByte, hop.lastByte].compactMap { $0 }
        #expect(moments.allSatisfy { $0 >= .zero }, sourceLocation: sourceLocation)
        #expect(moments == moments.sorted(), "\(hop)", sourceLocation: sourceLocation)
        #expect(hop.lastByte != nil && hop.firstByte != nil && hop.requestStart != nil && hop.requestSent != nil, sourceLocation: sourceLocation)
    }

    @Test func theFirstByteWaitsForTheServerAndTheBodyForItsLastPiece() async throws {
        let response = try await send(PhaseServer.Delays(head: 200, trickle: 300))
        let hop = try #require(response.transfer?.final)
        expectOrdered(hop)
        #expect(hop.firstByte! >= Self.milliseconds200)
        #expect(hop.lastByte! - hop.requestSent! >= .milliseconds(500))
        // Plain HTTP on a new connection: connected, no handshake.
        #expect(hop.connection?.reused == false)
        #expect(hop.connection?.tlsVersion == nil)
        #expect(hop.tlsHandshake == nil)
        #expect(hop.connect != nil)
        #expect(hop.connection?.remoteAddress == "127.0.0.1")
        #expect(hop.connection?.remotePort == response.url?.port)
        #expect(hop.connection?.httpVersion == "HTTP/1.1")
        #expect(hop.bytesReceived == 600)
        #expect(hop.status == 200)
        // curl's sums agree with the hop: one hop, no redirect.
        let curl = try #require(response.transfer?.curl)
        #expect(curl.startTransfer == hop.firstByte)
        #expect(curl.total == hop.started + hop.lastByte!)
        #expect(curl.appConnect == .zero)
    }

    @Test func aSlowHandshakeIsTheHandshakesTimeNotTheConnects() async throws {
        let response = try await send(PhaseServer.Delays(handshake: 200), tls: true)
        let hop = try #require(response.transfer?.final)
        expectOrdered(hop)
        #expect(hop.connection?.tlsVersion == "TLSv1.3")
        let (connect, handshake) = (try #require(hop.connect), try #require(hop.tlsHandshake))
        #expect(handshake >= Self.milliseconds200)
        #expect(handshake - connect >= Self.milliseconds200 - .milliseconds(5))
    }

    @Test func aLateAcceptHoldsTheHandshakeOrTheFirstByteAsInCurl() async throws {
        // TLS: the kernel completed the TCP handshake; the ClientHello waits to be read.
        let secure = try await send(PhaseServer.Delays(accept: 200), tls: true)
        let tlsHop = try #require(secure.transfer?.final)
        expectOrdered(tlsHop)
        #expect(try #require(tlsHop.tlsHandshake) >= Self.milliseconds200)
        // Plain: the request waits in the socket; the answer comes after the accept.
        let plain = try await send(PhaseServer.Delays(accept: 200))
        let plainHop = try #require(plain.transfer?.final)
        expectOrdered(plainHop)
        #expect(try #require(plainHop.firstByte) >= Self.milliseconds200)
    }

    @Test func aNameIsResolvedAndTimed() async throws {
        let response = try await send(PhaseServer.Delays(), host: "localhost")
        let hop = try #require(response.transfer?.final)
        expectOrdered(hop)
        #expect(hop.nameLookup != nil)
        #expect(["127.0.0.1", "::1"].contains(hop.connection?.remoteAddress ?? ""))
    }

    @Test func redirectsAreHopsOnTheConnectionTheyReuse() async throws {
        let response = try await send(PhaseServer.Delays(head: 50), path: "/redirect/2")
        let transfer = try #require(response.transfer)
        #expect(transfer.hops.map(\.status) == [302, 302, 200])
        #expect(transfer.hops.map { $0.url.hasSuffix("/redirect/2") || $0.url.hasSuffix("/redirect/1") || $0.url.hasSuffix("/done") } == [true, true, true])
        for hop in transfer.hops { expectOrdered(hop) }
        // Each hop starts after the previous one's last byte.
        for (earlier, later) in zip(transfer.hops, transfer.hops.dropFirst()) {
            #expect(later.started >= earlier.started + earlier.lastByte!)
        }
        #expect(transfer.hops.map { $0.connection?.reused } == [false, true, true])
        #expect(transfer.hops.dropFirst().allSatisfy { $0.connect == nil && $0.tlsHandshake == nil })
        let curl = transfer.curl
        #expect(curl.redirect == transfer.hops[2].started)
        #expect(curl.total >= curl.redirect + .milliseconds(50))
        #expect(curl.startTransfer >= .milliseconds(50))
    }

    @Test func aFailedAttemptKeepsThePhasesItReached() async throws {
        let server = try PhaseServer(PhaseServer.Delays(dropsFirstRequest: true))
        defer { server.stop() }
        try await withTransport { transport in
            let base = URL(string: server.baseURL)!
            let error = await failure(of: request(base, in: liveEnvironment(base)), through: transport)
            let hop = try #require(error?.transfer?.final)
            #expect(hop.connection?.reused == false)
            #expect(hop.requestSent != nil)
            #expect(hop.firstByte == nil)
            #expect(hop.status == nil)
        }
    }

    @Test func http2StreamsShareTheirConnectionsFacts() async throws {
        try await withServerAndTransport(tls: .trusted, handler: { request in .ok(request.headers.map(\.name).joined(separator: ",")) }) { server, transport in
            let environment = liveEnvironment(server.baseURL, trust: testCATrust)
            let first = try await transport.send(request(server.url("/"), in: environment))
            let second = try await transport.send(request(server.url("/"), in: environment))
            #expect(!first.text.lowercased().contains("x-apiexplorer"))
            let (a, b) = (try #require(first.transfer?.final), try #require(second.transfer?.final))
            expectOrdered(a)
            expectOrdered(b)
            #expect(a.connection?.httpVersion == "HTTP/2")
            #expect(a.connection?.tlsVersion != nil)
            #expect(a.connection?.reused == false)
            #expect(a.tlsHandshake != nil)
            #expect(b.connection?.reused == true)
            #expect(b.connect == nil && b.tlsHandshake == nil)
        }
    }

    @Test func withoutPhasesNothingIsRecorded() async throws {
        try await withServerAndTransport(handler: { request in .ok(request.headers.map(\.name).joined(separator: ",")) }, configure: { $0.recordsPhases = false }) { server, transport in
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL)))
            #expect(response.transfer == nil)
            #expect(!response.text.lowercased().contains("x-apiexplorer"))
        }
    }

    @Test func theTransferHeaderNeverReachesTheWire() async throws {
        try await withServerAndTransport(handler: { request in .ok(request.headers.map(\.name).joined(separator: ",")) }) { server, transport in
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL)))
            #expect(!response.text.lowercased().contains("x-apiexplorer"))
            #expect(response.transfer?.final?.connection != nil)
        }
    }
}
