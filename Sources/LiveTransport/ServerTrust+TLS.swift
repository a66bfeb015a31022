import DispatcherCore
import FoundationEssentials
import NIOSSL

extension ServerTrust {
    /// The client TLS configuration for this trust: verification on unless `allowInsecure`; the
    /// custom CA *replaces* the system roots (as curl's `--cacert` does, so a pinned-down internal
    /// environment does not also accept every public CA); the client certificate for mutual TLS.
    /// Files are read here, so a missing or malformed one is reported before any connection.
    package func tlsConfiguration() throws(TransportError) -> TLSConfiguration {
        var configuration = TLSConfiguration.makeClientConfiguration()
        // NIOSSL's client accepts TLS 1.0 unless told otherwise.
        configuration.minimumTLSVersion = switch minimumVersion {
        case .v1_0: .tlsv1
        case .v1_1: .tlsv11
        case .v1_2: .tlsv12
        case .v1_3: .tlsv13
        }
        if allowInsecure {
            configuration.certificateVerification = .none
        }
        if let certificateAuthority {
            let roots = try Self.certificates(at: certificateAuthority, role: "CA file")
            configuration.trustRoots = .certificates(roots)
        }
        if let clientCertificate {
            let chain = try Self.certificates(at: clientCertificate.certificate, role: "client certificate")
            configuration.certificateChain = chain.map { .certificate($0) }
            do {
                configuration.privateKey = .privateKey(try NIOSSLPrivateKey(file: clientCertificate.privateKey.path, format: .pem))
            } catch {
                throw TransportError(
                    .secureConnectionFailed,
                    message: "The client key \(clientCertificate.privateKey.path) could not be read as an unencrypted PEM private key (\(error)).")
            }
        }
        return configuration
    }

    private static func certificates(at url: URL, role: String) throws(TransportError) -> [NIOSSLCertificate] {
        guard FileManager.default.isReadableFile(atPath: url.path) else {
            throw TransportError(.secureConnectionFailed, message: "The \(role) \(url.path) does not exist or cannot be read.")
        }
        let certificates: [NIOSSLCertificate]
        do {
            certificates = try NIOSSLCertificate.fromPEMFile(url.path)
        } catch {
            throw TransportError(.secureConnectionFailed, message: "The \(role) \(url.path) is not a PEM certificate file (\(error)).")
        }
        guard !certificates.isEmpty else {
            throw TransportError(.secureConnectionFailed, message: "The \(role) \(url.path) holds no certificate.")
        }
        return certificates
    }
}
