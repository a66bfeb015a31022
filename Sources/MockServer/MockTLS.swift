import CryptoSupport
import FoundationEssentials
import NIOSSL

/// The mock server's TLS identity (`apiexplorer mock --tls`): a server certificate for 127.0.0.1
/// and localhost, made at start (CryptoSupport) and signed by the mock's own CA, whose
/// certificate the bundled catalogs trust through `tls.ca` and whose server key they pin.
///
/// Both keys are fixed and public on purpose, so the pin and the CA file in the bundled catalogs
/// stay right from one start to the next: they protect nothing and exist to try TLS offline.
/// Never trust this CA for anything else.
package enum MockTLS {
    /// Where the mock serves HTTPS by default.
    package static let defaultPort = 4443

    /// The CA's subject.
    static let authorityName = "apiexplorer mock CA (for local trials only)"

    static let authorityKey = fixedKey([
        45, 60, 8, 163, 14, 147, 215, 231, 44, 174, 181, 217, 13, 13, 110, 125, 130, 71, 129, 54, 134, 144, 70, 25, 227, 218, 80, 62, 74, 24, 127, 89,
    ])
    static let serverKey = fixedKey([
        230, 11, 3, 220, 255, 43, 57, 85, 6, 189, 151, 19, 19, 66, 83, 42, 150, 18, 201, 6, 26, 142, 94, 16, 242, 192, 205, 87, 209, 125, 3, 142,
    ])

    private static func fixedKey(_ scalar: [UInt8]) -> SigningKey {
        guard let key = try? SigningKey(curve: .p256, scalar: scalar) else { preconditionFailure("a fixed P-256 key") }
        return key
    }

    /// The pin of the server key, as catalogs write it (`sha256/` and the base64 of the SHA-256 of
    /// its SubjectPublicKeyInfo: curl's `--pinnedpubkey` form).
    package static var serverPin: String {
        "sha256/" + Data(HashFunction.sha256.hash(serverKey.verifyingKey.subjectPublicKeyInfo)).base64EncodedString()
    }

    /// The CA certificate (self-signed, valid 2026–2046), DER: what `environments/fixtures/mock-tls/ca.pem` holds.
    static func authorityCertificate() throws -> [UInt8] {
        try CertificateMaker(
            commonName: authorityName, subjectKey: authorityKey.verifyingKey, validity: (notBefore: 1_767_225_600, notAfter: 2_398_377_600),
            isAuthority: true
        ).certificate(issuerKey: authorityKey)
    }

    /// The CA certificate as PEM.
    package static func authorityCertificatePEM() throws -> String {
        CertificateMaker.pem(try authorityCertificate())
    }

    /// A server certificate (DER) for 127.0.0.1 and localhost, valid from an hour before `now` for 30 days.
    static func serverCertificate(now: Date) throws -> [UInt8] {
        let start = Int(now.timeIntervalSince1970)
        var maker = CertificateMaker(
            commonName: "127.0.0.1", subjectKey: serverKey.verifyingKey, validity: (notBefore: start - 3600, notAfter: start + 30 * 86_400),
            isAuthority: false)
        maker.dnsNames = ["localhost"]
        maker.ipAddresses = [[127, 0, 0, 1]]
        return try maker.certificate(issuerKey: authorityKey, issuer: try authorityCertificate())
    }

    /// The server side of the mock's TLS, with a certificate made now.
    static func serverContext(now: Date = Date()) throws -> NIOSSLContext {
        var configuration = try serverConfiguration(now: now)
        configuration.applicationProtocols = ["http/1.1"]
        return try NIOSSLContext(configuration: configuration)
    }

    /// The mock's certificate (made now) and key as a server configuration: what its gRPC server
    /// serves TLS with too, so one CA and one pin hold for both.
    package static func serverConfiguration(now: Date = Date()) throws -> TLSConfiguration {
        let certificate = try NIOSSLCertificate(bytes: try serverCertificate(now: now), format: .der)
        let key = try NIOSSLPrivateKey(bytes: serverKey.pkcs8, format: .der)
        return TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
    }
}
