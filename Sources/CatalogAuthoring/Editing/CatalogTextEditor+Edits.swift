import Catalog
import DispatcherCore
import JSONSupport
import TextSupport
import YAMLSupport

/// Writing an edited request into its endpoint: only the lines of what changed are replaced,
/// added or removed; every other byte (comments, blank lines, key order, quoting) stays.
extension CatalogTextEditor {
    typealias Entry = (key: String, keyNode: YAMLNode, value: YAMLNode)

    /// How a new value is written.
    enum Rendering {
        /// On the key's line: `key: value`.
        case inline(String)
        /// Lines under the key (a block mapping or sequence), not indented.
        case block([String])
        /// A literal block scalar: its header (`|`, `|-`) and its lines, not indented.
        case literal(String, [String])
    }

    /// A member of a mapping as it must read after the edit.
    struct Member {
        enum Value {
            /// Text; nil is YAML null (a bare query name).
            case text(String?)
            /// Several texts: a query name repeated.
            case texts([String])
            /// A JSON value (a body's member).
            case json(JSONValue)
        }

        var key: String
        var value: Value
    }

    /// Line replacements worked out from one parse and applied together, bottom up, so the
    /// positions of one do not move the others.
    struct LineChanges {
        fileprivate var items: [(start: Int, end: Int, lines: [String], order: Int)] = []

        /// Replaces 0-based lines `start..<end` (an empty range inserts).
        mutating func replace(_ start: Int, _ end: Int, with lines: [String]) {
            items.append((start, end, lines, items.count))
        }

        /// Inserts lines before 0-based line `position`; insertions at one place keep their order.
        mutating func insert(_ lines: [String], at position: Int) {
            replace(position, position, with: lines)
        }
    }

    /// The parts of a request that can change, in the order they are written.
    private enum Part: CaseIterable {
        case title, method, path, query, headers, omittedHeaders, body

        func differs(_ old: CatalogEndpoint, _ new: CatalogEndpoint) -> Bool {
            switch self {
            case .title: old.title != new.title
            case .method: old.method != new.method
            case .path: old.path != new.path
            case .query: old.query != new.query
            case .headers: !old.headers.elementsEqual(new.headers) { $0.name == $1.name && $0.value == $1.value }
            case .omittedHeaders: Set(old.omittedHeaders.map { $0.lowercased() }) != Set(new.omittedHeaders.map { $0.lowercased() })
            case .body: old.body != new.body
            }
        }
    }

    /// Where the endpoint's keys go when they are added, so a new key lands where people put it.
    private static let endpointKeyOrder = [
        "title", "description", "group", "method", "path", "query", "headers", "omitHeaders", "body", "bodyFile", "form", "multipart",
        "graphql", "parameters", "stub", "examples", "validation", "timeouts", "expectsBody",
    ]

    /// Lines up to this long take a value in flow style on the key's line.
    private static let lineLimit = 100

    // MARK: Endpoints

    /// Rewrites the title, method, path, query, headers, omitted headers and body of endpoint
    /// `id` where `new` differs from `old` (what the file says now). `file` names the file in errors.
    mutating func writeRequest(of id: String, from old: CatalogEndpoint, to new: CatalogEndpoint, file: String) throws(AuthoringError) {
        _ = try endpointMapping(id, file: file)
        for part in Part.allCases where part.differs(old, new) {
            let (root, endpoint) = try endpointMapping(id, file: file)
            apply(try changes(for: part, to: new, in: endpoint, step: indentStep(root)))
        }
    }

