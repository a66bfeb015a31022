/// The issuer and subject of an X.509 certificate, read from its DER with a minimal TLV walker
/// (NIOSSL exposes neither). Enough to tell a self-signed certificate and to name its issuer.
struct CertificateNames: Sendable, Hashable {
    /// The issuer Name, as DER.
    var issuer: [UInt8]
    /// The subject Name, as DER.
    var subject: [UInt8]

    /// Whether the certificate names itself as its issuer.
    var isSelfIssued: Bool { issuer == subject }

    /// The issuer's common name (OID 2.5.4.3), if it has one.
    var issuerCommonName: String? { CertificateNames.commonName(in: issuer) }

    /// Reads Certificate → TBSCertificate → (version?, serial, signature, issuer, validity, subject).
    init?(der: [UInt8]) {
        guard let certificate = DER.element(in: der[...]), certificate.tag == 0x30,
            let tbs = DER.element(in: certificate.content), tbs.tag == 0x30
        else { return nil }
        var fields: [DER.Element] = []
        var rest = tbs.content
        while fields.count < 6, let element = DER.element(in: rest) {
            fields.append(element)
            rest = rest[element.end...]
        }
        // An explicit version ([0]) shifts the fields by one.
        let offset = fields.first?.tag == 0xA0 ? 1 : 0
        guard fields.count >= 5 + offset else { return nil }
        issuer = Array(fields[2 + offset].whole)
        subject = Array(fields[4 + offset].whole)
    }

    /// The first common name in a Name (SEQUENCE OF SET OF SEQUENCE { OID, value }).
    static func commonName(in name: [UInt8]) -> String? {
        guard let sequence = DER.element(in: name[...]) else { return nil }
        var sets = sequence.content
        while let set = DER.element(in: sets) {
            sets = sets[set.end...]
            var attributes = set.content
            while let attribute = DER.element(in: attributes) {
                attributes = attributes[attribute.end...]
                guard let oid = DER.element(in: attribute.content), oid.tag == 0x06,
                    Array(oid.content) == [0x55, 0x04, 0x03],
                    let value = DER.element(in: attribute.content[oid.end...])
                else { continue }
                return String(decoding: value.content, as: UTF8.self)
            }
        }
        return nil
    }
}

/// Just enough DER: one tag-length-value at the start of a slice.
enum DER {
    struct Element {
        /// The tag byte.
        let tag: UInt8
        /// The value bytes.
        let content: ArraySlice<UInt8>
        /// Tag, length and value.
        let whole: ArraySlice<UInt8>
        /// The index after the element.
        var end: Int { whole.endIndex }
    }

    /// The element at the start of `bytes`, or nil when it is truncated or malformed.
    static func element(in bytes: ArraySlice<UInt8>) -> Element? {
        var index = bytes.startIndex
        guard index < bytes.endIndex else { return nil }
        let tag = bytes[index]
        index += 1
        guard index < bytes.endIndex else { return nil }
        var length = Int(bytes[index])
        index += 1
        if length & 0x80 != 0 {
            let count = length & 0x7F
            guard count > 0, count <= 4, index + count <= bytes.endIndex else { return nil }
            length = bytes[index..<index + count].reduce(0) { $0 << 8 | Int($1) }
            index += count
        }
        guard length >= 0, index + length <= bytes.endIndex else { return nil }
        return Element(tag: tag, content: bytes[index..<index + length], whole: bytes[bytes.startIndex..<index + length])
    }
}
