/// Reads GraphQL's schema definition language (the October 2021 specification, §3 "Type
/// System") into a `GraphQLSchema`: `schema`, `scalar`, `type`, `interface`, `union`, `enum`,
/// `input` and `directive` definitions and their `extend` forms, descriptions, directives and
/// default values (read and left aside). Operations and fragments are refused with their place.
///
/// GraphQLSwift/GraphQL parses SDL too, but it imports Foundation throughout, which would link
/// ICU's data back into the binary; the type-system grammar is small enough to read here.
struct GraphQLSchemaParser {
    private enum Token: Equatable {
        case punctuator(UInt8)
        case spread
        case name(String)
        case number(String)
        case string(String)
        case end
    }

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    private var lineStart = 0
    private var token = Token.end
    private var tokenLine = 1
    private var tokenColumn = 1

    /// Parses `text`, throwing the first error with its line and column.
    static func parse(_ text: String) throws(GraphQLSchemaError) -> GraphQLSchema {
        var parser = GraphQLSchemaParser(bytes: Array(text.utf8))
        return try parser.document()
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    }

    // MARK: Grammar

    private mutating func document() throws(GraphQLSchemaError) -> GraphQLSchema {
        var schema = GraphQLSchema()
        try advance()
        if token == .end { throw failure("the document is empty: a schema defines at least one type") }
        while token != .end {
            let description = try optionalDescription()
            guard case .name(let keyword) = token else { throw failure("expected a definition (type, input, enum …), found \(describe(token))") }
            let line = tokenLine
            let column = tokenColumn
            try advance()
            var isExtension = false
            var kind = keyword
            if keyword == "extend" {
                isExtension = true
                guard case .name(let extended) = token else { throw failure("expected what to extend after 'extend'") }
                kind = extended
                try advance()
            }
            switch kind {
            case "schema": try schemaDefinition(into: &schema)
            case "scalar": schema.add(GraphQLSchema.NamedType(name: try name(), kind: .scalar, description: description)); try directives()
            case "type", "interface": schema.add(try objectDefinition(kind == "type" ? .object : .interface, description: description))
            case "union": schema.add(try unionDefinition(description: description))
            case "enum": schema.add(try enumDefinition(description: description))
            case "input": schema.add(try inputDefinition(description: description))
            case "directive" where !isExtension: try directiveDefinition()
            case "query", "mutation", "subscription", "fragment":
                throw GraphQLSchemaError(
                    message: "'\(kind)' starts an operation or fragment, not a schema definition: import graphql reads a schema (SDL) or an introspection result",
                    line: line, column: column)
            default:
                throw GraphQLSchemaError(message: "unknown definition '\(kind)'", line: line, column: column)
            }
        }
        schema.finish()
        return schema
    }

    private mutating func schemaDefinition(into schema: inout GraphQLSchema) throws(GraphQLSchemaError) {
        try directives()
        guard token == .punctuator(UInt8(ascii: "{")) else { return }
        try advance()
        while token != .punctuator(UInt8(ascii: "}")) {
            let operation = try name()
            try expect(":")
            let type = try name()
            switch operation {
            case "query": schema.queryType = type
            case "mutation": schema.mutationType = type
            case "subscription": schema.subscriptionType = type
            default: throw failure("a schema names query, mutation and subscription types, not '\(operation)'")
            }
        }
        try advance()
    }

    private mutating func objectDefinition(_ kind: GraphQLSchema.Kind, description: String?) throws(GraphQLSchemaError) -> GraphQLSchema.NamedType {
        var type = GraphQLSchema.NamedType(name: try name(), kind: kind, description: description)
        if token == .name("implements") {
            try advance()
            type.interfaces = try names(separatedBy: "&")
        }
        try directives()
        guard token == .punctuator(UInt8(ascii: "{")) else { return type }
        try advance()
        while token != .punctuator(UInt8(ascii: "}")) {
            let fieldDescription = try optionalDescription()
            let fieldName = try name()
            var arguments: [GraphQLSchema.InputValue] = []
            if token == .punctuator(UInt8(ascii: "(")) {
                try advance()
                while token != .punctuator(UInt8(ascii: ")")) { arguments.append(try inputValue()) }
                try advance()
            }
            try expect(":")
            let fieldType = try typeReference()
            try directives()
            type.fields.append(GraphQLSchema.Field(name: fieldName, description: fieldDescription, arguments: arguments, type: fieldType))
        }
        try advance()
        return type
    }

    private mutating func unionDefinition(description: String?) throws(GraphQLSchemaError) -> GraphQLSchema.NamedType {
        var type = GraphQLSchema.NamedType(name: try name(), kind: .union, description: description)
        try directives()
        guard token == .punctuator(UInt8(ascii: "=")) else { return type }
        try advance()
        type.possibleTypes = try names(separatedBy: "|")
        return type
    }

