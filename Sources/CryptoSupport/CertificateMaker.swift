import CLibCrypto

/// Makes X.509 certificates (the mock server's TLS identity and test certificates), signed with
/// SHA-256 by the issuer's key.
package struct CertificateMaker: Sendable {
    /// The subject's common name.
    package var commonName: String
    /// The key the certificate is for.
    package var subjectKey: VerifyingKey
    /// Valid from, and until (seconds since 1970).
    package var validity: (notBefore: Int, notAfter: Int)
    /// A certificate authority (`basicConstraints` CA with path length 0, signs certificates) or a
    /// TLS server (`serverAuth`, with its names in `subjectAltName`).
    package var isAuthority: Bool
    /// DNS names and IP addresses (4 or 16 bytes) of a server.
    package var dnsNames: [String] = []
    package var ipAddresses: [[UInt8]] = []

    /// Describes a certificate.
    package init(commonName: String, subjectKey: VerifyingKey, validity: (notBefore: Int, notAfter: Int), isAuthority: Bool) {
        self.commonName = commonName
        self.subjectKey = subjectKey
        self.validity = validity
        self.isAuthority = isAuthority
    }

    /// The certificate (DER), signed by `issuerKey`: self-signed when `issuer` is nil (the key must
    /// then be the subject's), else by the authority whose certificate (DER) `issuer` is.
    package func certificate(issuerKey: SigningKey, issuer: [UInt8]? = nil) throws(CryptoError) -> [UInt8] {
        guard let certificate = X509_new() else { throw CryptoError("no memory for a certificate") }
        defer { X509_free(certificate) }
        let authority: OpaquePointer?
        if let issuer {
            authority = issuer.withUnsafeBufferPointer { buffer in
                var cursor = buffer.baseAddress
                return d2i_X509(nil, &cursor, buffer.count)
            }
            guard authority != nil else { throw CryptoError("the issuer's certificate could not be read") }
        } else {
            authority = nil
        }
        defer { if let authority { X509_free(authority) } }

        var serial = [UInt8](repeating: 0, count: 16)
        var generator = SystemRandomNumberGenerator()
        for index in serial.indices { serial[index] = UInt8.random(in: 0...255, using: &generator) }
        serial[0] &= 0x7F  // positive
        guard X509_set_version(certificate, 2) == 1,
            let number = BN_bin2bn(serial, Int32(serial.count), nil)
        else { throw CryptoError("the certificate's serial number could not be set") }
        defer { BN_free(number) }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(certificate)) != nil,
            ASN1_TIME_set(X509_getm_notBefore(certificate), time_t(validity.notBefore)) != nil,
            ASN1_TIME_set(X509_getm_notAfter(certificate), time_t(validity.notAfter)) != nil,
            X509_set_pubkey(certificate, subjectKey.storage.key) == 1
        else { throw CryptoError("the certificate's fields could not be set") }
        let subject = X509_get_subject_name(certificate)
        guard X509_NAME_add_entry_by_txt(subject, "CN", apiexplorer_MBSTRING_UTF8(), commonName, -1, -1, 0) == 1 else {
            throw CryptoError("the certificate's name could not be set")
        }
        let issuerName = authority.map { X509_get_subject_name($0) } ?? subject
        guard X509_set_issuer_name(certificate, issuerName) == 1 else { throw CryptoError("the issuer's name could not be set") }

        var context = X509V3_CTX()
        X509V3_set_ctx(&context, authority ?? certificate, certificate, nil, nil, 0)
        var extensions: [(Int32, String)] = [(NID_subject_key_identifier, "hash")]
        if isAuthority {
            extensions += [(NID_basic_constraints, "critical,CA:TRUE,pathlen:0"), (NID_key_usage, "critical,keyCertSign,cRLSign")]
        } else {
            let names = dnsNames.map { "DNS:\($0)" } + ipAddresses.compactMap(Self.addressText).map { "IP:\($0)" }
            extensions += [(NID_basic_constraints, "critical,CA:FALSE"), (NID_key_usage, "critical,digitalSignature"), (NID_ext_key_usage, "serverAuth")]
            if !names.isEmpty { extensions.append((NID_subject_alt_name, names.joined(separator: ","))) }
            extensions.append((NID_authority_key_identifier, "keyid:always"))
        }
        for (nid, value) in extensions {
            guard let made = X509V3_EXT_conf_nid(nil, &context, nid, value) else { throw CryptoError("the extension '\(value)' could not be made") }
            defer { X509_EXTENSION_free(made) }
            guard X509_add_ext(certificate, made, -1) == 1 else { throw CryptoError("the extension '\(value)' could not be added") }
        }
        guard X509_sign(certificate, issuerKey.storage.key, EVP_sha256()) > 0 else { throw CryptoError("the certificate could not be signed") }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(certificate, &output)
        guard length > 0, let output else { throw CryptoError("the certificate could not be written") }
        defer { CRYPTO_free(output, #fileID, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }

    /// `certificate` (DER) as PEM.
    package static func pem(_ der: [UInt8], label: String = "CERTIFICATE") -> String {
        var base64 = Base64URL.encode(der).map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 }
        while base64.count % 4 != 0 { base64.append("=") }
        var lines: [String] = []
        var index = 0
        while index < base64.count {
            lines.append(String(base64[index..<min(index + 64, base64.count)]))
            index += 64
        }
        return "-----BEGIN \(label)-----\n" + lines.joined(separator: "\n") + "\n-----END \(label)-----\n"
    }

    private static func addressText(_ bytes: [UInt8]) -> String? {
        switch bytes.count {
        case 4: return bytes.map(String.init).joined(separator: ".")
        case 16:
            return stride(from: 0, to: 16, by: 2).map { String(Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]), radix: 16) }.joined(separator: ":")
        default: return nil
        }
    }
}
