import JSONSupport

/// Numbers as JSON Schema compares them: by value, whatever their literal (`1`, `1.0`, `1e0`).
enum JSONNumber {
    /// Whether the literal is a whole number (`3`, `3.0`, `3e2`).
    static func isInteger(_ literal: String) -> Bool {
        if !literal.utf8.contains(where: { $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E") }) { return true }
        if let decimal = ScaledDecimal(literal) {
            if decimal.exponent >= 0 || decimal.significand == 0 { return true }
            return -decimal.exponent <= 18 && decimal.significand % power(-decimal.exponent) == 0
        }
        guard let value = Double(literal), value.isFinite else { return false }
        return value.rounded() == value
    }

    /// Whether `literal` is a multiple of `divisor` (both positive or not): exact for decimals
    /// that fit 64 bits, otherwise within Double's precision.
    static func isMultiple(_ literal: String, of divisor: String) -> Bool {
        if let value = ScaledDecimal(literal), let step = ScaledDecimal(divisor), step.significand != 0 {
            let exponent = min(value.exponent, step.exponent)
            if let scaledValue = value.scaled(to: exponent), let scaledStep = step.scaled(to: exponent) {
                return scaledValue % scaledStep == 0
            }
        }
        guard let value = Double(literal), let step = Double(divisor), step != 0 else { return false }
        let quotient = value / step
        guard quotient.isFinite else { return false }
        return abs(quotient - quotient.rounded()) <= 1e-9 * max(1, abs(quotient))
    }

    /// `a` compared with `b`: negative, zero or positive.
    static func compare(_ a: String, _ b: String) -> Int {
        if let x = ScaledDecimal(a), let y = ScaledDecimal(b) {
            let exponent = min(x.exponent, y.exponent)
            if let sx = x.scaled(to: exponent), let sy = y.scaled(to: exponent) { return sx < sy ? -1 : sx == sy ? 0 : 1 }
        }
        let x = Double(a) ?? .nan, y = Double(b) ?? .nan
        return x < y ? -1 : x == y ? 0 : 1
    }

    /// Whether two literals are the same number.
    static func equal(_ a: String, _ b: String) -> Bool { a == b || compare(a, b) == 0 }

    /// The number written one way for every literal of the same value (for hashing).
    static func canonical(_ literal: String) -> String {
        guard var decimal = ScaledDecimal(literal) else { return Double(literal).map { "\($0)" } ?? literal }
        while decimal.significand != 0, decimal.significand % 10 == 0 {
            decimal.significand /= 10
            decimal.exponent += 1
        }
        return decimal.significand == 0 ? "0" : "\(decimal.significand)e\(decimal.exponent)"
    }

    static func power(_ exponent: Int) -> Int64 {
        var result: Int64 = 1
        for _ in 0..<exponent { result *= 10 }
        return result
    }

    /// A number literal as significand × 10^exponent, when the significand fits 64 bits.
    struct ScaledDecimal {
        var significand: Int64
        var exponent: Int

        init?(_ literal: String) {
            var significand: Int64 = 0, exponent = 0, negative = false, digits = 0
            var bytes = literal.utf8[...]
            if bytes.first == UInt8(ascii: "-") { negative = true; bytes = bytes.dropFirst() }
            var seenPoint = false
            while let byte = bytes.first, byte != UInt8(ascii: "e"), byte != UInt8(ascii: "E") {
                bytes = bytes.dropFirst()
                if byte == UInt8(ascii: ".") {
                    guard !seenPoint else { return nil }
                    seenPoint = true
                    continue
                }
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                digits += 1
                let (times, overflow1) = significand.multipliedReportingOverflow(by: 10)
                let (sum, overflow2) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
                guard !overflow1, !overflow2 else { return nil }
                significand = sum
                if seenPoint { exponent -= 1 }
            }
            guard digits > 0 else { return nil }
            if !bytes.isEmpty {
                bytes = bytes.dropFirst()
                guard let written = Int(String(Substring(bytes))), abs(written) < 400 else { return nil }
                exponent += written
            }
            self.significand = negative ? -significand : significand
            self.exponent = exponent
        }

        /// The significand for `exponent` (not above this one's), when it fits.
        func scaled(to target: Int) -> Int64? {
            var value = significand
            var steps = exponent - target
            guard steps >= 0 else { return nil }
            while steps > 0 {
                let (times, overflow) = value.multipliedReportingOverflow(by: 10)
                guard !overflow else { return nil }
                value = times
                steps -= 1
            }
            return value
        }
    }
}

extension JSONValue {
    /// Equality as JSON Schema has it (`enum`, `const`, `uniqueItems`): numbers by value, objects
    /// whatever their members' order.
    func isSameValue(as other: JSONValue) -> Bool {
        switch (self, other) {
        case (.number(let a), .number(let b)): return JSONNumber.equal(a, b)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { $0.isSameValue(as: $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { member in b[member.key].map { member.value.isSameValue(as: $0) } ?? false }
        // Swift compares strings by canonical equivalence (`é` == `e` + U+0301); JSON by code points.
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        default: return self == other
        }
    }

    /// A text equal for values that are the same (`isSameValue`), for finding duplicates by hashing.
    func canonicalText() -> String {
        var text = ""
        writeCanonical(to: &text)
        return text
    }

    private func writeCanonical(to text: inout String) {
        switch self {
        case .number(let literal): text += "n" + JSONNumber.canonical(literal)
        case .array(let elements):
            text += "["
            for element in elements {
                element.writeCanonical(to: &text)
                text += ","
            }
            text += "]"
        case .object(let object):
            text += "{"
            for member in object.members.sorted(by: { $0.key < $1.key }) {
                text += JSONValue.string(member.key).compactText + ":"
                member.value.writeCanonical(to: &text)
                text += ","
            }
            text += "}"
        default: text += compactText
        }
    }
}
