import NIOCore
import NIOSSL

/// How a test server speaks TLS: its certificate, optional client-certificate requirement, ALPN.
package struct TestServerTLS: Sendable {
    /// The certificate and key the server presents.
    package var identity: TestCertificates.Identity
    /// When set, the server requires a client certificate that chains to this CA (mutual TLS).
    package var clientCertificateAuthority: TestCertificates.Identity?
    /// ALPN protocols offered, in preference order; `h2` makes HTTP/2 available to clients that ask.
    package var applicationProtocols: [String]
    /// The newest TLS version the server speaks; nil for any.
    package var maximumVersion: TLSVersion?

    /// A server with `identity`, optionally requiring client certificates from `clientCertificateAuthority`.
    package init(
        identity: TestCertificates.Identity = TestCertificates.server,
        requiringClientCertificatesFrom clientCertificateAuthority: TestCertificates.Identity? = nil,
        applicationProtocols: [String] = ["h2", "http/1.1"]
    ) {
        self.identity = identity
        self.clientCertificateAuthority = clientCertificateAuthority
        self.applicationProtocols = applicationProtocols
    }

    /// The certificate clients trust through `TestCertificates.ca`, offering h2 and HTTP/1.1.
    package static let trusted = TestServerTLS()
    /// A valid chain from `TestCertificates.otherCA`, which clients do not trust.
    package static let untrusted = TestServerTLS(identity: TestCertificates.otherServer)
    /// A self-signed certificate.
    package static let selfSigned = TestServerTLS(identity: TestCertificates.selfSigned)
    /// A certificate from the trusted CA that expired in 2001.
    package static let expired = TestServerTLS(identity: TestCertificates.expired)
    /// A certificate from the trusted CA for `wrong-host.invalid` only.
    package static let wrongHost = TestServerTLS(identity: TestCertificates.wrongHost)
    /// The trusted certificate, requiring a client certificate signed by `TestCertificates.clientCA`.
    package static let mutual = TestServerTLS(requiringClientCertificatesFrom: TestCertificates.clientCA)

    /// The same configuration offering only HTTP/1.1 through ALPN.
    package func http1Only() -> TestServerTLS {
        var copy = self
        copy.applicationProtocols = ["http/1.1"]
        return copy
    }

    /// The same configuration speaking TLS 1.0 and 1.1 only (an old server).
    package func oldTLSOnly() -> TestServerTLS {
        var copy = self
        copy.maximumVersion = .tlsv11
        return copy
    }

    /// Builds the NIOSSL context (loads the PEM files).
    func makeContext() throws -> NIOSSLContext {
        var configuration = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try identity.certificate())],
            privateKey: .privateKey(try identity.privateKey())
        )
        configuration.applicationProtocols = applicationProtocols
        if let maximumVersion {
            configuration.maximumTLSVersion = maximumVersion
            configuration.minimumTLSVersion = .tlsv1
        }
        // Closes are meant to be observed at once; never wait long for the peer's close_notify.
        configuration.shutdownTimeout = .milliseconds(100)
        if let clientCertificateAuthority {
            configuration.trustRoots = .certificates([try clientCertificateAuthority.certificate()])
            // BoringSSL maps this to VERIFY_PEER | FAIL_IF_NO_PEER_CERT: a client without a certificate fails.
            configuration.certificateVerification = .noHostnameVerification
        }
        return try NIOSSLContext(configuration: configuration)
    }
}
