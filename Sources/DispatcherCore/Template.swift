/// A text with `{{name}}` placeholders (spaces inside the braces are allowed). Names may contain
/// dots (`{{secret.TOKEN}}`): what a name means is up to the resolver.
public struct Template: Sendable, Hashable {
    /// The text as written.
    public let text: String

    /// Makes a template.
    public init(_ text: String) { self.text = text }

    /// The placeholder names in order of appearance (repeats kept).
    public var placeholders: [String] {
        var names: [String] = []
        forEachPart { part in if case .placeholder(let name) = part { names.append(name) } }
        return names
    }

    /// Whether the text has any placeholder.
    public var hasPlaceholders: Bool { text.utf8Contains("{{") && !placeholders.isEmpty }

    /// Renders the text, replacing each placeholder by `resolve(name)`.
    /// Every name the resolver cannot resolve is reported together.
    public func render(_ resolve: (String) -> String?) throws(TemplateError) -> String {
        guard text.utf8Contains("{{") else { return text }
        var output = ""
        output.reserveCapacity(text.utf8.count + 16)
        var unresolved: [String] = []
        forEachPart { part in
            switch part {
            case .literal(let literal): output += literal
            case .placeholder(let name):
                if let value = resolve(name) {
                    output += value
                } else if !unresolved.contains(name) {
                    unresolved.append(name)
                }
            }
        }
        if !unresolved.isEmpty { throw TemplateError(unresolved: unresolved, template: text) }
        return output
    }

    enum Part {
        case literal(Substring)
        case placeholder(String)
    }

    func forEachPart(_ body: (Part) -> Void) {
        // Found on the bytes in place (braces and spaces are ASCII, so their UTF-8 offsets are
        // valid String.Index positions): every request renders its path through here.
        var text = self.text
        text.makeContiguousUTF8()
        let utf8 = text.utf8
        let index = { (offset: Int) in utf8.index(utf8.startIndex, offsetBy: offset) }
        _ = utf8.withContiguousStorageIfAvailable { bytes in
            var restStart = 0
            while let open = Template.offset(of: UInt8(ascii: "{"), twiceIn: bytes, from: restStart),
                let close = Template.offset(of: UInt8(ascii: "}"), twiceIn: bytes, from: open + 2)
            {
                var nameStart = open + 2, nameEnd = close
                while nameStart < nameEnd, bytes[nameStart] == UInt8(ascii: " ") { nameStart += 1 }
                while nameEnd > nameStart, bytes[nameEnd - 1] == UInt8(ascii: " ") { nameEnd -= 1 }
                if nameStart == nameEnd || bytes[nameStart..<nameEnd].contains(UInt8(ascii: "{")) {
                    body(.literal(text[index(restStart)..<index(open + 2)]))
                    restStart = open + 2
                    continue
                }
                if open > restStart { body(.literal(text[index(restStart)..<index(open)])) }
                body(.placeholder(String(text[index(nameStart)..<index(nameEnd)])))
                restStart = close + 2
            }
            if restStart < bytes.count { body(.literal(text[index(restStart)...])) }
        }
    }

    /// The offset of the first `byte byte` pair at or after `start`.
    private static func offset(of byte: UInt8, twiceIn bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        var position = start
        while position + 1 < bytes.count {
            if bytes[position] == byte, bytes[position + 1] == byte { return position }
            position += 1
        }
        return nil
    }
}

/// Placeholders that had no value.
public struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The unresolved names, in order of first appearance.
    public var unresolved: [String]
    /// The template they appear in.
    public var template: String

    /// Makes the error.
    public init(unresolved: [String], template: String) {
        self.unresolved = unresolved
        self.template = template
    }

    public var description: String {
        let names = unresolved.map { "{{\($0)}}" }.joined(separator: ", ")
        return "no value for \(names) in \"\(template)\""
    }
}
