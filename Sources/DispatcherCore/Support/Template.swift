/// A text with `{{name}}` placeholders (spaces inside the braces are allowed). Names may contain
/// dots (`{{secret.TOKEN}}`): what a name means is up to the resolver.
package struct Template: Sendable, Hashable {
    /// The text as written.
    package let text: String

    /// Makes a template.
    package init(_ text: String) { self.text = text }

    /// The placeholder names in order of appearance (repeats kept).
    package var placeholders: [String] {
        var names: [String] = []
        var text = self.text
        text.makeContiguousUTF8()
        _ = text.utf8.withContiguousStorageIfAvailable { bytes in
            Template.forEachPart(of: bytes) { part in
                if case .placeholder(let range) = part { names.append(String(decoding: bytes[range], as: UTF8.self)) }
            }
        }
        return names
    }

    /// Whether the text is one placeholder and nothing else (`{{id}}`).
    package var isOnePlaceholder: Bool {
        placeholders.count == 1 && (try? render { _ in "" }) == ""
    }

    /// Whether the text has any placeholder.
    package var hasPlaceholders: Bool { text.utf8Contains("{{") && !placeholders.isEmpty }

    /// Whether a `{{` is left as text: no `}}` closes it, or nothing is between them (`{{}}`).
    /// Such text is sent as written, which is rarely what was meant.
    package var hasUnclosedOpening: Bool {
        guard text.utf8Contains("{{") else { return false }
        var text = self.text
        text.makeContiguousUTF8()
        var found = false
        _ = text.utf8.withContiguousStorageIfAvailable { bytes in
            Template.forEachPart(of: bytes) { part in
                if case .literal(let range) = part, !found {
                    // A plain loop: `Slice.indices` is generic code with a costly first call (docs/performance.md).
                    var index = range.lowerBound
                    while index + 1 < range.upperBound, !found {
                        found = bytes[index] == UInt8(ascii: "{") && bytes[index + 1] == UInt8(ascii: "{")
                        index += 1
                    }
                }
            }
        }
        return found
    }

    /// Renders the text, replacing each placeholder by `resolve(name)`.
    /// Every name the resolver cannot resolve is reported together.
    package func render(_ resolve: (String) -> String?) throws(TemplateError) -> String {
        guard text.utf8Contains("{{") else { return text }
        // Built as bytes: every request renders its path through here, and String slicing and
        // appending cost more than the rest of it.
        var text = self.text
        text.makeContiguousUTF8()
        var unresolved: [String] = []
        let output = text.utf8.withContiguousStorageIfAvailable { bytes in
            var output: [UInt8] = []
            output.reserveCapacity(bytes.count + 16)
            Template.forEachPart(of: bytes) { part in
                switch part {
                case .literal(let range): output.append(contentsOf: bytes[range])
                case .placeholder(let range):
                    let name = String(decoding: bytes[range], as: UTF8.self)
                    if let value = resolve(name) {
                        output.append(contentsOf: value.utf8)
                    } else if !unresolved.contains(name) {
                        unresolved.append(name)
                    }
                }
            }
            return String(decoding: output, as: UTF8.self)
        } ?? ""  // never: a contiguous string always lends its bytes
        if !unresolved.isEmpty { throw TemplateError(unresolved: unresolved, template: text) }
        return output
    }

    /// A run of the text: literal bytes, or the bytes of a placeholder's name (spaces trimmed).
    enum Part {
        case literal(Range<Int>)
        case placeholder(Range<Int>)
    }

    /// The parts of UTF-8 text in order. Braces and spaces are ASCII, so they are found as bytes.
    static func forEachPart(of bytes: UnsafeBufferPointer<UInt8>, _ body: (Part) -> Void) {
        var restStart = 0
        while let open = offset(of: UInt8(ascii: "{"), twiceIn: bytes, from: restStart),
            let close = offset(of: UInt8(ascii: "}"), twiceIn: bytes, from: open + 2)
        {
            var nameStart = open + 2, nameEnd = close
            while nameStart < nameEnd, bytes[nameStart] == UInt8(ascii: " ") { nameStart += 1 }
            while nameEnd > nameStart, bytes[nameEnd - 1] == UInt8(ascii: " ") { nameEnd -= 1 }
            if nameStart == nameEnd || bytes[nameStart..<nameEnd].contains(UInt8(ascii: "{")) {
                body(.literal(restStart..<open + 2))
                restStart = open + 2
                continue
            }
            if open > restStart { body(.literal(restStart..<open)) }
            body(.placeholder(nameStart..<nameEnd))
            restStart = close + 2
        }
        if restStart < bytes.count { body(.literal(restStart..<bytes.count)) }
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
package struct TemplateError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The unresolved names, in order of first appearance.
    package var unresolved: [String]
    /// The template they appear in.
    package var template: String

    /// Makes the error.
    package init(unresolved: [String], template: String) {
        self.unresolved = unresolved
        self.template = template
    }

    package var description: String {
        let names = unresolved.map { "{{\($0)}}" }.joined(separator: ", ")
        return "no value for \(names) in \"\(template)\""
    }
}