    /// Adds a copy of endpoint `id`'s text as `newID` at the end of `endpoints`, set apart by a
    /// blank line when the file's endpoints are.
    mutating func duplicateEndpoint(_ id: String, as newID: String, file: String) throws(AuthoringError) {
        let (root, endpoint) = try endpointMapping(id, file: file)
        let first = endpoint.line - 1
        let last = contentEnd(endpoint.lastLine - 1, notBefore: first)
        let depth = endpoint.column - 1
        let body = lines[first...last].map { line in
            var text = Substring(line.hasSuffix("\r") ? String(line.dropLast()) : line)
            var removed = 0
            while removed < depth, text.first == " " {
                text.removeFirst()
                removed += 1
            }
            return String(text)
        }
        let entries = root.value("endpoints")?.entries ?? []
        let separated = entries.count > 1 && entries.last.map { blank(lines[$0.keyNode.line - 2]) } ?? false
        try addEndpoint(newID, body: body, blankLineBefore: separated)
    }

    /// The endpoint's mapping; a flow-style endpoint (or none) is an error saying where.
    private func endpointMapping(_ id: String, file: String) throws(AuthoringError) -> (root: YAMLNode, endpoint: YAMLNode) {
        let root = try outline()
        guard let entry = root.value("endpoints")?.entry(id) else {
            throw .usage("\(file) has no endpoint '\(id)'")
        }
        guard entry.value.isMapping, !entry.value.isFlow else {
            throw .invalidInput("\(file):\(entry.keyNode.line):\(entry.keyNode.column): endpoint '\(id)' is written in flow style ({ … }); "
                + "write it as a block mapping (one key per line) to save edits into it")
        }
        return (root, entry.value)
    }

    private func changes(for part: Part, to new: CatalogEndpoint, in endpoint: YAMLNode, step: Int) throws(AuthoringError) -> LineChanges {
        var changes = LineChanges()
        switch part {
        case .title: try set("title", to: .inline(YAMLText.blockScalar(new.title)), in: endpoint, step: step, &changes)
        case .method:
            if endpoint.entry("method") != nil || new.method != .get {
                try set("method", to: .inline(new.method.rawValue), in: endpoint, step: step, &changes)
            }
        case .path: try set("path", to: .inline(YAMLText.blockScalar(new.path)), in: endpoint, step: step, &changes)
        case .query: try setTextMap("query", to: try Self.members(of: new.query), in: endpoint, step: step, &changes)
        case .headers:
            let members = new.headers.map { Member(key: $0.name, value: .text($0.value)) }
            try Self.requireUnique(members, "header")
            try setTextMap("headers", to: members, in: endpoint, step: step, &changes)
        case .omittedHeaders: try setOmittedHeaders(new.omittedHeaders, in: endpoint, step: step, &changes)
        case .body: try setBody(new.body, in: endpoint, step: step, &changes)
        }
        return changes
    }

    /// Sets an endpoint key holding one value: its line when it is there, else a new line.
    private func set(_ key: String, to rendering: Rendering, in endpoint: YAMLNode, step: Int, _ changes: inout LineChanges) throws(AuthoringError) {
        if let entry = endpoint.entry(key) {
            try rewrite(entry, as: rendering, step: step, &changes)
        } else {
            changes.insert(entryLines(key, rendering, indent: endpoint.column - 1, step: step), at: insertionLine(for: key, in: endpoint))
        }
    }

    /// Query items, headers or form fields: a block mapping is changed key by key, a flow mapping
    /// is rewritten on its line, an absent one is added, an emptied one removed.
    private func setTextMap(_ key: String, to members: [Member], in endpoint: YAMLNode, step: Int, _ changes: inout LineChanges) throws(AuthoringError) {
        if let entry = endpoint.entry(key) {
            if members.isEmpty {
                try remove(entry, &changes)
            } else if entry.value.isMapping, !entry.value.isFlow {
                try edit(entry.value, to: members, step: childStep(of: entry, step: step), &changes)
            } else {
                try rewrite(entry, as: .inline(flowMapping(members)), step: step, &changes)
            }
        } else if !members.isEmpty {
            let rendering = mappingRendering(members, key: key, indent: endpoint.column - 1)
            changes.insert(entryLines(key, rendering, indent: endpoint.column - 1, step: step), at: insertionLine(for: key, in: endpoint))
        }
    }

