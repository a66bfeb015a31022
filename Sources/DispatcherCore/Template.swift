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
    public var hasPlaceholders: Bool { text.contains("{{") && !placeholders.isEmpty }

    /// Renders the text, replacing each placeholder by `resolve(name)`.
    /// Every name the resolver cannot resolve is reported together.
    public func render(_ resolve: (String) -> String?) throws(TemplateError) -> String {
        guard text.contains("{{") else { return text }
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
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            guard let close = rest[open.upperBound...].range(of: "}}") else { break }
            let name = rest[open.upperBound..<close.lowerBound].trimmingSpaces
            if name.isEmpty || name.contains("{") {
                body(.literal(rest[..<open.upperBound]))
                rest = rest[open.upperBound...]
                continue
            }
            if open.lowerBound > rest.startIndex { body(.literal(rest[..<open.lowerBound])) }
            body(.placeholder(String(name)))
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { body(.literal(rest)) }
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
