import FoundationEssentials
import TextSupport

/// Why a text is not valid JSON, with the 1-based line and column where reading stopped.
public struct JSONParseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was wrong.
    public var reason: String
    /// 1-based line of the offending byte.
    public var line: Int
    /// 1-based column (in bytes) of the offending byte.
    public var column: Int
    /// Byte offset of the offending byte.
    public var offset: Int

    public var description: String { "\(line):\(column): \(reason)" }
}

extension JSONValue {
    /// Deepest nesting accepted; deeper documents are rejected instead of exhausting the stack.
    package static let maximumDepth = 512

    /// Parses UTF-8 JSON text. A UTF-8 byte order mark is skipped; anything after the value other
    /// than whitespace is an error.
    public static func parse(_ data: Data) throws(JSONParseError) -> JSONValue {
        try parse(data, rejectingDuplicateKeys: false)
    }

    /// Parses JSON text.
    public static func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try parse(Data(text.utf8))
    }

    /// Parses UTF-8 JSON text; with `rejectingDuplicateKeys`, a key given twice in one object is an
    /// error at the second (formats that refuse them: the proto3 JSON mapping).
    package static func parse(_ data: Data, rejectingDuplicateKeys: Bool) throws(JSONParseError) -> JSONValue {
        do {
            return try data.withUnsafeBytes { raw in
                var parser = JSONParser(bytes: raw)
                parser.rejectsDuplicateKeys = rejectingDuplicateKeys
                return try parser.parseDocument()
            }
        } catch let error as JSONParseError {
            throw error
        } catch {
            throw JSONParseError(reason: "\(error)", line: 1, column: 1, offset: 0)
        }
    }
}

/// A recursive-descent parser over raw bytes; strings without escapes are decoded in one step.
struct JSONParser {
    let bytes: UnsafeRawBufferPointer
    var index = 0
    var depth = 0
    var rejectsDuplicateKeys = false

    init(bytes: UnsafeRawBufferPointer) {
        self.bytes = bytes
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        skipWhitespace()
        guard index < bytes.count else { throw error("the document is empty") }
        let value = try parseValue()
        skipWhitespace()
        guard index == bytes.count else { throw error("unexpected text after the JSON value") }
        return value
    }

    mutating func parseValue() throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw error("unexpected end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject()
        case UInt8(ascii: "["): return try parseArray()
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw error("unexpected character '\(printable(bytes[index]))'")
        }
    }

    mutating func parseObject() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if peek() != UInt8(ascii: "}") { members.reserveCapacity(8) }  // API objects are small: one allocation, not four
        if peek() == UInt8(ascii: "}") {
            index += 1
            depth -= 1
            return .object(JSONObject())
        }
        var keys: Set<String> = []
        while true {
            skipWhitespace()
            guard peek() == UInt8(ascii: "\"") else { throw error("expected a string key") }
            let keyStart = index
            let key = try parseString()
            if rejectsDuplicateKeys, !keys.insert(key).inserted {
                index = keyStart
                throw error("the key \"\(key)\" is given twice in one object")
            }
            skipWhitespace()
            guard peek() == UInt8(ascii: ":") else { throw error("expected ':' after the key") }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append((key, value))
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"):
                index += 1
                depth -= 1
                return .object(JSONObject(members))
            default: throw error("expected ',' or '}' in the object")
            }
        }
    }

    mutating func parseArray() throws(JSONParseError) -> JSONValue {
        try enter()
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            depth -= 1
            return .array([])
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue())
            skipWhitespace()
            switch peek() {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"):
                index += 1
                depth -= 1
                return .array(elements)
            default: throw error("expected ',' or ']' in the array")
            }
        }
    }

    mutating func enter() throws(JSONParseError) {
        depth += 1
        if depth > JSONValue.maximumDepth { throw error("nesting deeper than \(JSONValue.maximumDepth) levels") }
    }

    mutating func parseString() throws(JSONParseError) -> String {
        index += 1
        let start = index
        // Fast path: no escapes.
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") { break }
            if byte < 0x20 { throw error("control character in a string") }
            index += 1
        }
        var scalars = Array(UnsafeRawBufferPointer(rebasing: bytes[start..<index]))
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: scalars, as: UTF8.self)
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                let escape = bytes[index]
                index += 1
                switch escape {
                case UInt8(ascii: "\""): scalars.append(0x22)
                case UInt8(ascii: "\\"): scalars.append(0x5C)
                case UInt8(ascii: "/"): scalars.append(0x2F)
                case UInt8(ascii: "b"): scalars.append(0x08)
                case UInt8(ascii: "f"): scalars.append(0x0C)
                case UInt8(ascii: "n"): scalars.append(0x0A)
                case UInt8(ascii: "r"): scalars.append(0x0D)
                case UInt8(ascii: "t"): scalars.append(0x09)
                case UInt8(ascii: "u"):
                    var code = try parseHex4()
                    if (0xD800..<0xDC00).contains(code), peek() == UInt8(ascii: "\\"),
                        index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u")
                    {
                        index += 2
                        let low = try parseHex4()
                        if (0xDC00..<0xE000).contains(low) {
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        } else {
                            appendScalar(0xFFFD, to: &scalars)
                            code = low
                        }
                    }
                    appendScalar(code, to: &scalars)
                default:
                    index -= 1
                    throw error("invalid escape '\\\(printable(escape))'")
                }
            default:
                if byte < 0x20 { throw error("control character in a string") }
                scalars.append(byte)
                index += 1
            }
        }
        throw error("unterminated string")
    }

    mutating func parseHex4() throws(JSONParseError) -> UInt32 {
        guard index + 4 <= bytes.count else { throw error("incomplete \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw error("invalid hex digit in a \\u escape")
            }
            value = value << 4 | digit
            index += 1
        }
        return value
    }

    func appendScalar(_ code: UInt32, to buffer: inout [UInt8]) {
        let scalar = Unicode.Scalar(code) ?? "\u{FFFD}"
        buffer.append(contentsOf: Array(String(Character(scalar)).utf8))
    }

    mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if peek() == UInt8(ascii: "-") { index += 1 }
        guard let first = peek(), isDigit(first) else { throw error("expected a digit") }
        if first == UInt8(ascii: "0") {
            index += 1
        } else {
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if peek() == UInt8(ascii: ".") {
            index += 1
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit after '.'") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        if let byte = peek(), byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
            index += 1
            if let sign = peek(), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { index += 1 }
            guard let byte = peek(), isDigit(byte) else { throw error("expected a digit in the exponent") }
            while let byte = peek(), isDigit(byte) { index += 1 }
        }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let count = literal.utf8CodeUnitCount
        guard index + count <= bytes.count else { throw error("unexpected end of input") }
        let matches = literal.withUTF8Buffer { expected in
            (0..<count).allSatisfy { bytes[index + $0] == expected[$0] }
        }
        guard matches else { throw error("unexpected character '\(printable(bytes[index]))'") }
        index += count
    }

    func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    func peek() -> UInt8? { index < bytes.count ? bytes[index] : nil }

    mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    func printable(_ byte: UInt8) -> String {
        (0x20..<0x7F).contains(byte) ? String(UnicodeScalar(byte)) : "\\x" + Hex.text(byte)
    }

    func error(_ reason: String) -> JSONParseError {
        var line = 1
        var lineStart = 0
        let end = min(index, bytes.count)
        for position in 0..<end where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        return JSONParseError(reason: reason, line: line, column: end - lineStart + 1, offset: end)
    }
}