    /// `omitHeaders`: names kept in their order, new ones added (sorted) after them; a block
    /// list only gains lines.
    private func setOmittedHeaders(_ names: Set<String>, in endpoint: YAMLNode, step: Int, _ changes: inout LineChanges) throws(AuthoringError) {
        let entry = endpoint.entry("omitHeaders")
        let written: [String] = switch entry?.value.content {
        case .sequence(let items)?: items.compactMap { $0.scalar?.text }
        case .scalar(let scalar)?: [scalar.text]
        default: []
        }
        let kept = written.filter { name in names.contains { Headers.sameName($0, name) } }
        let added = names.filter { name in !written.contains { Headers.sameName($0, name) } }.sorted()
        let all = kept + added
        guard let entry else {
            if !all.isEmpty {
                changes.insert(entryLines("omitHeaders", .inline(flowSequence(all)), indent: endpoint.column - 1, step: step),
                               at: insertionLine(for: "omitHeaders", in: endpoint))
            }
            return
        }
        if all.isEmpty {
            try remove(entry, &changes)
        } else if case .sequence = entry.value.content, !entry.value.isFlow, kept.count == written.count {
            let position = contentEnd(entry.value.lastLine - 1, notBefore: entry.keyNode.line - 1) + 1
            changes.insert(indent(added.map { "- \(YAMLText.scalar($0))" }, by: entry.value.column - 1), at: position)
        } else {
            try rewrite(entry, as: .inline(flowSequence(all)), step: step, &changes)
        }
    }

    /// The body: `body` (JSON or text), `form`, or none; another kind replaces the old key where
    /// it was (a `bodyFile` becomes an inline body). A `graphql` body stays one while the JSON
    /// keeps GraphQL's shape; replaced by another kind, its implied POST is written out.
    private func setBody(_ body: RequestBody, in endpoint: YAMLNode, step: Int, _ changes: inout LineChanges) throws(AuthoringError) {
        let existing = endpoint.entries.first { ["body", "bodyFile", "form", "multipart", "graphql"].contains($0.key) }
        let staysGraphQL = if case .json(let value) = body { GraphQLOperation(requestBody: value) != nil } else { false }
        if let existing, existing.key == "graphql", !staysGraphQL, endpoint.entry("method") == nil {
            changes.insert(
                entryLines("method", .inline(HTTPMethod.post.rawValue), indent: endpoint.column - 1, step: step),
                at: insertionLine(for: "method", in: endpoint))
        }
        let indent = endpoint.column - 1
        let key: String
        let rendering: Rendering
        switch body {
        case .none:
            if let existing { try remove(existing, &changes) }
            return
        case .data, .file, .multipart:
            throw .invalidInput("a body read from a file (or a multipart form) cannot be written inline: change it in the catalog")
        case .json(let value):
            if case .string = value {
                throw .invalidInput("a JSON body that is a single string cannot be written: the catalog sends a 'body' string as text")
            }
            if let existing, existing.key == "body" || (existing.key == "graphql" && GraphQLOperation(requestBody: value) != nil) {
                if case .object(let object) = value, !object.isEmpty, existing.value.isMapping, !existing.value.isFlow {
                    try edit(existing.value, to: try Self.members(of: object), step: childStep(of: existing, step: step), &changes)
                } else {
                    try rewrite(existing, as: jsonRendering(value, old: existing.value, key: existing.key, indent: indent), step: step, &changes)
                }
                return
            }
            key = "body"
            rendering = jsonRendering(value, old: nil, key: key, indent: indent)
        case .text(let text, _):
            key = "body"
            rendering = Self.textRendering(text)
        case .form(let items):
            let members = try items.map { item throws(AuthoringError) in
                guard let value = item.value else {
                    throw AuthoringError.invalidInput("form field '\(item.name)' has no value; a catalog form field needs one (it may be empty)")
                }
                return Member(key: item.name, value: .text(value))
            }
            try Self.requireUnique(members, "form field")
            if !members.isEmpty, existing == nil || existing?.key == "form" {
                try setTextMap("form", to: members, in: endpoint, step: step, &changes)
                return
            }
            key = "form"
            // No field left is still a form (an empty one), not no body.
            rendering = members.isEmpty ? .inline("{}") : mappingRendering(members, key: key, indent: indent)
        }
        if let existing {
            if existing.key == key {
                try rewrite(existing, as: rendering, step: step, &changes)
            } else {
                let (first, last) = try span(of: existing)
                changes.replace(first, last + 1, with: entryLines(key, rendering, indent: existing.keyNode.column - 1, step: step))
            }
        } else {
            changes.insert(entryLines(key, rendering, indent: indent, step: step), at: insertionLine(for: key, in: endpoint))
        }
    }

