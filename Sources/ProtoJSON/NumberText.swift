/// Numbers as the JSON mapping writes and reads them.
enum NumberText {
    /// The shortest text that reads back as `value` (finite), laid out as JavaScript and Go's
    /// protojson write numbers: `1`, `0.1`, `1e+21`, `1e-7`.
    static func double(_ value: Double) -> String { layout(value.description) }

    /// The shortest text that reads back as the same 32-bit `value` (finite).
    static func float(_ value: Float) -> String { layout(value.description) }

    /// Swift's shortest round-trip digits (`1.0`, `1e-05`, `1.25e+20`) laid out again.
    static func layout(_ description: String) -> String {
        var text = Substring(description)
        let negative = text.hasPrefix("-")
        if negative { text = text.dropFirst() }
        var exponent = 0
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            exponent = Int(text[text.index(after: e)...]) ?? 0
            text = text[..<e]
        }
        var digits = [UInt8]()
        var point = -1
        for byte in text.utf8 {
            if byte == UInt8(ascii: ".") { point = digits.count } else { digits.append(byte) }
        }
        if point < 0 { point = digits.count }
        // value = 0.d1d2…dk × 10^n
        var n = point + exponent
        while let first = digits.first, first == UInt8(ascii: "0") {
            digits.removeFirst()
            n -= 1
        }
        while let last = digits.last, last == UInt8(ascii: "0") { digits.removeLast() }
        let sign = negative ? "-" : ""
        guard !digits.isEmpty else { return sign + "0" }
        let k = digits.count
        let string = String(decoding: digits, as: UTF8.self)
        if k <= n, n <= 21 { return sign + string + String(repeating: "0", count: n - k) }
        if 0 < n, n <= 21 {
            return sign + String(decoding: digits[..<n], as: UTF8.self) + "." + String(decoding: digits[n...], as: UTF8.self)
        }
        if -6 < n, n <= 0 { return sign + "0." + String(repeating: "0", count: -n) + string }
        let e = n - 1
        let mantissa = k == 1 ? string : String(decoding: digits[..<1], as: UTF8.self) + "." + String(decoding: digits[1...], as: UTF8.self)
        return sign + mantissa + "e" + (e >= 0 ? "+" : "-") + String(abs(e))
    }

    /// Why a text is not an integer of a type.
    enum IntegerProblem: Error {
        case notANumber, notIntegral, outOfRange
    }

    /// The exact integer a decimal literal (`12`, `-3`, `1e3`, `5.0`) writes: sign and magnitude.
    /// Leading zeros are allowed (strings of integers may have them); nothing else past JSON's grammar.
    static func integer(_ text: String) throws(IntegerProblem) -> (negative: Bool, magnitude: UInt64) {
        // The usual case, plain digits, read without copying them (Int64 alone would also take a "+").
        if let first = text.utf8.first, first == UInt8(ascii: "-") || isDigit(first), let value = Int64(text) {
            return (value < 0, value.magnitude)
        }
        var bytes = Array(text.utf8)[...]
        let negative = bytes.first == UInt8(ascii: "-")
        if negative { bytes = bytes.dropFirst() }
        var significant: [UInt8] = []  // digits without leading zeros
        var fractionDigits = 0
        var sawDigit = false
        var inFraction = false
        var exponent = 0
        var index = bytes.startIndex
        while index < bytes.endIndex {
            let byte = bytes[index]
            if isDigit(byte) {
                sawDigit = true
                if !(significant.isEmpty && byte == UInt8(ascii: "0")) { significant.append(byte - UInt8(ascii: "0")) }
                if inFraction { fractionDigits += 1 }
            } else if byte == UInt8(ascii: "."), !inFraction, sawDigit {
                inFraction = true
                guard index + 1 < bytes.endIndex, isDigit(bytes[index + 1]) else { throw .notANumber }
            } else if byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E"), sawDigit {
                var rest = bytes[(index + 1)...]
                var exponentNegative = false
                if let sign = rest.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") {
                    exponentNegative = sign == UInt8(ascii: "-")
                    rest = rest.dropFirst()
                }
                guard !rest.isEmpty, rest.allSatisfy(isDigit) else { throw .notANumber }
                // Past a few hundred the value is out of any range (or zero); the count is capped.
                for digit in rest { exponent = min(exponent * 10 + Int(digit - UInt8(ascii: "0")), 100_000) }
                if exponentNegative { exponent = -exponent }
                index = bytes.endIndex
                break
            } else {
                throw .notANumber
            }
            index += 1
        }
        guard sawDigit else { throw .notANumber }
        // When the literal had a fraction, `significant` may hold leading zeros' count wrongly only
        // for zero itself, which stays zero at any scale.
        var scale = exponent - fractionDigits
        if significant.isEmpty { return (negative, 0) }
        while scale < 0 {
            guard significant.last == 0 else { throw .notIntegral }
            significant.removeLast()
            scale += 1
            if significant.isEmpty { return (negative, 0) }
        }
        guard significant.count + scale <= 20 else { throw .outOfRange }
        var magnitude: UInt64 = 0
        for digit in significant + Array(repeating: 0, count: scale) {
            let (times10, overflow1) = magnitude.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(UInt64(digit))
            guard !overflow1, !overflow2 else { throw .outOfRange }
            magnitude = sum
        }
        return (negative, magnitude)
    }

    /// Whether `text` is a number as JSON writes it (what `Double(_:)` is given: it would also take
    /// `inf`, `nan` and hexadecimal).
    static func isJSONNumber(_ text: String) -> Bool {
        var bytes = Array(text.utf8)[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits(_ bytes: inout ArraySlice<UInt8>) -> Int {
            let count = bytes.prefix(while: isDigit).count
            bytes = bytes.dropFirst(count)
            return count
        }
        guard digits(&bytes) > 0 else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits(&bytes) > 0 else { return false }
        }
        if let e = bytes.first, e == UInt8(ascii: "e") || e == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if let sign = bytes.first, sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits(&bytes) > 0 else { return false }
        }
        return bytes.isEmpty
    }

    static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
}

/// Standard base64 out; standard or URL-safe, padded or not, in (as the JSON mapping asks).
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output = [UInt8]()
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output += [alphabet[Int(chunk >> 18)], alphabet[Int(chunk >> 12 & 63)], alphabet[Int(chunk >> 6 & 63)], alphabet[Int(chunk & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest == 1 {
            let chunk = UInt32(bytes[index]) << 16
            output += [alphabet[Int(chunk >> 18)], alphabet[Int(chunk >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let chunk = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8
            output += [alphabet[Int(chunk >> 18)], alphabet[Int(chunk >> 12 & 63)], alphabet[Int(chunk >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes, or nil when it has a character of neither alphabet, padding
    /// anywhere but the end, or a length no encoding has.
    static func decode(_ text: String) -> [UInt8]? {
        var symbols = Array(text.utf8)
        var padding = 0
        while symbols.last == UInt8(ascii: "=") {
            symbols.removeLast()
            padding += 1
        }
        guard padding <= 2, padding == 0 || (symbols.count + padding) % 4 == 0, symbols.count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(symbols.count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for symbol in symbols {
            let value: UInt8
            switch symbol {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): value = symbol - UInt8(ascii: "A")
            case UInt8(ascii: "a")...UInt8(ascii: "z"): value = symbol - UInt8(ascii: "a") + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = symbol - UInt8(ascii: "0") + 52
            case UInt8(ascii: "+"), UInt8(ascii: "-"): value = 62
            case UInt8(ascii: "/"), UInt8(ascii: "_"): value = 63
            default: return nil
            }
            accumulator = accumulator << 6 | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return output
    }
}
