import CLibCrypto

/// A JWS signature algorithm (RFC 7518 §3, RFC 8037).
package enum SignatureAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    case edDSA = "EdDSA"

    var hash: HashFunction? {
        switch self {
        case .rs256, .ps256, .es256: .sha256
        case .rs384, .ps384, .es384: .sha384
        case .rs512, .ps512, .es512: .sha512
        case .edDSA: nil
        }
    }

    /// The curve an ES algorithm signs with, and the length of r and of s in its signatures.
    var curve: EllipticCurve? {
        switch self {
        case .es256: .p256
        case .es384: .p384
        case .es512: .p521
        default: nil
        }
    }

    var isPSS: Bool { self == .ps256 || self == .ps384 || self == .ps512 }
}

/// The elliptic curves keys can be on (JWK `crv`).
package enum EllipticCurve: String, Sendable, CaseIterable {
    case p256 = "P-256", p384 = "P-384", p521 = "P-521"

    var groupName: String {
        switch self {
        case .p256: "prime256v1"
        case .p384: "secp384r1"
        case .p521: "secp521r1"
        }
    }

    /// The length of a coordinate (and of r and s), in bytes.
    package var coordinateLength: Int {
        switch self {
        case .p256: 32
        case .p384: 48
        case .p521: 66
        }
    }
}

/// Owns one libcrypto key. Keys are not changed after they are made, and libcrypto allows
/// concurrent use of a key for signing and verifying.
final class KeyStorage: @unchecked Sendable {
    let key: OpaquePointer

    init(_ key: OpaquePointer) { self.key = key }
    deinit { EVP_PKEY_free(key) }

    /// The SubjectPublicKeyInfo (DER) of the key's public part.
    var subjectPublicKeyInfo: [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key, &output)
        guard length > 0, let output else { return [] }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}

/// A public key that checks signatures: RSA, EC or Ed25519, as a JWK (RFC 7517) describes one.
package struct VerifyingKey: Sendable {
    let storage: KeyStorage

    init(_ storage: KeyStorage) { self.storage = storage }

    /// An RSA key from its modulus and public exponent (big-endian bytes: JWK `n` and `e`).
    package static func rsa(modulus: [UInt8], exponent: [UInt8]) throws(CryptoError) -> VerifyingKey {
        guard let n = BN_bin2bn(modulus, Int32(modulus.count), nil), let e = BN_bin2bn(exponent, Int32(exponent.count), nil) else {
            throw CryptoError("the RSA key's numbers could not be read")
        }
        defer {
            BN_free(n)
            BN_free(e)
        }
        return VerifyingKey(try makeKey(type: "RSA", selection: apiexplorer_EVP_PKEY_PUBLIC_KEY(), [.number("n", n), .number("e", e)]))
    }

    /// An EC key from its point's coordinates (JWK `crv`, `x` and `y`).
    package static func ec(curve: EllipticCurve, x: [UInt8], y: [UInt8]) throws(CryptoError) -> VerifyingKey {
        guard x.count == curve.coordinateLength, y.count == curve.coordinateLength else {
            throw CryptoError("the \(curve.rawValue) key's coordinates are not \(curve.coordinateLength) bytes each")
        }
        return VerifyingKey(
            try makeKey(type: "EC", selection: apiexplorer_EVP_PKEY_PUBLIC_KEY(), [.text("group", curve.groupName), .bytes("pub", [0x04] + x + y)]))
    }

    /// An Ed25519 key (JWK `kty: OKP`, `crv: Ed25519`, `x`).
    package static func ed25519(_ x: [UInt8]) throws(CryptoError) -> VerifyingKey {
        guard let key = EVP_PKEY_new_raw_public_key(EVP_PKEY_ED25519, nil, x, x.count) else {
            throw CryptoError("the Ed25519 key could not be read")
        }
        return VerifyingKey(KeyStorage(key))
    }

    /// A key from its SubjectPublicKeyInfo (DER).
    package init(subjectPublicKeyInfo der: [UInt8]) throws(CryptoError) {
        let key: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_PUBKEY(nil, &cursor, buffer.count)
        }
        guard let key else { throw CryptoError("the public key could not be read") }
        storage = KeyStorage(key)
    }

    /// The SubjectPublicKeyInfo (DER): what a certificate carries and a pin hashes.
    package var subjectPublicKeyInfo: [UInt8] { storage.subjectPublicKeyInfo }

    /// Whether `signature` is this key's signature of `message` by `algorithm` (JWS encoding:
    /// ECDSA signatures are r and s side by side, not DER). False for an algorithm of another key type.
    package func isValidSignature(_ signature: [UInt8], for message: [UInt8], algorithm: SignatureAlgorithm) -> Bool {
        // libcrypto would pick defaults for a mismatch (an RSA key asked for EdDSA checks RS256).
        guard fits(algorithm) else { return false }
        var signature = signature
        if let curve = algorithm.curve {
            guard let der = Self.derSignature(raw: signature, curve: curve) else { return false }
            signature = der
        }
        guard let context = EVP_MD_CTX_new() else { return false }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestVerifyInit(context, &keyContext, algorithm.hash?.method, nil, storage.key) == 1 else {
            ERR_clear_error()
            return false
        }
        if algorithm.isPSS {
            guard apiexplorer_EVP_PKEY_CTX_set_rsa_padding(keyContext, apiexplorer_RSA_PKCS1_PSS_PADDING()) == 1,
                apiexplorer_EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, apiexplorer_RSA_PSS_SALTLEN_DIGEST()) == 1
            else { return false }
        }
        let valid = EVP_DigestVerify(context, signature, signature.count, message, message.count) == 1
        ERR_clear_error()
        return valid
    }

    /// Whether this key can check signatures of `algorithm` (an RSA key RS and PS, an EC key the ES
    /// algorithm of its curve, an Ed25519 key EdDSA).
    package func fits(_ algorithm: SignatureAlgorithm) -> Bool {
        switch EVP_PKEY_get_base_id(storage.key) {
        case EVP_PKEY_RSA: algorithm.rawValue.hasPrefix("RS") || algorithm.isPSS
        case EVP_PKEY_EC: algorithm.curve.map { EVP_PKEY_get_bits(storage.key) == ($0 == .p521 ? 521 : $0.coordinateLength * 8) } ?? false
        case EVP_PKEY_ED25519: algorithm == .edDSA
        default: false
        }
    }

    /// The DER ECDSA-Sig-Value of a JWS signature (r and s, each `coordinateLength` bytes).
    static func derSignature(raw: [UInt8], curve: EllipticCurve) -> [UInt8]? {
        let half = curve.coordinateLength
        guard raw.count == 2 * half, let signature = ECDSA_SIG_new() else { return nil }
        defer { ECDSA_SIG_free(signature) }
        guard let r = BN_bin2bn(raw, Int32(half), nil) else { return nil }
        guard let s = raw.withUnsafeBufferPointer({ BN_bin2bn($0.baseAddress! + half, Int32(half), nil) }) else {
            BN_free(r)
            return nil
        }
        guard ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            return nil
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_ECDSA_SIG(signature, &output)
        guard length > 0, let output else { return nil }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}