    /// The 0-based line before which an absent endpoint key goes: after the last key that comes
    /// before it in the usual order, else before the first that comes after it.
    private func insertionLine(for key: String, in endpoint: YAMLNode) -> Int {
        let order = Self.endpointKeyOrder
        let rank = order.firstIndex(of: key) ?? order.count
        let entries = endpoint.entries
        let before = entries.filter { (order.firstIndex(of: $0.key) ?? order.count) < rank }
        if let last = before.max(by: { $0.keyNode.line < $1.keyNode.line }) {
            return contentEnd(last.value.lastLine - 1, notBefore: last.keyNode.line - 1) + 1
        }
        let after = entries.filter { (order.firstIndex(of: $0.key) ?? order.count) > rank }
        let first = after.min(by: { $0.keyNode.line < $1.keyNode.line }) ?? entries.first
        return (first?.keyNode.line ?? endpoint.line) - 1
    }

    // MARK: Mappings, key by key

    /// Changes a block mapping into `members`: unchanged keys keep their lines, changed ones are
    /// rewritten, missing ones removed, new ones added after the member before them. Order is kept
    /// (a key that moved is removed and added again).
    private func edit(_ mapping: YAMLNode, to members: [Member], step: Int, _ changes: inout LineChanges) throws(AuthoringError) {
        let all = mapping.entries
        let old = all.filter { !($0.key == "<<" && $0.keyNode.scalar?.style == .plain) }
        let pairs = Self.commonSubsequence(old.map(\.key), members.map(\.key))
        let oldOfMember = Dictionary(uniqueKeysWithValues: pairs.map { ($0.1, $0.0) })
        let kept = Set(pairs.map(\.0))
        for (index, entry) in old.enumerated() where !kept.contains(index) {
            try remove(entry, &changes)
        }
        guard let firstKey = all.first?.keyNode else { return }
        let indent = firstKey.column - 1
        var position = firstKey.line - 1
        for (index, member) in members.enumerated() {
            if let oldIndex = oldOfMember[index] {
                let entry = old[oldIndex]
                if !Self.matches(member.value, entry.value) {
                    if case .json(.object(let object)) = member.value, !object.isEmpty, entry.value.isMapping, !entry.value.isFlow {
                        try edit(entry.value, to: try Self.members(of: object), step: childStep(of: entry, step: step), &changes)
                    } else {
                        try rewrite(entry, as: rendering(member.value, old: entry.value, key: member.key, indent: indent), step: step, &changes)
                    }
                }
                position = contentEnd(entry.value.lastLine - 1, notBefore: entry.keyNode.line - 1) + 1
            } else {
                let lines = entryLines(member.key, rendering(member.value, old: nil, key: member.key, indent: indent), indent: indent, step: step)
                changes.insert(lines, at: position)
            }
        }
    }

