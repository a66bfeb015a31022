/// A part of one displayed line. Lines are described by pieces that point into the body, so a 50 MB
/// line costs nothing until a slice of it is drawn.
enum BodyPiece: Sendable {
    /// Blank columns (indentation, gaps).
    case spaces(Int)
    /// Fixed text with no source bytes (punctuation the layout adds, fold summaries).
    case literal(String, BodyTextRole)
    /// UTF-8 body bytes shown as text: tabs expanded, control bytes as control pictures, ill-formed UTF-8 as U+FFFD.
    case text(Range<Int>, BodyTextRole)
    /// One body byte as two hex digits.
    case hexByte(Int)
    /// A blank between hex bytes `offset` and `offset + 1`, highlighted when a match spans both.
    case hexGap(Int)
    /// Body bytes as printable ASCII, `.` for anything else.
    case ascii(Range<Int>)
}

/// One displayed line: its pieces and the span of body bytes it stands for (where its matches are looked for).
struct BodyLineLayout {
    var pieces: [BodyPiece]
    var rawRange: Range<Int>
}

/// A character to draw: one scalar, or a run of blanks.
struct BodyGlyph {
    var scalar: Unicode.Scalar
    /// Columns taken; for a blank run, how many blanks.
    var width: Int
    var isBlankRun: Bool
    var role: BodyTextRole
    /// The body byte it comes from, or -1.
    var source: Int
    /// A gap between bytes `source` and `source + 1`: highlighted only when one match covers both.
    var joinsNext = false
}
