/// Percent-encoding of URL parts (RFC 3986 §2.1), on bytes: FoundationEssentials leaves these out.
package enum PercentEncoding {
    /// Unreserved characters (RFC 3986 §2.3): never encoded.
    package static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// Characters a URL path keeps as they are (RFC 3986 §3.3 `pchar` and `/`): unreserved,
    /// sub-delimiters, `:` and `@`. What Foundation calls `urlPathAllowed`.
    package static func isPathAllowed(_ byte: UInt8) -> Bool {
        isUnreserved(byte) || "!$&'()*+,;=:@/".utf8.contains(byte)
    }

    /// `text` with every byte for which `keep` is false written as `%XX` (upper-case hex).
    package static func encode(_ text: some StringProtocol, keeping keep: (UInt8) -> Bool = isUnreserved) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            if keep(byte) {
                bytes.append(byte)
            } else {
                bytes.append(UInt8(ascii: "%"))
                bytes.append(Hex.digit(byte >> 4))
                bytes.append(Hex.digit(byte & 0x0F))
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `text` with every `%XX` decoded; nil when an escape is malformed or the bytes are not UTF-8.
    package static func decode(_ text: some StringProtocol) -> String? {
        guard text.utf8.contains(UInt8(ascii: "%")) else { return String(text) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(Hex.value), let low = iterator.next().flatMap(Hex.value) else { return nil }
            bytes.append(high << 4 | low)
        }
        return String(validating: bytes, as: UTF8.self)
    }
}

/// Hexadecimal digits.
package enum Hex {
    /// The upper-case ASCII digit for a value 0–15.
    package static func digit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "A") + value - 10
    }

    /// The value of an ASCII hex digit (either case); nil for anything else.
    package static func value(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `value` in upper-case hex, zero-padded to `width` digits.
    package static func text(_ value: some BinaryInteger, width: Int = 2) -> String {
        String(value, radix: 16, uppercase: true).leftPadded(to: width, with: "0")
    }
}