/// A private key that signs: made for tests and the mock server's TLS identity.
package struct SigningKey: Sendable {
    let storage: KeyStorage

    /// The kinds of key `generate` makes.
    package enum Kind: Sendable, Hashable {
        case rsa(bits: Int)
        case ec(EllipticCurve)
        case ed25519
    }

    /// A new random key.
    package static func generate(_ kind: Kind) throws(CryptoError) -> SigningKey {
        let type: String
        switch kind {
        case .rsa: type = "RSA"
        case .ec: type = "EC"
        case .ed25519: type = "ED25519"
        }
        guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw CryptoError("no \(type) keys in libcrypto") }
        defer { EVP_PKEY_CTX_free(context) }
        guard EVP_PKEY_keygen_init(context) == 1 else { throw CryptoError("a \(type) key could not be made") }
        switch kind {
        case .rsa(let bits):
            guard EVP_PKEY_CTX_set_rsa_keygen_bits(context, Int32(bits)) == 1 else { throw CryptoError("no RSA keys of \(bits) bits") }
        case .ec(let curve):
            guard EVP_PKEY_CTX_set_group_name(context, curve.groupName) == 1 else { throw CryptoError("no \(curve.rawValue) keys") }
        case .ed25519: break
        }
        var key: OpaquePointer?
        guard EVP_PKEY_generate(context, &key) == 1, let key else { throw CryptoError("a \(type) key could not be made") }
        return SigningKey(storage: KeyStorage(key))
    }

    /// The EC key whose private scalar is `scalar` (big-endian, the curve's coordinate length).
    package init(curve: EllipticCurve, scalar: [UInt8]) throws(CryptoError) {
        guard let group = EC_GROUP_new_by_curve_name(OBJ_sn2nid(curve.groupName)) else { throw CryptoError("no curve \(curve.rawValue)") }
        defer { EC_GROUP_free(group) }
        guard let secret = BN_bin2bn(scalar, Int32(scalar.count), nil) else { throw CryptoError("the private key could not be read") }
        defer { BN_clear_free(secret) }
        guard let publicPoint = EC_POINT_new(group) else { throw CryptoError("no memory for a point") }
        defer { EC_POINT_free(publicPoint) }
        var point = [UInt8](repeating: 0, count: 1 + 2 * curve.coordinateLength)
        guard EC_POINT_mul(group, publicPoint, secret, nil, nil, nil) == 1,
            EC_POINT_point2oct(group, publicPoint, POINT_CONVERSION_UNCOMPRESSED, &point, point.count, nil) == point.count
        else { throw CryptoError("the public key could not be derived") }
        storage = try makeKey(
            type: "EC", selection: apiexplorer_EVP_PKEY_KEYPAIR(), [.text("group", curve.groupName), .number("priv", secret), .bytes("pub", point)])
    }

    init(storage: KeyStorage) { self.storage = storage }

    /// The public half.
    package var verifyingKey: VerifyingKey { VerifyingKey(storage) }

    /// The private key as PKCS #8 (DER).
    package var pkcs8: [UInt8] {
        guard let info = EVP_PKEY2PKCS8(storage.key) else { return [] }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_PKCS8_PRIV_KEY_INFO(info, &output)
        guard length > 0, let output else { return [] }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// This key's signature of `message` by `algorithm`, JWS-encoded (ECDSA: r and s side by side).
    package func signature(for message: [UInt8], algorithm: SignatureAlgorithm) throws(CryptoError) -> [UInt8] {
        guard verifyingKey.fits(algorithm) else { throw CryptoError("this key does not sign \(algorithm.rawValue)") }
        guard let context = EVP_MD_CTX_new() else { throw CryptoError("no memory to sign") }
        defer { EVP_MD_CTX_free(context) }
        var keyContext: OpaquePointer?
        guard EVP_DigestSignInit(context, &keyContext, algorithm.hash?.method, nil, storage.key) == 1 else {
            throw CryptoError("cannot sign \(algorithm.rawValue)")
        }
        if algorithm.isPSS {
            guard apiexplorer_EVP_PKEY_CTX_set_rsa_padding(keyContext, apiexplorer_RSA_PKCS1_PSS_PADDING()) == 1,
                apiexplorer_EVP_PKEY_CTX_set_rsa_pss_saltlen(keyContext, apiexplorer_RSA_PSS_SALTLEN_DIGEST()) == 1
            else { throw CryptoError("cannot sign \(algorithm.rawValue)") }
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, message, message.count) == 1 else { throw CryptoError("cannot sign") }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, message, message.count) == 1 else { throw CryptoError("cannot sign") }
        signature.removeLast(signature.count - length)
        guard let curve = algorithm.curve else { return signature }
        return try Self.rawSignature(der: signature, curve: curve)
    }

    /// The public key's JWK members (`kty`, and `n`/`e`, `crv`/`x`/`y` or `crv`/`x`), base64url-encoded.
    package var publicJWK: [(String, String)] {
        let key = storage.key
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA:
            return [("kty", "RSA"), ("n", Base64URL.encode(Self.number(key, "n"))), ("e", Base64URL.encode(Self.number(key, "e")))]
        case EVP_PKEY_EC:
            var point = [UInt8](repeating: 0, count: 1 + 2 * 66)
            var length = 0
            EVP_PKEY_get_octet_string_param(key, "pub", &point, point.count, &length)
            let half = (length - 1) / 2
            let curve = EllipticCurve.allCases.first { $0.coordinateLength == half } ?? .p256
            return [("kty", "EC"), ("crv", curve.rawValue), ("x", Base64URL.encode(Array(point[1...half]))), ("y", Base64URL.encode(Array(point[(1 + half)..<length])))]
        default:
            var raw = [UInt8](repeating: 0, count: 32)
            var length = raw.count
            EVP_PKEY_get_raw_public_key(key, &raw, &length)
            return [("kty", "OKP"), ("crv", "Ed25519"), ("x", Base64URL.encode(Array(raw.prefix(length))))]
        }
    }

    private static func number(_ key: OpaquePointer, _ name: String) -> [UInt8] {
        var number: OpaquePointer?
        guard EVP_PKEY_get_bn_param(key, name, &number) == 1, let number else { return [] }
        defer { BN_free(number) }
        var bytes = [UInt8](repeating: 0, count: Int((BN_num_bits(number) + 7) / 8))
        BN_bn2bin(number, &bytes)
        return bytes
    }

    private static func rawSignature(der: [UInt8], curve: EllipticCurve) throws(CryptoError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let parsed else { throw CryptoError("libcrypto's ECDSA signature could not be read") }
        defer { ECDSA_SIG_free(parsed) }
        var raw = [UInt8](repeating: 0, count: 2 * curve.coordinateLength)
        guard BN_bn2binpad(ECDSA_SIG_get0_r(parsed), &raw, Int32(curve.coordinateLength)) == curve.coordinateLength,
            raw.withUnsafeMutableBufferPointer({
                BN_bn2binpad(ECDSA_SIG_get0_s(parsed), $0.baseAddress! + curve.coordinateLength, Int32(curve.coordinateLength))
            }) == curve.coordinateLength
        else { throw CryptoError("libcrypto's ECDSA signature is too long") }
        return raw
    }
}

