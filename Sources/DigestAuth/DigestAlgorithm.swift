import CryptoSupport

/// The hash a Digest challenge names (RFC 7616 §3.3); `-sess` variants hash the client nonce in.
package enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    case md5 = "MD5"
    case md5Session = "MD5-sess"
    case sha256 = "SHA-256"
    case sha256Session = "SHA-256-sess"
    case sha512_256 = "SHA-512-256"
    case sha512_256Session = "SHA-512-256-sess"

    /// Whether A1 includes the nonces.
    var isSession: Bool { rawValue.hasSuffix("-sess") }

    /// The hash function.
    var function: HashFunction {
        switch self {
        case .md5, .md5Session: .md5
        case .sha256, .sha256Session: .sha256
        case .sha512_256, .sha512_256Session: .sha512_256
        }
    }

    /// Stronger hashes rank higher: a server offering several is answered with the strongest.
    var strength: Int {
        switch function {
        case .sha512_256: 2
        case .sha256: 1
        default: 0
        }
    }
}
