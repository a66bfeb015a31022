import DispatcherCore
import Foundation
import LiveTransport
@testable import MockServer
import NIOSSL
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// `apiexplorer mock --tls`: HTTPS with a certificate made at start and signed by the mock's CA;
/// the bundled httpbin environments trust it through that CA and pin its key (tls), pin another
/// key (wrongPin), or do not trust the CA (untrusted), so every TLS outcome can be tried offline.
@Suite(.offPool) struct MockTLSTests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let authorityFile = repository.appendingPathComponent("environments/fixtures/mock-tls/ca.pem")

    /// `UPDATE_DOCS=1` writes the CA certificate anew (its signature differs each time; its key and name do not).
    @Test func theCommittedCACertificateIsTheMocksCA() throws {
        if ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1" {
            try MockTLS.authorityCertificatePEM().write(to: Self.authorityFile, atomically: true, encoding: .utf8)
        }
        let certificate = try #require(try NIOSSLCertificate.fromPEMFile(Self.authorityFile.path).first)
        #expect(try certificate.extractPublicKey().toSPKIBytes() == MockTLS.authorityKey.verifyingKey.subjectPublicKeyInfo)
    }

    @Test func theBundledEnvironmentsPinTheMocksKey() throws {
        let httpbin = try #require(BundledCatalogs.load().service("httpbin"))
        let pins = { (name: String) in httpbin.environments.first { $0.name == name }?.trust.pins.map(\.description) }
        #expect(pins("tls") == [MockTLS.serverPin])
        #expect(pins("wrongPin")?.contains(MockTLS.serverPin) == false)
        #expect(httpbin.environments.first { $0.name == "tls" }?.trust.certificateAuthority != nil)
        #expect(httpbin.environments.first { $0.name == "untrusted" }?.trust.certificateAuthority == nil)
    }

    @Test func everyTLSOutcomeAgainstTheMock() async throws {
        let catalog = BundledCatalogs.load()
        let httpbin = try #require(catalog.service("httpbin"))
        let server = MockServer(services: [httpbin], configuration: MockServer.Configuration(port: 0, honourDelays: false, tlsPort: 0))
        try await server.start()
        let transport = HTTPTransport(configuration: HTTPTransport.Configuration(proxy: .none))
        let port = try #require(server.tlsPort)
        func send(_ environmentName: String) async throws -> Exchange {
            var environment = try #require(httpbin.environments.first { $0.name == environmentName })
            environment.baseURL = try #require(URL(string: "https://127.0.0.1:\(port)/httpbin"))
            // The bundled environments' 2 s connect timeout is for people; a busy machine needs more.
            environment.timeouts = Timeouts(connect: .seconds(60), read: .seconds(60), total: .seconds(120))
            let session = ServiceSession(service: httpbin, environment: environment, transport: transport)
            return await session.send("uuid", options: RequestOptions(stubBehavior: .never))
        }
        let trusted = try await send("tls")
        #expect(trusted.response?.status == 200, "\(String(describing: trusted.error))")
        let wrongPin = try await send("wrongPin")
        #expect(wrongPin.error?.kind == .pinningFailed)
        #expect(wrongPin.error?.message.contains("It presented \(MockTLS.serverPin)") == true, "\(wrongPin.error?.message ?? "")")
        let untrusted = try await send("untrusted")
        #expect(untrusted.error?.kind == .tlsFailure)
        try await transport.shutdown()
        await server.stop()
    }
}