    /// Whether a value in the file already reads as `value`.
    private static func matches(_ value: Member.Value, _ node: YAMLNode) -> Bool {
        switch value {
        case .text(nil): return node.scalar.map(isNull) ?? false
        case .text(let text?): return node.scalar.map { !isNull($0) && $0.text == text } ?? false
        case .texts(let texts):
            guard case .sequence(let items) = node.content else { return false }
            return items.map { $0.scalar?.text } == texts
        case .json(let json): return (try? node.jsonValue()) == json
        }
    }

    private static func isNull(_ scalar: YAMLNode.Scalar) -> Bool {
        if let tag = scalar.tag { return tag == "tag:yaml.org,2002:null" }
        return scalar.style == .plain && ["", "~", "null", "Null", "NULL"].contains(scalar.text)
    }

    // MARK: Lines

    /// Replaces an entry's value. A one-line value is replaced within its line (what follows it, a
    /// comment, stays); a longer one is replaced with its lines.
    private func rewrite(_ entry: Entry, as rendering: Rendering, step: Int, _ changes: inout LineChanges) throws(AuthoringError) {
        let (first, last) = try span(of: entry, requireOwnLine: false)
        let line = Array(content(first).unicodeScalars)
        guard let colon = Self.colon(in: line, key: entry.keyNode.column - 1) else {
            throw .invalidInput("line \(first + 1) cannot be edited: its key '\(entry.key)' was not found where expected")
        }
        let head = Self.text(line[...colon])
        let childIndent = entry.keyNode.column - 1 + childStep(of: entry, step: step)
        let start = entry.value.column - 1
        if entry.value.line == entry.keyNode.line, entry.value.lastLine == entry.value.line, let end = Self.valueEnd(in: line, from: start) {
            let tail = Self.text(line[end...])
            let replacement: [String] = switch rendering {
            case .inline(let value): [Self.text(line[..<start]) + value + tail]
            case .block(let lines): [head + tail] + indent(lines, by: childIndent)
            case .literal(let header, let lines): [head + " " + header + tail] + indent(lines, by: childIndent)
            }
            changes.replace(first, first + 1, with: replacement)
            return
        }
        // A comment after `key:` when the value starts below it.
        var comment = ""
        if entry.value.line > entry.keyNode.line {
            comment = Self.text(line[(colon + 1)...]).trimmedSpaces
            if !comment.isEmpty { comment = " " + comment }
        }
        let replacement: [String] = switch rendering {
        case .inline(let value): [head + " " + value + comment]
        case .block(let lines): [head + comment] + indent(lines, by: childIndent)
        case .literal(let header, let lines): [head + " " + header + comment] + indent(lines, by: childIndent)
        }
        changes.replace(first, last + 1, with: replacement)
    }

    /// Removes an entry's lines.
    private func remove(_ entry: Entry, _ changes: inout LineChanges) throws(AuthoringError) {
        let (first, last) = try span(of: entry)
        changes.replace(first, last + 1, with: [])
    }

    /// The 0-based first and last line of an entry; the key must start its line when the entry is
    /// removed or replaced whole.
    private func span(of entry: Entry, requireOwnLine: Bool = true) throws(AuthoringError) -> (first: Int, last: Int) {
        let first = entry.keyNode.line - 1
        let last = contentEnd(entry.value.lastLine - 1, notBefore: first)
        if requireOwnLine, !content(first).unicodeScalars.prefix(entry.keyNode.column - 1).allSatisfy({ $0 == " " }) {
            throw .invalidInput("'\(entry.key)' shares line \(first + 1) with other content; write it on its own line to edit it")
        }
        return (first, last)
    }

    /// `key: value`, or `key:` and the value's lines below it, indented.
    private func entryLines(_ key: String, _ rendering: Rendering, indent count: Int, step: Int) -> [String] {
        let key = YAMLText.key(key)
        let lines: [String] = switch rendering {
        case .inline(let value): ["\(key): \(value)"]
        case .block(let lines): ["\(key):"] + indent(lines, by: step)
        case .literal(let header, let lines): ["\(key): \(header)"] + indent(lines, by: step)
        }
        return indent(lines, by: count)
    }

