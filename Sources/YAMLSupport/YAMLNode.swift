/// A YAML node with where it is in the text: what the catalog decoder reads and the catalog
/// editor changes. A handle into its document's storage: a file's nodes are records in a few
/// arrays, made and freed at once, rather than an object and an array per node (most of a large
/// catalog's load was allocating and freeing those). An alias is a node of its own (at the
/// alias) sharing the anchored node's content.
package struct YAMLNode: Sendable {
    /// How a scalar was written.
    package enum Style: Sendable {
        /// Unquoted: resolved by the core schema (`7` is a number, `true` a boolean).
        case plain
        /// Quoted or a block scalar: always text.
        case quoted
    }

    /// A scalar's text, style and explicit tag (`tag:yaml.org,2002:str` for `!!str`).
    package struct Scalar: Sendable {
        /// The text, after YAML's quoting and folding.
        package let text: String
        /// How it was written.
        package let style: Style
        /// An explicit tag, if any.
        package let tag: String?
    }

    /// A key and its value in a mapping.
    package struct Pair: Sendable {
        /// The key (a scalar in catalogs).
        package let key: YAMLNode
        /// The value.
        package let value: YAMLNode
    }

    /// A mapping's pairs, in document order.
    package struct Pairs: RandomAccessCollection, Sendable {
        let document: YAMLDocumentStorage
        /// Where the mapping's keys and values start in `document.children` (key, value, key …).
        let start: Int
        package let count: Int

        package var startIndex: Int { 0 }
        package var endIndex: Int { count }
        package subscript(position: Int) -> Pair {
            precondition(position >= 0 && position < count, "YAMLNode.Pairs index out of range")
            let child = start + 2 * position
            return Pair(key: YAMLNode(document, document.children[child]), value: YAMLNode(document, document.children[child + 1]))
        }

        /// The text of the key at `position` when it is a scalar, read without making its node.
        package func keyText(at position: Int) -> String? {
            keyScalarIndex(at: position).map { document.scalars[$0].text }
        }

        /// Whether every key is a scalar and none is a plain `<<` (a merge key).
        package var keysAreTextWithoutMerge: Bool {
            indices.allSatisfy { position in
                // Read in place: copying each key's scalar out retained its text and tag.
                guard let scalar = keyScalarIndex(at: position) else { return false }
                return document.scalars[scalar].style != .plain || document.scalars[scalar].text != "<<"
            }
        }

        /// Where the key at `position` is in `document.scalars`, when it is a scalar.
        private func keyScalarIndex(at position: Int) -> Int? {
            precondition(position >= 0 && position < count, "YAMLNode.Pairs index out of range")
            let record = document.records[Int(document.children[start + 2 * position])]
            return record.kind == .scalar ? Int(record.first) : nil
        }
    }

    /// A sequence's items, in document order.
    package struct Items: RandomAccessCollection, Sendable {
        let document: YAMLDocumentStorage
        /// Where the items start in `document.children`.
        let start: Int
        package let count: Int

        package var startIndex: Int { 0 }
        package var endIndex: Int { count }
        package subscript(position: Int) -> YAMLNode {
            precondition(position >= 0 && position < count, "YAMLNode.Items index out of range")
            return YAMLNode(document, document.children[start + position])
        }
    }

    /// What the node holds.
    package enum Content: Sendable {
        case scalar(Scalar)
        case mapping(Pairs)
        case sequence(Items)
    }

    let document: YAMLDocumentStorage
    let index: Int32

    init(_ document: YAMLDocumentStorage, _ index: Int32) {
        self.document = document
        self.index = index
    }

    private var record: YAMLDocumentStorage.Record { document.records[Int(index)] }

    /// What the node holds.
    package var content: Content {
        let record = record
        switch record.kind {
        case .scalar: return .scalar(document.scalars[Int(record.first)])
        case .mapping: return .mapping(pairs(of: record))
        case .sequence: return .sequence(Items(document: document, start: Int(record.first), count: Int(record.count)))
        }
    }

    /// 1-based line where the node starts.
    package var line: Int { Int(record.line) }
    /// 1-based column where the node starts, counted in characters.
    package var column: Int { Int(record.column) }
    /// 1-based line of the node's last character.
    package var lastLine: Int { Int(record.lastLine) }
    /// Whether the node is a flow collection (`{ … }` or `[ … ]`).
    package var isFlow: Bool { record.isFlow }

    /// The scalar, when this is one.
    package var scalar: Scalar? {
        let record = record
        return record.kind == .scalar ? document.scalars[Int(record.first)] : nil
    }

    /// Whether this is a mapping.
    package var isMapping: Bool { record.kind == .mapping }

    /// The mapping's pairs when this is one. The decoder's hot paths read these and
    /// `scalarText` rather than `content`, which copies a whole scalar (text and tag) each time.
    package var mappingPairs: Pairs? {
        let record = record
        return record.kind == .mapping ? pairs(of: record) : nil
    }

    /// A mapping record's pairs (its children count keys and values both).
    private func pairs(of record: YAMLDocumentStorage.Record) -> Pairs {
        Pairs(document: document, start: Int(record.first), count: Int(record.count) / 2)
    }

    /// A scalar's text and whether it was written plain, when this is a scalar.
    package var scalarText: (text: String, isPlain: Bool)? {
        let record = record
        guard record.kind == .scalar else { return nil }
        let scalar = document.scalars[Int(record.first)]
        return (scalar.text, scalar.style == .plain)
    }

    /// The mapping's pairs whose keys are scalars, with the keys' text (empty for anything else).
    package var entries: [(key: String, keyNode: YAMLNode, value: YAMLNode)] {
        guard case .mapping(let pairs) = content else { return [] }
        return pairs.compactMap { pair in pair.key.scalar.map { ($0.text, pair.key, pair.value) } }
    }

    /// The entry for `key` when this is a mapping.
    package func entry(_ key: String) -> (key: String, keyNode: YAMLNode, value: YAMLNode)? {
        guard case .mapping(let pairs) = content, let pair = pairs.first(where: { $0.key.scalar?.text == key }) else { return nil }
        return (key, pair.key, pair.value)
    }

    /// The value for `key` when this is a mapping.
    package func value(_ key: String) -> YAMLNode? { entry(key)?.value }
}

/// The nodes of one composed document: a record per node, the children of every collection
/// (each collection's contiguous), and the scalars' text. Written once by the composer.
final class YAMLDocumentStorage: Sendable {
    enum Kind: UInt8 {
        case scalar, mapping, sequence
    }

    /// One node: 24 bytes.
    struct Record {
        var kind: Kind
        var isFlow: Bool
        var line: Int32
        var column: Int32
        var lastLine: Int32
        /// A scalar's index in `scalars`, or where a collection's children start in `children`.
        var first: Int32
        /// A collection's children (a mapping's keys and values both count).
        var count: Int32
    }

    let records: [Record]
    let children: [Int32]
    let scalars: [YAMLNode.Scalar]

    init(records: [Record], children: [Int32], scalars: [YAMLNode.Scalar]) {
        self.records = records
        self.children = children
        self.scalars = scalars
    }
}