    private mutating func enumDefinition(description: String?) throws(GraphQLSchemaError) -> GraphQLSchema.NamedType {
        var type = GraphQLSchema.NamedType(name: try name(), kind: .enumeration, description: description)
        try directives()
        guard token == .punctuator(UInt8(ascii: "{")) else { return type }
        try advance()
        while token != .punctuator(UInt8(ascii: "}")) {
            _ = try optionalDescription()
            let value = try name()
            if ["true", "false", "null"].contains(value) { throw failure("an enum value cannot be named \(value)") }
            type.enumValues.append(value)
            try directives()
        }
        try advance()
        return type
    }

    private mutating func inputDefinition(description: String?) throws(GraphQLSchemaError) -> GraphQLSchema.NamedType {
        var type = GraphQLSchema.NamedType(name: try name(), kind: .inputObject, description: description)
        try directives()
        guard token == .punctuator(UInt8(ascii: "{")) else { return type }
        try advance()
        while token != .punctuator(UInt8(ascii: "}")) { type.inputFields.append(try inputValue()) }
        try advance()
        return type
    }

    /// `directive @name(args) repeatable on A | B`: read and left aside.
    private mutating func directiveDefinition() throws(GraphQLSchemaError) {
        try expect("@")
        _ = try name()
        if token == .punctuator(UInt8(ascii: "(")) {
            try advance()
            while token != .punctuator(UInt8(ascii: ")")) { _ = try inputValue() }
            try advance()
        }
        if token == .name("repeatable") { try advance() }
        guard token == .name("on") else { throw failure("expected 'on' and the locations of the directive") }
        try advance()
        _ = try names(separatedBy: "|")
    }

    /// `A & B & C` or `| A | B` (a leading separator is allowed).
    private mutating func names(separatedBy separator: Unicode.Scalar) throws(GraphQLSchemaError) -> [String] {
        if token == .punctuator(UInt8(ascii: separator)) { try advance() }
        var names = [try name()]
        while token == .punctuator(UInt8(ascii: separator)) {
            try advance()
            names.append(try name())
        }
        return names
    }

    /// `"description" name: Type = default @directive`.
    private mutating func inputValue() throws(GraphQLSchemaError) -> GraphQLSchema.InputValue {
        let description = try optionalDescription()
        let valueName = try name()
        try expect(":")
        var value = GraphQLSchema.InputValue(name: valueName, description: description, type: try typeReference())
        if token == .punctuator(UInt8(ascii: "=")) {
            try advance()
            try skipValue()
            value.hasDefault = true
        }
        try directives()
        return value
    }

    private mutating func typeReference() throws(GraphQLSchemaError) -> GraphQLSchema.TypeReference {
        var type: GraphQLSchema.TypeReference
        if token == .punctuator(UInt8(ascii: "[")) {
            try advance()
            type = .list(try typeReference())
            try expect("]")
        } else {
            type = .named(try name())
        }
        if token == .punctuator(UInt8(ascii: "!")) {
            try advance()
            type = .nonNull(type)
        }
        return type
    }

    private mutating func directives() throws(GraphQLSchemaError) {
        while token == .punctuator(UInt8(ascii: "@")) {
            try advance()
            _ = try name()
            if token == .punctuator(UInt8(ascii: "(")) {
                try advance()
                while token != .punctuator(UInt8(ascii: ")")) {
                    _ = try name()
                    try expect(":")
                    try skipValue()
                }
                try advance()
            }
        }
    }

    /// A constant value (a default or a directive argument): read for its extent only.
    private mutating func skipValue() throws(GraphQLSchemaError) {
        switch token {
        case .punctuator(UInt8(ascii: "[")):
            try advance()
            while token != .punctuator(UInt8(ascii: "]")) { try skipValue() }
            try advance()
        case .punctuator(UInt8(ascii: "{")):
            try advance()
            while token != .punctuator(UInt8(ascii: "}")) {
                _ = try name()
                try expect(":")
                try skipValue()
            }
            try advance()
        case .punctuator(UInt8(ascii: "$")):
            try advance()
            _ = try name()
        case .name, .number, .string: try advance()
        default: throw failure("expected a value, found \(describe(token))")
        }
    }

    private mutating func optionalDescription() throws(GraphQLSchemaError) -> String? {
        guard case .string(let text) = token else { return nil }
        try advance()
        return text
    }

    private mutating func name() throws(GraphQLSchemaError) -> String {
        guard case .name(let text) = token else { throw failure("expected a name, found \(describe(token))") }
        try advance()
        return text
    }

    private mutating func expect(_ punctuator: Unicode.Scalar) throws(GraphQLSchemaError) {
        guard token == .punctuator(UInt8(ascii: punctuator)) else { throw failure("expected '\(punctuator)', found \(describe(token))") }
        try advance()
    }

    private func failure(_ message: String) -> GraphQLSchemaError {
        GraphQLSchemaError(message: message, line: tokenLine, column: tokenColumn)
    }

    private func describe(_ token: Token) -> String {
        switch token {
        case .punctuator(let byte): "'\(Character(Unicode.Scalar(byte)))'"
        case .spread: "'...'"
        case .name(let text): "'\(text)'"
        case .number(let text): "the number \(text)"
        case .string: "a string"
        case .end: "the end of the document"
        }
    }

    // MARK: Lexer