/// A parameter of a key to make (OSSL_PARAM): its name and value.
enum KeyParameter {
    case number(StaticString, OpaquePointer)
    case text(StaticString, String)
    case bytes(StaticString, [UInt8])
}

/// Makes a key of `type` from `parameters`. The parameter builder keeps pointers to names and
/// values until the block is built, so both must outlive every push: names are static strings,
/// values are copied into memory freed only after the block exists.
private func makeKey(type: String, selection: Int32, _ parameters: [KeyParameter]) throws(CryptoError) -> KeyStorage {
    guard let builder = OSSL_PARAM_BLD_new() else { throw CryptoError("no memory for a key") }
    defer { OSSL_PARAM_BLD_free(builder) }
    var copies: [UnsafeMutableRawPointer] = []
    defer { copies.forEach { free($0) } }
    func name(_ text: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(text.utf8Start).assumingMemoryBound(to: CChar.self)
    }
    for parameter in parameters {
        let pushed: Bool
        switch parameter {
        case .number(let key, let value):
            pushed = OSSL_PARAM_BLD_push_BN(builder, name(key), value) == 1
        case .text(let key, let value):
            guard let copy = strdup(value) else { throw CryptoError("no memory for a key") }
            copies.append(UnsafeMutableRawPointer(copy))
            pushed = OSSL_PARAM_BLD_push_utf8_string(builder, name(key), copy, 0) == 1
        case .bytes(let key, let value):
            guard let copy = malloc(max(1, value.count)) else { throw CryptoError("no memory for a key") }
            copies.append(copy)
            value.withUnsafeBytes { copy.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(copy), byteCount: value.count) }
            pushed = OSSL_PARAM_BLD_push_octet_string(builder, name(key), copy, value.count) == 1
        }
        guard pushed else { throw CryptoError("the \(type) key's parameters are wrong") }
    }
    guard let block = OSSL_PARAM_BLD_to_param(builder) else { throw CryptoError("the \(type) key's parameters are wrong") }
    defer { OSSL_PARAM_free(block) }
    guard let context = EVP_PKEY_CTX_new_from_name(nil, type, nil) else { throw CryptoError("no \(type) keys in libcrypto") }
    defer { EVP_PKEY_CTX_free(context) }
    var key: OpaquePointer?
    guard EVP_PKEY_fromdata_init(context) == 1, EVP_PKEY_fromdata(context, &key, selection, block) == 1, let key else {
        throw CryptoError("the \(type) key could not be made")
    }
    return KeyStorage(key)
}

