import CLibCrypto

/// A libcrypto call failed: what was being done, and libcrypto's own reason.
package struct CryptoError: Error, Sendable, CustomStringConvertible {
    /// What failed and why, for a person.
    package let description: String

    init(_ what: String) {
        var reasons: [String] = []
        while case let code = ERR_get_error(), code != 0 {
            var buffer = [CChar](repeating: 0, count: 256)
            ERR_error_string_n(code, &buffer, buffer.count)
            reasons.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
        }
        description = reasons.isEmpty ? what : "\(what) (\(reasons.joined(separator: "; ")))"
    }
}