    private mutating func advance() throws(GraphQLSchemaError) {
        skipIgnored()
        tokenLine = line
        tokenColumn = index - lineStart + 1
        guard index < bytes.count else {
            token = .end
            return
        }
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: ":"),
            UInt8(ascii: "="), UInt8(ascii: "@"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            index += 1
            token = .punctuator(byte)
        case UInt8(ascii: "."):
            guard bytes[index...].starts(with: Array("...".utf8)) else { throw failure("unexpected '.'") }
            index += 3
            token = .spread
        case UInt8(ascii: "\""):
            token = .string(bytes[index...].starts(with: Array(#"""""#.utf8)) ? try blockString() : try string())
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            let start = index
            index += 1
            while index < bytes.count, Self.isNumberPart(bytes[index]) { index += 1 }
            token = .number(String(decoding: bytes[start..<index], as: UTF8.self))
        case _ where Self.isNameStart(byte):
            let start = index
            while index < bytes.count, Self.isNameStart(bytes[index]) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            token = .name(String(decoding: bytes[start..<index], as: UTF8.self))
        default:
            throw failure("unexpected character '\(String(decoding: bytes[index..<min(bytes.count, index + 1)], as: UTF8.self))'")
        }
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) || byte == UInt8(ascii: "_")
    }

    private static func isNumberPart(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e")
            || byte == UInt8(ascii: "E") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
    }

    /// Whitespace, line terminators, commas and `#` comments.
    private mutating func skipIgnored() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","): index += 1
            case UInt8(ascii: "\n"): newLine(after: index)
            case UInt8(ascii: "\r"):
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\n") { index += 1 }
                newLine(after: index)
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n"), bytes[index] != UInt8(ascii: "\r") { index += 1 }
            default: return
            }
        }
    }

    private mutating func newLine(after position: Int) {
        index = position + 1
        line += 1
        lineStart = index
    }

    /// `"…"` with its escapes.
    private mutating func string() throws(GraphQLSchemaError) -> String {
        index += 1
        var scalars = String.UnicodeScalarView()
        var start = index
        func flush(_ end: Int) { scalars.append(contentsOf: String(decoding: bytes[start..<end], as: UTF8.self).unicodeScalars) }
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                flush(index)
                index += 1
                return String(scalars)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw failure("a string does not end on its line (use \"\"\" for text over several lines)")
            case UInt8(ascii: "\\"):
                flush(index)
                guard index + 1 < bytes.count else { throw failure("a string ends inside an escape") }
                let escaped = bytes[index + 1]
                index += 2
                switch escaped {
                case UInt8(ascii: "n"): scalars.append("\n")
                case UInt8(ascii: "t"): scalars.append("\t")
                case UInt8(ascii: "r"): scalars.append("\r")
                case UInt8(ascii: "b"): scalars.append("\u{08}")
                case UInt8(ascii: "f"): scalars.append("\u{0C}")
                case UInt8(ascii: "u"):
                    var digits = ""
                    if index < bytes.count, bytes[index] == UInt8(ascii: "{") {
                        index += 1
                        while index < bytes.count, bytes[index] != UInt8(ascii: "}") { digits.unicodeScalars.append(Unicode.Scalar(bytes[index])); index += 1 }
                        index += 1
                    } else {
                        let end = min(bytes.count, index + 4)
                        digits = String(decoding: bytes[index..<end], as: UTF8.self)
                        index = end
                    }
                    guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else { throw failure("'\\u\(digits)' is not a Unicode escape") }
                    scalars.append(scalar)
                default: scalars.append(Unicode.Scalar(escaped))
                }
                start = index
            default: index += 1
            }
        }
        throw failure("a string is not closed")
    }

    /// `"""…"""`, with the common indentation and blank first and last lines removed (§2.9.6).
    private mutating func blockString() throws(GraphQLSchemaError) -> String {
        index += 3
        var raw: [UInt8] = []
        while index < bytes.count {
            if bytes[index...].starts(with: Array(#"\""""#.utf8)) {
                raw += Array(#"""""#.utf8)
                index += 4
            } else if bytes[index...].starts(with: Array(#"""""#.utf8)) {
                index += 3
                return Self.blockValue(String(decoding: raw, as: UTF8.self))
            } else {
                if bytes[index] == UInt8(ascii: "\n") {
                    raw.append(bytes[index])
                    newLine(after: index)
                    continue
                }
                raw.append(bytes[index])
                index += 1
            }
        }
        throw failure("a block string (\"\"\") is not closed")
    }

    static func blockValue(_ raw: String) -> String {
        var lines = raw.split(omittingEmptySubsequences: false) { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }.map(String.init)
        let indent = lines.dropFirst().filter { $0.contains { $0 != " " && $0 != "\t" } }
            .map { $0.prefix { $0 == " " || $0 == "\t" }.count }.min() ?? 0
        for position in lines.indices.dropFirst() { lines[position] = String(lines[position].dropFirst(indent)) }
        while let first = lines.first, first.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeFirst() }
        while let last = lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) { lines.removeLast() }
        return lines.joined(separator: "\n")
    }
}
