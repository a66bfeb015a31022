import CLibCrypto

/// A cryptographic hash function of the system's libcrypto.
package enum HashFunction: String, Sendable, CaseIterable {
    case md5 = "MD5"
    case sha1 = "SHA1"
    case sha256 = "SHA256"
    case sha384 = "SHA384"
    case sha512 = "SHA512"
    /// SHA-512 truncated to 256 bits with its own initial values (FIPS 180-4), not SHA-512 cut short.
    case sha512_256 = "SHA512-256"

    /// The digest of `bytes`.
    package func hash(_ bytes: some Sequence<UInt8>) -> [UInt8] {
        let input = Array(bytes)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = input.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &output, &length, method, nil)
        }
        // Only a libcrypto without the algorithm fails here; every supported one has them all.
        precondition(done == 1, "libcrypto could not compute \(rawValue)")
        return Array(output.prefix(Int(length)))
    }

    /// The digest of `bytes` as lowercase hexadecimal.
    package func hexHash(_ bytes: some Sequence<UInt8>) -> String {
        hash(bytes).hexadecimal
    }

    /// The HMAC (RFC 2104) of `message` under `key`.
    package func authenticationCode(for message: some Sequence<UInt8>, key: some Sequence<UInt8>) -> [UInt8] {
        let message = Array(message)
        let key = Array(key)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let done = key.withUnsafeBytes { key in
            message.withUnsafeBytes { message in
                HMAC(method, key.baseAddress, Int32(key.count), message.baseAddress?.assumingMemoryBound(to: UInt8.self), message.count, &output, &length)
            }
        }
        precondition(done != nil, "libcrypto could not compute HMAC-\(rawValue)")
        return Array(output.prefix(Int(length)))
    }

    /// The length of a digest, in bytes.
    package var digestLength: Int { Int(EVP_MD_get_size(method)) }

    var method: OpaquePointer {
        switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        case .sha512_256: EVP_sha512_256()
        }
    }
}

extension Sequence<UInt8> {
    /// The bytes as lowercase hexadecimal.
    package var hexadecimal: String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
