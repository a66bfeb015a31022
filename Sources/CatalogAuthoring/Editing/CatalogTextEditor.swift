import Catalog
import YAMLSupport

/// Changes one entry of a catalog file and keeps every other byte as it was: lines are replaced
/// or inserted whole, located with the positions `YAMLComposer` gives every node. Mappings are
/// edited in block style; a flow mapping (`{ … }`) on the way is reported, or (an endpoint's query,
/// headers, form or body) rewritten whole on its line, never edited inside.
struct CatalogTextEditor {
    /// The file's lines without their `\n` (a CRLF file's lines keep their `\r`).
    var lines: [String]
    let lineEnding: String

    /// Makes an editor for a catalog file's text.
    init(_ text: String) {
        lineEnding = text.utf8.contains(UInt8(ascii: "\r")) ? "\r\n" : "\n"
        // Split on bytes: "\r\n" is one Character, so splitting the String on "\n" would not split it.
        lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    }

    /// The edited text.
    var text: String { lines.joined(separator: "\n") }

    /// Sets the stub (`example` nil or `default`) or a named example of an endpoint to `body`
    /// (the example's keys, one per line, not indented). An existing one is replaced only when
    /// `replace`; its `description` and `delay` are kept when `body` has none.
    mutating func setExample(endpoint id: String, example: String?, body: [String], replace: Bool) throws(AuthoringError) {
        let root = try outline()
        let endpoint = try endpointNode(id, in: root)
        let step = indentStep(root)
        let isStub = example == nil || example == "default"
        let name = example ?? "default"
        if isStub {
            if let existing = endpoint.entry("stub") {
                guard replace else { throw .wouldOverwrite("\(id) already has a stub; --force replaces it") }
                try replaceEntry(existing, with: body + kept(existing.value, body), step: step)
            } else {
                try insert(["stub:"] + indent(body, by: step), into: endpoint, of: "endpoint '\(id)'")
            }
            return
        }
        guard let examples = endpoint.entry("examples") else {
            try insert(["examples:"] + indent(["\(YAMLText.key(name)):"] + indent(body, by: step), by: step), into: endpoint, of: "endpoint '\(id)'")
            return
        }
        guard !examples.value.isFlow else {
            throw .invalidInput("the examples of '\(id)' are written in flow style ({ … }); write them as a block mapping to record into them")
        }
        if let existing = examples.value.entry(name) {
            guard replace else { throw .wouldOverwrite("\(id) already has an example '\(name)'; --force replaces it") }
            try replaceEntry(existing, with: body + kept(existing.value, body), step: step)
        } else {
            try insert(["\(YAMLText.key(name)):"] + indent(body, by: step), into: examples.value, of: "the examples of '\(id)'")
        }
    }

    /// Adds an endpoint (`body`: its keys, not indented) at the end of `endpoints`, after a blank
    /// line when `blankLineBefore`.
    mutating func addEndpoint(_ id: String, body: [String], blankLineBefore: Bool = false) throws(AuthoringError) {
        let root = try outline()
        let step = indentStep(root)
        guard let endpoints = root.entry("endpoints") else {
            append(["endpoints:"] + indent(["\(YAMLText.key(id)):"] + indent(body, by: step), by: step))
            return
        }
        if endpoints.value.entry(id) != nil { throw .wouldOverwrite("the catalog already has an endpoint '\(id)'; choose another --name") }
        guard endpoints.value.isMapping else { throw .invalidInput("'endpoints' is not a mapping") }
        let separator = blankLineBefore ? [""] : []
        try insert(separator + ["\(YAMLText.key(id)):"] + indent(body, by: step), into: endpoints.value, of: "'endpoints'")
    }

    func outline() throws(AuthoringError) -> YAMLNode {
        let root: YAMLNode?
        do {
            root = try YAMLComposer.compose(text).root
        } catch {
            throw .invalidInput("YAML syntax at line \(error.line): \(error.message)")
        }
        guard let root, root.isMapping else { throw .invalidInput("the catalog file is not a YAML mapping") }
        return root
    }

    private func endpointNode(_ id: String, in root: YAMLNode) throws(AuthoringError) -> YAMLNode {
        guard let endpoint = root.value("endpoints")?.value(id), endpoint.isMapping else {
            throw .invalidInput("the catalog file has no endpoint '\(id)' written as a mapping")
        }
        guard !endpoint.isFlow else {
            throw .invalidInput("endpoint '\(id)' is written in flow style ({ … }); write it as a block mapping to record into it")
        }
        return endpoint
    }

    /// The file's indentation step: how far the first endpoint's keys sit right of its name.
    func indentStep(_ root: YAMLNode) -> Int {
        if let first = root.value("endpoints")?.entries.first, let key = first.value.entries.first?.keyNode, !first.value.isFlow {
            let step = key.column - first.keyNode.column
            if step > 0 { return step }
        }
        return 2
    }

    /// `description` and `delay` of an example being replaced, unless the new body sets them.
    private func kept(_ node: YAMLNode, _ body: [String]) -> [String] {
        ["description", "delay"].compactMap { key in
            guard !body.contains(where: { $0.hasPrefix("\(key):") }), let value = node.value(key)?.scalar?.text else { return nil }
            return "\(key): \(YAMLText.scalar(value))"
        }
    }

    private mutating func replaceEntry(_ entry: (key: String, keyNode: YAMLNode, value: YAMLNode), with body: [String], step: Int) throws(AuthoringError) {
        // Lines here are 0-based; the node's are 1-based.
        let column = entry.keyNode.column - 1
        let first = entry.keyNode.line - 1
        let last = contentEnd(entry.value.lastLine - 1, notBefore: first)
        let prefix = String(lines[first].prefix(column))
        guard prefix.allSatisfy({ $0 == " " }) else {
            throw .invalidInput("'\(entry.key)' shares line \(first + 1) with other content; write it on its own line to record into it")
        }
        let replacement = indent(["\(YAMLText.key(entry.key)):"] + indent(body, by: step), by: column)
        let ending = lines[last].hasSuffix("\r") ? "\r" : ""
        lines.replaceSubrange(first...last, with: replacement.map { $0 + ending })
    }

    private mutating func insert(_ body: [String], into mapping: YAMLNode, of what: String) throws(AuthoringError) {
        guard !mapping.isFlow, let firstKey = mapping.entries.first?.keyNode else {
            throw .invalidInput("\(what) is written in flow style ({ … }) or empty; write it as a block mapping to add to it")
        }
        let ending = lineEnding == "\r\n" ? "\r" : ""
        let position = contentEnd(mapping.lastLine - 1, notBefore: firstKey.line - 1) + 1
        lines.insert(contentsOf: indent(body, by: firstKey.column - 1).map { $0 + ending }, at: min(position, lines.count))
    }

    private mutating func append(_ body: [String]) {
        let ending = lineEnding == "\r\n" ? "\r" : ""
        // Keep the file's final newline after the new lines.
        if lines.last == "" { lines.removeLast() }
        lines += body.map { $0 + ending }
        lines.append("")
    }

    /// `line`, or the last line before it that is not blank: a block scalar's end mark lies after
    /// the blank lines that follow it, which belong to what comes next.
    func contentEnd(_ line: Int, notBefore first: Int) -> Int {
        var last = min(max(line, first), lines.count - 1)
        while last > first, lines[last].allSatisfy({ $0 == " " || $0 == "\t" || $0 == "\r" }) { last -= 1 }
        return last
    }

    func indent(_ lines: [String], by count: Int) -> [String] {
        let padding = String(repeating: " ", count: count)
        return lines.map { $0.isEmpty ? $0 : padding + $0 }
    }
}