/// Base64url without padding (RFC 4648 §5), as JOSE writes binary values.
package enum Base64URL {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// The text of `bytes`.
    package static func encode(_ bytes: [UInt8]) -> String {
        var text: [UInt8] = []
        text.reserveCapacity((bytes.count * 4 + 2) / 3)
        var index = 0
        while index < bytes.count {
            let chunk = bytes[index..<min(index + 3, bytes.count)]
            let value = chunk.enumerated().reduce(0) { $0 | Int($1.element) << (16 - 8 * $1.offset) }
            for position in 0...chunk.count { text.append(alphabet[(value >> (18 - 6 * position)) & 0x3F]) }
            index += 3
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of `text` (padding and the standard alphabet's `+` and `/` accepted too), or nil.
    package static func decode(_ text: some StringProtocol) -> [UInt8]? {
        var value = 0
        var bits = 0
        var bytes: [UInt8] = []
        for character in text.utf8 where character != UInt8(ascii: "=") {
            let digit: Int
            switch character {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): digit = Int(character - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): digit = Int(character - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = Int(character - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "-"), UInt8(ascii: "+"): digit = 62
            case UInt8(ascii: "_"), UInt8(ascii: "/"): digit = 63
            default: return nil
            }
            value = (value << 6) | digit
            bits += 6
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((value >> bits) & 0xFF))
            }
        }
        return bits >= 6 ? nil : bytes
    }
}
