import DispatcherCore
import FoundationEssentials
import YAMLSupport

/// Reads one catalog file's YAML node tree into a `Service`, collecting diagnostics with the line
/// and column of every problem. Never traps on any input: every unexpected shape is a diagnostic.
final class CatalogFileDecoder {
    /// One `key: value` pair of a mapping, with the key's node for diagnostics.
    struct Entry {
        let key: String
        let keyNode: YAMLNode
        let value: YAMLNode
    }

    /// The file as shown to the user.
    let file: String
    /// The file's name in its folder (`petstore.yaml`).
    let fileName: String
    /// Reads fixture and certificate files beside the catalog.
    let fileSystem: any CatalogFileSystem
    /// Everything found so far.
    private(set) var diagnostics: [Diagnostic] = []
    /// Errors inside parts that were left out on their own (an endpoint, an environment): they
    /// do not stop the rest of the service from loading.
    var isolatedErrorCount = 0
    /// Nodes that may still be visited: aliases can make a small file describe a huge tree.
    private var budget: Int
    /// Whether the node budget ran out (its error reported): later diagnostics are dropped.
    private var reachedValueCap = false
    /// Whether the catalog lets its files (`bodyFile`, certificates) be outside its folder
    /// (`allowOutsidePaths: true`).
    var allowsOutsidePaths = false
    /// Whether a name marks a credential, by name (a catalog repeats a few names many times).
    private var credentialNames: [String: Bool] = [:]

    func isCredentialName(_ name: String) -> Bool {
        if let known = credentialNames[name] { return known }
        let sensitive = Redactor.standard.isSensitiveQuery(name)
        credentialNames[name] = sensitive
        return sensitive
    }

    /// Request files named with placeholders, checked once the service's values are known.
    var templatedFilePaths: [(path: String, node: YAMLNode)] = []
    /// Whether the person trusts the file: `allowOutsidePaths` is honoured only then.
    var isTrusted = true
    /// Whether a file outside the folder may be read: declared and trusted.
    var readsOutsidePaths: Bool { allowsOutsidePaths && isTrusted }
    /// The largest body file read: the largest `maxBodySize` of the service's environments.
    var bodyFileLimit = Environment.defaultMaximumBodySize
    /// Whether fixtures' body files are read now or left for when they are needed.
    var fixtureReading = FixtureReading.atLoad

    /// Most nodes visited per file before giving up (a generated 10,000-endpoint catalog visits far fewer).
    static let nodeBudget = 1_000_000

    init(file: String, fileName: String, fileSystem: any CatalogFileSystem, budget: Int = CatalogFileDecoder.nodeBudget) {
        self.file = file
        self.fileName = fileName
        self.fileSystem = fileSystem
        self.budget = budget
    }

    // MARK: Diagnostics

    /// Warns about each credential written out in a request's `headers`, `query`, `form` or JSON
    /// `body` (walked to any depth; see `LiteralCredential`): catalogs are shared and committed.
    func warnAboutLiteralCredentials(in node: YAMLNode, _ what: @autoclosure () -> String, name: String = "") {
        switch node.content {
        case .scalar(let scalar):
            guard LiteralCredential.isCredential(name: name, value: scalar.text, nameIsSensitive: isCredentialName) else { return }
            let label = name.isEmpty ? "a value" : "'\(name)'"
            warning(
                "\(label) in \(what()) is a credential written into the catalog, which is shared: write {{secret.NAME}} instead and set "
                    + "NAME in .env beside the catalog (or $APIEXPLORER_SECRET_NAME)", at: node)
        case .sequence(let items):
            for item in items { warnAboutLiteralCredentials(in: item, what(), name: name) }
        case .mapping(let pairs):
            for pair in pairs { warnAboutLiteralCredentials(in: pair.value, what(), name: pair.key.scalar?.text ?? "") }
        }
    }

    /// How many errors were recorded so far: compare before and after decoding a part to know
    /// whether that part is sound.
    var errorCount: Int { diagnostics.errorCount }

    func error(_ message: String, at node: YAMLNode?) {
        report(.error, message, line: node?.line, column: node?.column)
    }

    func warning(_ message: String, at node: YAMLNode?) {
        report(.warning, message, line: node?.line, column: node?.column)
    }

    func report(_ severity: Diagnostic.Severity, _ message: String, line: Int?, column: Int?) {
        // Past the value cap the rest of the file was not read: what it would say is not true.
        guard !reachedValueCap else { return }
        diagnostics.append(Diagnostic(file: file, line: line ?? 1, column: column ?? 1, severity: severity, message: message))
    }

    /// Decodes one part that is left out alone when it has errors (an endpoint, an environment).
    func isolated<T>(_ decode: () -> T?) -> T? {
        let before = errorCount
        let value = decode()
        guard errorCount == before else {
            isolatedErrorCount += errorCount - before
            return nil
        }
        return value
    }

    /// Spends one unit of the node budget; false (after one error) when it is exhausted. Past it,
    /// no other diagnostic of the file is reported (they would be about values never read).
    func spend(_ node: YAMLNode) -> Bool {
        budget -= 1
        if budget == 0 {
            error(
                "the file holds more than \(CatalogFileDecoder.nodeBudget) values (a very large file, or aliases repeating parts of it): "
                    + "reading stopped here, and nothing after this point is checked", at: node)
            reachedValueCap = true
        }
        return budget > 0
    }

    // MARK: Mappings

