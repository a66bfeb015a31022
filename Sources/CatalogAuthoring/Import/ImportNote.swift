/// Something the person importing should know: a part of the document that was repaired or left
/// out (with where it is in the source document: `capture.har /log/entries/12`, `api.http:34`),
/// or a plain remark (secrets to set, scripts not run).
package struct ImportNote: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringInterpolation {
    /// What happened to the part the note is about.
    package enum Kind: String, Sendable, Hashable {
        /// A remark: nothing of the document was lost.
        case info
        /// The part came in, changed so that a catalog can say it (the note says how).
        case repaired
        /// The part did not come in (the note says why).
        case skipped
    }

    /// What happened.
    package var kind: Kind
    /// Where the part is in the source document: `FILE POINTER` or `FILE:LINE`; nil for remarks about the whole.
    package var source: String?
    /// What happened and why, in words.
    package var message: String

    /// Makes a note.
    package init(_ kind: Kind, at source: String? = nil, _ message: String) {
        self.kind = kind
        self.source = source
        self.message = message
    }

    /// A remark written as a string.
    package init(stringLiteral value: String) {
        self.init(.info, value)
    }

    /// `SOURCE: MESSAGE` (the source first, as a compiler writes a place).
    package var description: String {
        source.map { "\($0): \(message)" } ?? message
    }
}

/// Where a part of an imported document is: a JSON pointer (RFC 6901) in a JSON or YAML document,
/// or a line of a text file.
enum DocumentPlace {
    /// `capture.har /log/entries/12/request`.
    static func pointer(_ document: String, _ tokens: [String]) -> String {
        // Every entry of a 5,000-request capture gets one: the escaping is done only where needed.
        "\(document) /" + tokens.map { token in
            token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") })
                ? token.replacing("~", with: "~0").replacing("/", with: "~1") : token
        }.joined(separator: "/")
    }

    /// `api.http:34`.
    static func line(_ document: String, _ line: Int) -> String {
        "\(document):\(line)"
    }
}
