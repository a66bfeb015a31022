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
        // Braces are ASCII, so UTF-8 offsets of them are valid String.Index positions.
        let utf8 = text.utf8
        var restStart = 0
        while let open = text.utf8FirstOffset(of: "{{", from: restStart),
            let close = text.utf8FirstOffset(of: "}}", from: open + 2)
        {
            let index = { (offset: Int) in utf8.index(utf8.startIndex, offsetBy: offset) }
            let name = text[index(open + 2)..<index(close)].trimmingSpaces
            if name.isEmpty || name.utf8.contains(UInt8(ascii: "{")) {
                body(.literal(text[index(restStart)..<index(open + 2)]))
                restStart = open + 2
                continue
            }
            if open > restStart { body(.literal(text[index(restStart)..<index(open)])) }
            body(.placeholder(String(name)))
            restStart = close + 2
        }
        if restStart < utf8.count { body(.literal(text[utf8.index(utf8.startIndex, offsetBy: restStart)...])) }
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

extension Substring {
    var trimmingSpaces: Substring {
        var result = self
        while result.first == " " { result = result.dropFirst() }
        while result.last == " " { result = result.dropLast() }
        return result
    }
}
