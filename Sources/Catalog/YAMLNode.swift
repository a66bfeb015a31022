/// A YAML node with its position: what the catalog decoder reads. A class, so aliases share one
/// node and passing nodes around costs a single reference count.
final class YAMLNode {
    /// How a scalar was written.
    enum Style {
        /// Unquoted: resolved by the core schema (`7` is a number, `true` a boolean).
        case plain
        /// Quoted or a block scalar: always text.
        case quoted
    }

    /// A scalar's text, style and explicit tag (`tag:yaml.org,2002:str` for `!!str`).
    struct Scalar {
        let text: String
        let style: Style
        let tag: String?
    }

    /// What the node holds.
    enum Content {
        case scalar(Scalar)
        case mapping([(key: YAMLNode, value: YAMLNode)])
        case sequence([YAMLNode])
    }

    let content: Content
    /// 1-based line.
    let line: Int
    /// 1-based column, counted in characters.
    let column: Int

    init(_ content: Content, line: Int, column: Int) {
        self.content = content
        self.line = line
        self.column = column
    }

    /// The scalar, when this is one.
    var scalar: Scalar? {
        if case .scalar(let scalar) = content { return scalar }
        return nil
    }
}
