import AsyncHTTPClient
import DispatcherCore
import Foundation
@testable import LiveTransport
import NIOSSL
import TestSupport
import Testing
import TestTraits

/// Pieces of the transport that need no server.
@Suite("Transport internals", .offPool)
struct TransportInternalsTests {
    @Test func certificateNamesTellSelfSignedAndNameTheIssuer() throws {
        let selfSigned = try #require(CertificateNames(der: try TestCertificates.selfSigned.certificate().toDERBytes()))
        #expect(selfSigned.isSelfIssued)
        let leaf = try #require(CertificateNames(der: try TestCertificates.otherServer.certificate().toDERBytes()))
        #expect(!leaf.isSelfIssued)
        #expect(leaf.issuerCommonName == "apiexplorer Untrusted Test CA")
        #expect(CertificateNames(der: [0x30, 0x03, 0x02, 0x01]) == nil)  // truncated input is refused, not trapped on
        #expect(CertificateNames(der: []) == nil)
    }

    /// No distributed tracing: AsyncHTTPClient makes no span per request (the first one alone
    /// cost seven conformance scans in a one-shot `call`).
    @Test func clientsAreMadeWithoutATracer() throws {
        let pool = ClientPool(settings: HTTPTransport.Configuration(proxy: ProxyConfiguration()))
        let configuration = try pool.configuration(for: ClientKey(trust: ServerTrust(), proxy: nil, connect: nil, read: nil))
        #expect(configuration.tracing.tracer == nil)
    }

    @Test func ourPinsEqualOpenSSLs() throws {
        for identity in [TestCertificates.server, TestCertificates.otherServer, TestCertificates.selfSigned] {
            let computed = try PinVerifier.pin(of: identity.certificate())
            #expect(computed.description == "sha256/" + (try identity.opensslSPKIPin()))
        }
    }

    @Test func boringSSLReasonsAreExtracted() {
        let text = "sslError([Error: 268435581 error:1000007d:SSL routines:OPENSSL_internal:CERTIFICATE_VERIFY_FAILED at ...])"
        #expect(TransportError.tlsReason(in: text) == "CERTIFICATE_VERIFY_FAILED")
        #expect(TransportError.tlsReason(in: "nothing here") == nil)
    }

    @Test func redirectPlanning() throws {
        let hop = Hop(method: .post, url: URL(string: "https://a.example/form")!, headers: ["Content-Type": "text/plain"], body: Data("x".utf8))
        func redirect(_ status: Int, to location: String) -> Response {
            Response(status: status, headers: Headers([("Location", location)], origin: .server))
        }
        let relative = try #require(try hop.following(redirect(307, to: "../next?q=1")))
        #expect(relative.url.absoluteString == "https://a.example/next?q=1")
        #expect(relative.method == .post && relative.body != nil)
        let seeOther = try #require(try hop.following(redirect(303, to: "/done")))
        #expect(seeOther.method == .get && seeOther.body == nil && !seeOther.headers.contains("Content-Type"))
        #expect(try hop.following(Response(status: 302)) == nil)  // no Location: not followed
        #expect(try hop.following(redirect(304, to: "/x")) == nil)
        #expect(throws: TransportError.self) { try hop.following(redirect(302, to: "http://[bad")) }
        #expect(Hop.sameOrigin(URL(string: "https://a.example/x")!, URL(string: "https://A.example:443/y")!))
        #expect(!Hop.sameOrigin(URL(string: "https://a.example/x")!, URL(string: "http://a.example/x")!))
    }

    @Test func durationsReadWellInMessages() {
        #expect(TransportError.text(of: .milliseconds(250)) == "250 ms")
        #expect(TransportError.text(of: .seconds(2)) == "2 s")
        #expect(TransportError.text(of: .milliseconds(1500)) == "1.5 s")
    }
}