    /// How far an entry's children sit right of its key: as written when they are in block
    /// style, else the file's step.
    private func childStep(of entry: Entry, step: Int) -> Int {
        guard !entry.value.isFlow, entry.value.line > entry.keyNode.line else { return step }
        let offset = entry.value.column - entry.keyNode.column
        switch entry.value.content {
        case .mapping: return offset > 0 ? offset : step
        case .sequence: return offset >= 0 ? offset : step
        case .scalar: return step
        }
    }

    /// Applies changes worked out from one parse, from the bottom up. New lines take the ending
    /// of the line they replace (CRLF files stay CRLF).
    mutating func apply(_ changes: LineChanges) {
        let fileEnding = lineEnding == "\r\n" ? "\r" : ""
        for item in changes.items.sorted(by: { ($0.start, $0.end, $0.order) > ($1.start, $1.end, $1.order) }) {
            let start = min(item.start, lines.count)
            let end = min(item.end, lines.count)
            let ending = start < end ? (lines[start].hasSuffix("\r") ? "\r" : "") : fileEnding
            lines.replaceSubrange(start..<end, with: item.lines.map { $0 + ending })
        }
    }

    /// A line without its `\r`.
    private func content(_ index: Int) -> String {
        let line = lines[index]
        return line.hasSuffix("\r") ? String(line.dropLast()) : line
    }

    private func blank(_ line: String) -> Bool {
        line.allSatisfy { $0 == " " || $0 == "\t" || $0 == "\r" }
    }

    // MARK: Renderings

    private func rendering(_ value: Member.Value, old: YAMLNode?, key: String, indent: Int) -> Rendering {
        switch value {
        case .text, .texts: .inline(Self.inline(value, inFlow: false))
        case .json(let json): jsonRendering(json, old: old, key: key, indent: indent)
        }
    }

    /// JSON on the key's line in flow style when it is short and was not written in block style.
    private func jsonRendering(_ value: JSONValue, old: YAMLNode?, key: String, indent: Int) -> Rendering {
        let flow = Self.flow(value)
        switch value {
        case .array(let items) where !items.isEmpty: break
        case .object(let object) where !object.isEmpty: break
        default: return .inline(Self.leaf(value))
        }
        let wasBlock = old.map { !$0.isFlow && $0.scalar == nil } ?? false
        if !wasBlock, indent + YAMLText.key(key).count + 2 + flow.count <= Self.lineLimit { return .inline(flow) }
        return .block(Self.block(value))
    }

    /// A mapping of members on one line when it fits, else one member per line.
    private func mappingRendering(_ members: [Member], key: String, indent: Int) -> Rendering {
        let flow = flowMapping(members)
        if indent + YAMLText.key(key).count + 2 + flow.count <= Self.lineLimit { return .inline(flow) }
        return .block(members.map { "\(YAMLText.key($0.key)): \(Self.inline($0.value, inFlow: false))" })
    }

    private func flowMapping(_ members: [Member]) -> String {
        guard !members.isEmpty else { return "{}" }
        return "{ " + members.map { "\(YAMLText.key($0.key)): \(Self.inline($0.value))" }.joined(separator: ", ") + " }"
    }

    private func flowSequence(_ names: [String]) -> String {
        "[" + names.map(YAMLText.scalar).joined(separator: ", ") + "]"
    }

    /// A member's value on one line; `inFlow` inside `{ }`, where more text needs quotes.
    private static func inline(_ value: Member.Value, inFlow: Bool = true) -> String {
        switch value {
        case .text(nil): "null"
        case .text(let text?): inFlow ? YAMLText.scalar(text) : YAMLText.blockScalar(text)
        case .texts(let texts): "[" + texts.map(YAMLText.scalar).joined(separator: ", ") + "]"
        case .json(let json): inFlow ? flow(json) : leaf(json)
        }
    }

