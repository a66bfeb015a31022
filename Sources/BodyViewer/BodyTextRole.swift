/// What a piece of rendered body text is, so the terminal pane can pick its style.
package enum BodyTextRole: Sendable, Hashable, CaseIterable {
    /// Ordinary text (text bodies, indentation).
    case plain
    /// An object key, with its quotes.
    case key
    /// A string value, with its quotes.
    case string
    /// A number literal.
    case number
    /// `true` or `false`.
    case bool
    /// `null`.
    case null
    /// Brackets, braces, `:` and `,`.
    case punctuation
    /// The line-number gutter.
    case lineNumber
    /// What a folded container hides (`1,234 items`), and the `…` in its place.
    case foldSummary
    /// A search match.
    case match
    /// The search match the cursor is on.
    case currentMatch
    /// The offset column of a hex dump.
    case hexOffset
    /// A byte of a hex dump, as two hex digits.
    case hexByte
    /// The printable-ASCII column of a hex dump.
    case hexASCII
    /// A message from the viewer about the body (invalid JSON, invalid UTF-8 …).
    case notice
}

/// A stretch of rendered text with one role.
package struct BodyTextRun: Sendable, Hashable, CustomStringConvertible {
    /// The characters, already laid out (tabs expanded, control bytes made visible).
    package var text: String
    /// What the text is.
    package var role: BodyTextRole

    /// Makes a run.
    package init(_ text: String, _ role: BodyTextRole) {
        self.text = text
        self.role = role
    }

    /// `role(text)`, for test failures.
    package var description: String { "\(role)(\(text))" }
}

/// One screen row of the body view.
package struct BodyRenderedLine: Sendable, Hashable {
    /// 0-based index of the document line this row shows.
    package var line: Int
    /// 1-based line number shown in the gutter; nil on the continuation rows of a wrapped line.
    package var lineNumber: Int?
    /// Which wrapped row of the line this is (0 for the first, always 0 when not wrapping).
    package var row: Int
    /// The row's text, gutter first when line numbers are shown; never wider than the viewport.
    package var runs: [BodyTextRun]
    /// Whether the cursor is on this row's line.
    package var isCursorLine: Bool
    /// Whether the line is a folded container shown as one line.
    package var isFolded: Bool

    /// The row as plain text, without roles.
    package var text: String { runs.map(\.text).joined() }
}
