/// A YAML scalar read by the YAML 1.2 core schema: quoted and block scalars are always text;
/// plain scalars are null, booleans (only `true`/`false`, so `yes`, `no` and `on` stay text),
/// integers, floats or text. Done by hand: a resolver running regular expressions on every scalar
/// would dominate the load time of large catalogs.
package enum YAMLScalar: Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)

    package init(_ scalar: YAMLNode.Scalar) {
        let text = scalar.text
        if let tag = scalar.tag {
            switch tag {
            case "tag:yaml.org,2002:null": self = .null
            case "tag:yaml.org,2002:bool": self = YAMLScalar.plain(text).boolOrText(text)
            case "tag:yaml.org,2002:int", "tag:yaml.org,2002:float": self = YAMLScalar.plain(text).numberOrText(text)
            default: self = .string(text)
            }
            return
        }
        guard scalar.style == .plain else {
            self = .string(text)
            return
        }
        self = YAMLScalar.plain(text)
    }

    /// Resolves an untagged plain scalar.
    static func plain(_ text: String) -> YAMLScalar {
        let utf8 = text.utf8
        guard let first = utf8.first else { return .null }
        // The words below are short and start with one of these: most text is neither, and
        // comparing every scalar with 22 words was a tenth of loading a catalog.
        switch first {
        case UInt8(ascii: "~"), UInt8(ascii: "n"), UInt8(ascii: "N"), UInt8(ascii: "t"), UInt8(ascii: "T"), UInt8(ascii: "f"),
            UInt8(ascii: "F"), UInt8(ascii: "."), UInt8(ascii: "+"), UInt8(ascii: "-"):
            if utf8.count <= 6, let word = word(text) { return word }
        default:
            break
        }
        return number(text, first: first)
    }

    /// Null, a boolean, infinity or NaN spelled as the core schema spells them.
    private static func word(_ text: String) -> YAMLScalar? {
        switch text {
        case "~", "null", "Null", "NULL": return .null
        case "true", "True", "TRUE": return .bool(true)
        case "false", "False", "FALSE": return .bool(false)
        case ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF": return .double(.infinity)
        case "-.inf", "-.Inf", "-.INF": return .double(-.infinity)
        case ".nan", ".NaN", ".NAN": return .double(.nan)
        default: return nil
        }
    }

    /// A number, or text.
    private static func number(_ text: String, first: UInt8) -> YAMLScalar {
        let utf8 = text.utf8
        // Only text that starts like a number can be one.
        guard (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-")
            || first == UInt8(ascii: "+") || first == UInt8(ascii: ".")
        else { return .string(text) }
        if let value = Int(text) { return .int(value) }
        if text.hasPrefix("0x"), let value = Int(text.dropFirst(2), radix: 16) { return .int(value) }
        if text.hasPrefix("0o"), let value = Int(text.dropFirst(2), radix: 8) { return .int(value) }
        if isDecimalFloat(utf8), let value = Double(text) { return .double(value) }
        return .string(text)
    }

    /// `[-+]? ( . digits | digits ( . digits? )? ) ( [eE] [-+]? digits )?`, the core schema's float.
    private static func isDecimalFloat(_ utf8: String.UTF8View) -> Bool {
        var index = utf8.startIndex
        func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
        func digits() -> Int {
            var count = 0
            while index != utf8.endIndex, isDigit(utf8[index]) {
                count += 1
                index = utf8.index(after: index)
            }
            return count
        }
        if index != utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
            index = utf8.index(after: index)
        }
        var mantissa = digits()
        if index != utf8.endIndex, utf8[index] == UInt8(ascii: ".") {
            index = utf8.index(after: index)
            mantissa += digits()
        }
        guard mantissa > 0 else { return false }
        if index != utf8.endIndex, utf8[index] == UInt8(ascii: "e") || utf8[index] == UInt8(ascii: "E") {
            index = utf8.index(after: index)
            if index != utf8.endIndex, utf8[index] == UInt8(ascii: "-") || utf8[index] == UInt8(ascii: "+") {
                index = utf8.index(after: index)
            }
            guard digits() > 0 else { return false }
        }
        return index == utf8.endIndex
    }

    private func boolOrText(_ text: String) -> YAMLScalar {
        if case .bool = self { return self }
        return .string(text)
    }

    private func numberOrText(_ text: String) -> YAMLScalar {
        switch self {
        case .int, .double: return self
        default: return .string(text)
        }
    }

    package static func == (lhs: YAMLScalar, rhs: YAMLScalar) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.int(let a), .int(let b)): a == b
        case (.double(let a), .double(let b)): a == b || (a.isNaN && b.isNaN)
        case (.string(let a), .string(let b)): a == b
        default: false
        }
    }
}
