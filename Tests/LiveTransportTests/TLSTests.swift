import DispatcherCore
import Foundation
import LiveTransport
import TestSupport
import Testing
import TestTraits

@Suite("TLS, custom CA, mutual TLS and pinning", .offPool)
struct TLSTests {
    static func pin(_ identity: TestCertificates.Identity) throws -> PublicKeyPin {
        try PublicKeyPin("sha256/" + identity.opensslSPKIPin())
    }

    @Test func aTrustedCustomCAConnects() async throws {
        try await withServerAndTransport(tls: .trusted, handler: { _ in .ok("secure") }) { server, transport in
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL, trust: testCATrust)))
            #expect(response.text == "secure")
        }
    }

    @Test func verificationIsOnByDefault() async throws {
        // The test CA is not a system root, so the default trust refuses the server.
        try await withServerAndTransport(tls: .trusted, handler: { _ in .ok() }) { server, transport in
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL)), through: transport)
            #expect(error?.code == .serverCertificateUntrusted)
            #expect(error?.message.contains("issued by “apiexplorer Test Root CA”, which the system does not trust") == true)
            #expect(server.requestCount == 0)
        }
    }

    @Test(arguments: [
        (TestServerTLS.untrusted, "is not trusted: it is issued by “apiexplorer Untrusted Test CA”, not by the environment's CA (ca.pem)"),
        (.selfSigned, "is not trusted: it is self-signed"),
        (.expired, "is not trusted: it expired on 2001-01-01"),
        (.wrongHost, "is not valid for the host name 127.0.0.1 (hostname mismatch)"),
    ])
    func untrustedCertificatesFailWithTheReason(tls: TestServerTLS, reason: String) async throws {
        try await withServerAndTransport(tls: tls, handler: { _ in .ok() }) { server, transport in
            let environment = liveEnvironment(server.baseURL, trust: testCATrust)
            let error = await failure(of: request(server.url("/"), in: environment), through: transport)
            #expect(error?.code == .serverCertificateUntrusted)
            #expect(error?.message.hasPrefix("The certificate of 127.0.0.1:\(server.port) \(reason)") == true, "\(error?.message ?? "")")
            #expect(server.requestCount == 0)
            let exchange = await Dispatcher<Target>(environment: environment, transport: transport).send(Target(.get, "/"))
            #expect(exchange.error?.kind == .tlsFailure)
        }
    }

    @Test func aServerSpeakingOnlyTLS11IsRefusedUnlessTheEnvironmentAcceptsIt() async throws {
        try await withServerAndTransport(tls: TestServerTLS.trusted.oldTLSOnly(), handler: { _ in .ok("old") }) { server, transport in
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL, trust: testCATrust)), through: transport)
            #expect(error?.code == .secureConnectionFailed, "\(String(describing: error))")
            #expect(server.requestCount == 0)
            var old = testCATrust
            old.minimumVersion = .v1_1
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL, trust: old)))
            #expect(response.text == "old")
        }
    }

    @Test func theInsecureFlagSkipsVerification() async throws {
        try await withServerAndTransport(tls: .selfSigned, handler: { _ in .ok("anyway") }) { server, transport in
            let environment = liveEnvironment(server.baseURL, trust: ServerTrust(allowInsecure: true))
            let response = try await transport.send(request(server.url("/"), in: environment))
            #expect(response.text == "anyway")
        }
    }

    @Test func aServerThatRequiresAClientCertificateGetsOne() async throws {
        try await withServerAndTransport(tls: .mutual, handler: { request in .ok(request.clientCertificate == nil ? "anonymous" : "known client") }) { server, transport in
            var trust = testCATrust
            trust.clientCertificate = ClientCertificate(
                certificate: TestCertificates.client.certificateURL, privateKey: TestCertificates.client.privateKeyURL)
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL, trust: trust)))
            #expect(response.text == "known client")
        }
    }

    @Test func withoutAClientCertificateTheMutualTLSServerRefuses() async throws {
        try await withServerAndTransport(tls: .mutual.http1Only(), handler: { _ in .ok() }) { server, transport in
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL, trust: testCATrust)), through: transport)
            #expect(error?.code == .secureConnectionFailed || error?.code == .networkConnectionLost)
            #expect(server.requestCount == 0)
        }
    }

    @Test func aMissingCAFileIsReportedBeforeConnecting() async throws {
        try await withServerAndTransport(tls: .trusted, handler: { _ in .ok() }) { server, transport in
            let trust = ServerTrust(certificateAuthority: URL(fileURLWithPath: "/nonexistent/ca.pem"))
            let error = await failure(of: request(server.url("/"), in: liveEnvironment(server.baseURL, trust: trust)), through: transport)
            #expect(error?.code == .secureConnectionFailed)
            #expect(error?.message == "The CA file /nonexistent/ca.pem does not exist or cannot be read.")
            #expect(server.connectionCount == 0)
        }
    }

    // MARK: Pinning

    @Test(arguments: [TestServerTLS.trusted.http1Only(), .trusted])
    func aMatchingPinConnects(tls: TestServerTLS) async throws {
        try await withServerAndTransport(tls: tls, handler: { _ in .ok("pinned") }) { server, transport in
            var trust = testCATrust
            trust.pins = [try Self.pin(TestCertificates.otherServer), try Self.pin(TestCertificates.server)]
            let response = try await transport.send(request(server.url("/"), in: liveEnvironment(server.baseURL, trust: trust)))
            #expect(response.text == "pinned")
        }
    }

    @Test(arguments: [TestServerTLS.trusted.http1Only(), .trusted])
    func aPinMismatchFailsAtOnceBeforeAnyRequestIsSent(tls: TestServerTLS) async throws {
        try await withServerAndTransport(tls: tls, handler: { _ in .ok() }) { server, transport in
            let expected = try Self.pin(TestCertificates.otherServer)
            let presented = "sha256/" + (try TestCertificates.server.opensslSPKIPin())
            var trust = testCATrust
            trust.pins = [expected]
            let environment = liveEnvironment(server.baseURL, trust: trust)
            let (error, time) = await elapsed { await failure(of: request(server.url("/secret"), in: environment), through: transport) }
            #expect(error?.code == .pinningFailed)
            #expect(error?.presentedPins == [presented])
            #expect(error?.message == "The server's public key does not match the catalog's pins. It presented \(presented); the catalog pins \(expected).")
            #expect(time < atOnce)  // not retried until the connect timeout
            try await waitUntil { server.tlsHandshakeCount >= 1 }  // the failure is the pin, not the handshake
            #expect(server.requestCount == 0)
            try await waitUntil { server.openConnectionCount == 0 }

            let exchange = await Dispatcher<Target>(environment: environment, transport: transport).send(Target(.get, "/secret"))
            #expect(exchange.error?.kind == .pinningFailed)
            #expect(server.requestCount == 0)
        }
    }

    @Test func pinsAreCheckedEvenWhenVerificationIsOff() async throws {
        try await withServerAndTransport(tls: .selfSigned.http1Only(), handler: { _ in .ok("self-signed, pinned") }) { server, transport in
            let good = liveEnvironment(server.baseURL, trust: ServerTrust(pins: [try Self.pin(TestCertificates.selfSigned)], allowInsecure: true))
            #expect(try await transport.send(request(server.url("/"), in: good)).text == "self-signed, pinned")
            let bad = liveEnvironment(server.baseURL, trust: ServerTrust(pins: [try Self.pin(TestCertificates.server)], allowInsecure: true))
            #expect(await failure(of: request(server.url("/"), in: bad), through: transport)?.code == .pinningFailed)
        }
    }

    @Test func aPinnedEnvironmentRefusesPlainHTTP() async throws {
        try await withServerAndTransport(handler: { _ in .ok() }) { server, transport in
            let environment = liveEnvironment(server.baseURL, trust: ServerTrust(pins: [try Self.pin(TestCertificates.server)]))
            let error = await failure(of: request(server.url("/"), in: environment), through: transport)
            #expect(error?.code == .pinningFailed)
            #expect(error?.message.contains("not encrypted") == true)
            #expect(server.requestCount == 0)
        }
    }
}
