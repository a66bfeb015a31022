import Crypto
import FoundationEssentials
import NIOSSL
import SwiftASN1
import X509

/// The mock server's TLS identity (`apiexplorer mock --tls`): a server certificate for 127.0.0.1
/// and localhost, made at start (swift-certificates) and signed by the mock's own CA, whose
/// certificate the bundled catalogs trust through `tls.ca` and whose server key they pin.
///
/// Both keys are fixed and public on purpose, so the pin and the CA file in the bundled catalogs
/// stay right from one start to the next: they protect nothing and exist to try TLS offline.
/// Never trust this CA for anything else.
public enum MockTLS {
    /// Where the mock serves HTTPS by default.
    public static let defaultPort = 4443

    /// The CA's subject.
    static let authorityName = "apiexplorer mock CA (for local trials only)"

    static let authorityKey = fixedKey([
        45, 60, 8, 163, 14, 147, 215, 231, 44, 174, 181, 217, 13, 13, 110, 125, 130, 71, 129, 54, 134, 144, 70, 25, 227, 218, 80, 62, 74, 24, 127, 89,
    ])
    static let serverKey = fixedKey([
        230, 11, 3, 220, 255, 43, 57, 85, 6, 189, 151, 19, 19, 66, 83, 42, 150, 18, 201, 6, 26, 142, 94, 16, 242, 192, 205, 87, 209, 125, 3, 142,
    ])

    private static func fixedKey(_ bytes: [UInt8]) -> P256.Signing.PrivateKey {
        guard let key = try? P256.Signing.PrivateKey(rawRepresentation: bytes) else { preconditionFailure("a fixed P-256 key") }
        return key
    }

    /// The pin of the server key, as catalogs write it (`sha256/` and the base64 of the SHA-256 of
    /// its SubjectPublicKeyInfo: curl's `--pinnedpubkey` form).
    public static var serverPin: String {
        "sha256/" + Data(SHA256.hash(data: serverKey.publicKey.derRepresentation)).base64EncodedString()
    }

    /// The CA certificate (self-signed, valid 2026–2046), PEM: what `environments/fixtures/mock-tls/ca.pem` holds.
    public static func authorityCertificatePEM() throws -> String {
        let name = try DistinguishedName { CommonName(authorityName) }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(authorityKey.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 1_767_225_600), notValidAfter: Date(timeIntervalSince1970: 2_398_377_600),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.isCertificateAuthority(maxPathLength: 0))
                Critical(KeyUsage(keyCertSign: true, cRLSign: true))
                SubjectKeyIdentifier(hash: Certificate.PublicKey(authorityKey.publicKey))
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey))
        return try certificate.serializeAsPEM().pemString
    }

    /// A server certificate for 127.0.0.1 and localhost, valid from an hour before `now` for 30 days.
    static func serverCertificate(now: Date) throws -> Certificate {
        try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: Certificate.PublicKey(serverKey.publicKey),
            notValidBefore: now.addingTimeInterval(-3600), notValidAfter: now.addingTimeInterval(30 * 86_400),
            issuer: try DistinguishedName { CommonName(authorityName) }, subject: try DistinguishedName { CommonName("127.0.0.1") },
            signatureAlgorithm: .ecdsaWithSHA256,
            extensions: try Certificate.Extensions {
                Critical(BasicConstraints.notCertificateAuthority)
                Critical(KeyUsage(digitalSignature: true))
                try ExtendedKeyUsage([.serverAuth])
                SubjectAlternativeNames([.dnsName("localhost"), .ipAddress(ASN1OctetString(contentBytes: [127, 0, 0, 1]))])
                AuthorityKeyIdentifier(keyIdentifier: SubjectKeyIdentifier(hash: Certificate.PublicKey(authorityKey.publicKey)).keyIdentifier)
            },
            issuerPrivateKey: Certificate.PrivateKey(authorityKey))
    }

    /// The server side of the mock's TLS, with a certificate made now.
    static func serverContext(now: Date = Date()) throws -> NIOSSLContext {
        var serializer = DER.Serializer()
        try serializer.serialize(try serverCertificate(now: now))
        let certificate = try NIOSSLCertificate(bytes: serializer.serializedBytes, format: .der)
        let key = try NIOSSLPrivateKey(bytes: Array(serverKey.derRepresentation), format: .der)
        var configuration = TLSConfiguration.makeServerConfiguration(certificateChain: [.certificate(certificate)], privateKey: .privateKey(key))
        configuration.applicationProtocols = ["http/1.1"]
        return try NIOSSLContext(configuration: configuration)
    }
}
