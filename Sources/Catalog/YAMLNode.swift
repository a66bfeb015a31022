/// A YAML node with where it is in the text: what the catalog decoder reads and the catalog
/// editor changes. A class, so passing nodes around costs a single reference count; an alias is
/// a node of its own (at the alias) sharing the anchored node's content.
public final class YAMLNode: Sendable {
    /// How a scalar was written.
    public enum Style: Sendable {
        /// Unquoted: resolved by the core schema (`7` is a number, `true` a boolean).
        case plain
        /// Quoted or a block scalar: always text.
        case quoted
    }

    /// A scalar's text, style and explicit tag (`tag:yaml.org,2002:str` for `!!str`).
    public struct Scalar: Sendable {
        /// The text, after YAML's quoting and folding.
        public let text: String
        /// How it was written.
        public let style: Style
        /// An explicit tag, if any.
        public let tag: String?
    }

    /// A key and its value in a mapping. A struct rather than a tuple: arrays of tuples are
    /// destroyed through generic metadata, which made freeing a large catalog's tree slow.
    public struct Pair: Sendable {
        /// The key (a scalar in catalogs).
        public let key: YAMLNode
        /// The value.
        public let value: YAMLNode
    }

    /// What the node holds.
    public enum Content: Sendable {
        case scalar(Scalar)
        case mapping([Pair])
        case sequence([YAMLNode])
    }

    /// What the node holds.
    public let content: Content
    /// 1-based line where the node starts.
    public let line: Int
    /// 1-based column where the node starts, counted in characters.
    public let column: Int
    /// 1-based line of the node's last character.
    public let lastLine: Int
    /// Whether the node is a flow collection (`{ … }` or `[ … ]`).
    public let isFlow: Bool

    init(_ content: Content, line: Int, column: Int, lastLine: Int? = nil, isFlow: Bool = false) {
        self.content = content
        self.line = line
        self.column = column
        self.lastLine = lastLine ?? line
        self.isFlow = isFlow
    }

    /// The scalar, when this is one.
    public var scalar: Scalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }

    /// Whether this is a mapping.
    public var isMapping: Bool {
        if case .mapping = content { return true }
        return false
    }

    /// The mapping's pairs whose keys are scalars, with the keys' text (empty for anything else).
    public var entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)] {
        guard case .mapping(let pairs) = content else { return [] }
        return pairs.compactMap { pair in pair.key.scalar.map { ($0.text, pair.key, pair.value) } }
    }

    /// The entry for `key` when this is a mapping.
    public func entry(_ key: String) -> (key: String, keyNode: YAMLNode, value: YAMLNode)? {
        guard case .mapping(let pairs) = content, let pair = pairs.first(where: { $0.key.scalar?.text == key }) else { return nil }
        return (key, pair.key, pair.value)
    }

    /// The value for `key` when this is a mapping.
    public func value(_ key: String) -> YAMLNode? { entry(key)?.value }
}