    /// A value on its key's line in block context: text plain wherever YAML allows it there.
    private static func leaf(_ value: JSONValue) -> String {
        if case .string(let text) = value { return YAMLText.blockScalar(text) }
        return flow(value)
    }

    /// JSON in YAML flow style, plain scalars where YAML reads them back the same.
    static func flow(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): flag ? "true" : "false"
        case .number(let literal): literal
        case .string(let text): YAMLText.scalar(text)
        case .array(let items): "[" + items.map(flow).joined(separator: ", ") + "]"
        case .object(let object):
            object.isEmpty ? "{}" : "{ " + object.map { "\(YAMLText.key($0.key)): \(flow($0.value))" }.joined(separator: ", ") + " }"
        }
    }

    /// JSON in YAML block style: a mapping or sequence per line, scalars and empty collections inline.
    static func block(_ value: JSONValue, step: Int = 2) -> [String] {
        func isLeaf(_ value: JSONValue) -> Bool {
            switch value {
            case .array(let items): items.isEmpty
            case .object(let object): object.isEmpty
            default: true
            }
        }
        let pad = String(repeating: " ", count: step)
        switch value {
        case .object(let object):
            return object.flatMap { member -> [String] in
                let key = YAMLText.key(member.key)
                if isLeaf(member.value) { return ["\(key): \(leaf(member.value))"] }
                return ["\(key):"] + block(member.value, step: step).map { pad + $0 }
            }
        case .array(let items):
            return items.flatMap { item -> [String] in
                if isLeaf(item) { return ["- \(leaf(item))"] }
                let lines = block(item, step: step)
                return ["- " + lines[0]] + lines.dropFirst().map { "  " + $0 }
            }
        default:
            return [leaf(value)]
        }
    }

    /// Text on one line, double-quoted; text of several lines as a literal block when it reads
    /// back exactly that way.
    static func textRendering(_ text: String) -> Rendering {
        let quoted = Rendering.inline(YAMLText.quoted(text))
        guard text.contains("\n") else { return quoted }
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let header: String
        if lines.last == "" {
            lines.removeLast()
            // More than one final line break would take the blank lines after it as well.
            guard lines.last != "" else { return quoted }
            header = "|"
        } else {
            header = "|-"
        }
        let firstText = lines.first { !$0.isEmpty }
        guard let firstText, firstText.first != " ", firstText.first != "\t" else { return quoted }
        for line in lines {
            if !line.isEmpty, line.allSatisfy({ $0 == " " || $0 == "\t" }) { return quoted }
            for scalar in line.unicodeScalars where (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{FEFF}" {
                return quoted
            }
        }
        return .literal(header, lines)
    }

    // MARK: Members

    /// Query items as mapping members: a repeated name becomes a list, which reads back in
    /// order only when its items are written together.
    static func members(of query: [QueryItem]) throws(AuthoringError) -> [Member] {
        var names: [String] = []
        var values: [String: [String?]] = [:]
        for item in query {
            if values[item.name] == nil { names.append(item.name) }
            values[item.name, default: []].append(item.value)
        }
        let regrouped = names.flatMap { name in values[name, default: []].map { QueryItem(name: name, value: $0) } }
        guard regrouped == query else {
            throw .invalidInput("the query repeats a name with other items between: a catalog writes a repeated name once, as a list, so put its items together")
        }
        return try names.map { name throws(AuthoringError) in
            let items = values[name, default: []]
            if items.count == 1 { return Member(key: name, value: .text(items[0])) }
            let texts = items.compactMap { $0 }
            guard texts.count == items.count else {
                throw .invalidInput("query item '\(name)' is repeated and one of them has no value; a catalog cannot write that")
            }
            return Member(key: name, value: .texts(texts))
        }
    }

    static func members(of object: JSONObject) throws(AuthoringError) -> [Member] {
        let members = object.map { Member(key: $0.key, value: .json($0.value)) }
        try requireUnique(members, "JSON body member")
        return members
    }

    private static func requireUnique(_ members: [Member], _ what: String) throws(AuthoringError) {
        var seen = Set<String>()
        for member in members where !seen.insert(member.key).inserted {
            throw .invalidInput("the \(what) '\(member.key)' appears twice; a catalog holds each name once")
        }
    }

    /// Index pairs of a longest common subsequence of two key lists.
    static func commonSubsequence(_ a: [String], _ b: [String]) -> [(Int, Int)] {
        guard !a.isEmpty, !b.isEmpty else { return [] }
        var lengths = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i][j] = a[i] == b[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var pairs: [(Int, Int)] = []
        var (i, j) = (0, 0)
        while i < a.count, j < b.count {
            if a[i] == b[j] {
                pairs.append((i, j))
                i += 1
                j += 1
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return pairs
    }

    // MARK: Scanning a line

    private static func text(_ scalars: ArraySlice<Unicode.Scalar>) -> String {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars)
        return text
    }

    /// The index of the `:` after a key starting at `key`.
    static func colon(in line: [Unicode.Scalar], key: Int) -> Int? {
        guard key < line.count else { return nil }
        var index = key
        if line[key] == "\"" || line[key] == "'" {
            guard let end = quotedEnd(in: line, from: key) else { return nil }
            index = end
            while index < line.count, line[index] == " " || line[index] == "\t" { index += 1 }
            return index < line.count && line[index] == ":" ? index : nil
        }
        while index < line.count {
            if line[index] == ":", index + 1 == line.count || line[index + 1] == " " || line[index + 1] == "\t" { return index }
            index += 1
        }
        return nil
    }

    /// Where a one-line value starting at `start` ends (before spaces and a comment); nil for what
    /// this does not read (anchors, tags, block scalars).
    static func valueEnd(in line: [Unicode.Scalar], from start: Int) -> Int? {
        guard start < line.count else { return nil }
        switch line[start] {
        case "\"", "'": return quotedEnd(in: line, from: start)
        case "{", "[": return flowEnd(in: line, from: start)
        case "&", "!", "|", ">": return nil
        default:
            var end = start
            while end < line.count {
                if line[end] == "#", end > start, line[end - 1] == " " || line[end - 1] == "\t" { break }
                end += 1
            }
            while end > start, line[end - 1] == " " || line[end - 1] == "\t" { end -= 1 }
            return end
        }
    }

    /// The index after a quoted scalar's closing quote.
    private static func quotedEnd(in line: [Unicode.Scalar], from start: Int) -> Int? {
        let quote = line[start]
        var index = start + 1
        while index < line.count {
            let scalar = line[index]
            if quote == "\"", scalar == "\\" {
                index += 2
                continue
            }
            if scalar == quote {
                if quote == "'", index + 1 < line.count, line[index + 1] == "'" {
                    index += 2
                    continue
                }
                return index + 1
            }
            index += 1
        }
        return nil
    }

    /// The index after the bracket closing a flow collection; quotes count only where a scalar starts.
    private static func flowEnd(in line: [Unicode.Scalar], from start: Int) -> Int? {
        var depth = 0
        var index = start
        var previous: Unicode.Scalar = " "
        while index < line.count {
            let scalar = line[index]
            switch scalar {
            case "{", "[": depth += 1
            case "}", "]":
                depth -= 1
                if depth == 0 { return index + 1 }
            case "\"", "'":
                // A quote starts a scalar only where a scalar can start (`realm="x"` is plain).
                if ["{", "[", ",", ":"].contains(previous) {
                    guard let end = quotedEnd(in: line, from: index) else { return nil }
                    index = end
                    previous = scalar
                    continue
                }
            default: break
            }
            if scalar != " ", scalar != "\t" { previous = scalar }
            index += 1
        }
        return nil
    }
}