    /// A mapping's entries, in order: a view of its pairs when every key is text and none is a
    /// `<<` merge key (nearly always), else the entries built. Not an array each time: a large
    /// catalog has a dozen mappings per endpoint, and building and freeing an array of entries
    /// for each was a tenth of decoding.
    struct Entries: RandomAccessCollection {
        /// The mapping's pairs, all with text keys; nil when the entries were built.
        private let pairs: YAMLNode.Pairs?
        private let built: [Entry]

        init(pairs: YAMLNode.Pairs) {
            self.pairs = pairs
            built = []
        }

        init(_ built: [Entry]) {
            pairs = nil
            self.built = built
        }

        var startIndex: Int { 0 }
        var endIndex: Int { pairs?.count ?? built.count }

        subscript(position: Int) -> Entry {
            guard let pairs else { return built[position] }
            let pair = pairs[position]
            return Entry(key: pair.key.scalarText?.text ?? "", keyNode: pair.key, value: pair.value)
        }

        /// The key at `position`, without making its entry.
        func key(at position: Int) -> String {
            guard let pairs else { return built[position].key }
            return pairs.keyText(at: position) ?? ""
        }
    }

    /// The pairs of a mapping, in order, with `<<` merge keys applied; nil (after an error) for
    /// anything else. Keys must be scalars.
    func entries(_ node: YAMLNode, _ what: @autoclosure () -> String) -> Entries? {
        guard let mapping = node.mappingPairs else {
            error("\(what()) must be a mapping of names to values, not \(describe(node))", at: node)
            return nil
        }
        // The usual mapping: text keys, no merge key, and the budget lasts past its keys.
        if budget > mapping.count, mapping.keysAreTextWithoutMerge {
            budget -= mapping.count
            return Entries(pairs: mapping)
        }
        var result: [Entry] = []
        result.reserveCapacity(mapping.count)
        var merged: [Entry] = []
        for pair in mapping {
            let key = pair.key
            guard spend(key) else { return Entries(result) }
            guard let name = key.scalarText else {
                error("the names in \(what()) must be plain text, not \(describe(key))", at: key)
                continue
            }
            if name.text == "<<", name.isPlain {
                merged += mergeEntries(pair.value, what())
                continue
            }
            result.append(Entry(key: name.text, keyNode: key, value: pair.value))
        }
        // Explicit keys win over merged ones.
        for entry in merged where !result.contains(where: { $0.key == entry.key }) {
            result.append(entry)
        }
        return Entries(result)
    }

    private func mergeEntries(_ value: YAMLNode, _ what: @autoclosure () -> String) -> [Entry] {
        switch value.content {
        case .mapping:
            return entries(value, what()).map(Array.init) ?? []
        case .sequence(let sequence):
            var merged: [Entry] = []
            for element in sequence {
                for entry in entries(element, what()) ?? Entries([]) where !merged.contains(where: { $0.key == entry.key }) {
                    merged.append(entry)
                }
            }
            return merged
        default:
            error("'<<' merges a mapping (or a list of mappings) into \(what()), not \(describe(value))", at: value)
            return []
        }
    }

    /// The pairs of a mapping whose keys must be among `allowed`: unknown keys are errors with a
    /// did-you-mean, and are left out.
    func entries(_ node: YAMLNode, _ what: @autoclosure () -> String, allowed: [String], moved: [String: String] = [:]) -> Entries? {
        guard let all = entries(node, what()) else { return nil }
        // Nearly always every key is known: the pairs are returned as they are, not copied.
        guard all.indices.contains(where: { !allowed.contains(all.key(at: $0)) }) else { return all }
        var known: [Entry] = []
        known.reserveCapacity(all.count)
        for entry in all {
            if allowed.contains(entry.key) {
                known.append(entry)
            } else if let place = moved[entry.key] {
                error("'\(entry.key)' is not a key of \(what()); it belongs under \(place)", at: entry.keyNode)
            } else {
                let hint = DidYouMean.hint(for: entry.key, among: allowed)
                let list = hint.isEmpty ? " (known keys: \(allowed.joined(separator: ", ")))" : hint
                error("unknown key '\(entry.key)' in \(what())\(list)", at: entry.keyNode)
            }
        }
        return Entries(known)
    }

    /// Reports keys that must be present but are not.
    func require(_ keys: [String], in entries: Entries, of node: YAMLNode, _ what: @autoclosure () -> String) {
        for key in keys where !entries.indices.contains(where: { entries.key(at: $0) == key }) {
            error("\(what()) needs '\(key)'", at: node)
        }
    }

    // MARK: Describing nodes

    /// `a mapping`, `a list`, `the number 7`, `the text "abc"`, `null` … for messages.
    func describe(_ node: YAMLNode) -> String {
        switch node.content {
        case .mapping(let mapping):
            if looksLikeUnquotedPlaceholder(mapping) { return "a mapping (a value starting with {{ must be quoted)" }
            return "a mapping"
        case .sequence: return "a list"
        case .scalar(let scalar):
            switch YAMLScalar(scalar) {
            case .null: return "null"
            case .bool(let value): return "\(value)"
            case .int, .double: return "the number \(scalar.text)"
            case .string(let text):
                let shown = text.count > 40 ? String(text.prefix(40)) + "…" : text
                return "the text \"\(shown)\""
            }
        }
    }

    /// `{{name}}` unquoted is YAML for a mapping inside a mapping: catch the common mistake.
    func looksLikeUnquotedPlaceholder(_ mapping: YAMLNode.Pairs) -> Bool {
        guard mapping.count == 1, let key = mapping.first?.key, let value = mapping.first?.value,
            value.scalar.map({ YAMLScalar($0) == .null }) ?? false,
            case .mapping(let inner) = key.content, inner.count == 1
        else { return false }
        return true
    }
}
