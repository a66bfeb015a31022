/// The hash a Digest challenge names (RFC 7616 §3.3); `-sess` variants hash the client nonce in.
public enum DigestAlgorithm: String, Sendable, Hashable, CaseIterable {
    case md5 = "MD5"
    case md5Session = "MD5-sess"
    case sha256 = "SHA-256"
    case sha256Session = "SHA-256-sess"

    /// Whether A1 includes the nonces.
    var isSession: Bool { self == .md5Session || self == .sha256Session }
}
