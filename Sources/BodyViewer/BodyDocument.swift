import FoundationEssentials

/// What kind of view a body gets.
package enum BodyKind: Sendable, Hashable {
    /// Pretty-printed, foldable JSON (one value, or a sequence of values for NDJSON and jq output).
    case json
    /// Lines as they are.
    case text(BodyTextFormat)
    /// A hex dump.
    case binary
}

/// The flavour of a text body. XML and HTML are shown exactly as sent (not re-indented): re-indenting
/// markup needs a forgiving parser and would hide what the server really returned.
package enum BodyTextFormat: Sendable, Hashable {
    /// Any other text.
    case plain
    /// XML (`<?xml`, `application/xml`, `+xml` types).
    case xml
    /// HTML (`<!DOCTYPE html`, `<html`, `text/html`).
    case html
}

/// Something the viewer wants the person to know about the body.
package struct BodyNotice: Sendable, Hashable, CustomStringConvertible {
    /// What the notice is about.
    package enum Kind: Sendable, Hashable {
        /// The body was labelled JSON but is not valid JSON; it is shown as text.
        case invalidJSON
        /// Some bytes are not valid UTF-8; they are shown as U+FFFD.
        case invalidUTF8
        /// The Content-Type header disagrees with the bytes; the bytes won.
        case contentTypeMismatch
        /// The body has no bytes.
        case emptyBody
        /// The body is too large for a text view (4 GiB or more); it is shown as a hex dump.
        case tooLarge
    }

    /// What the notice is about.
    package var kind: Kind
    /// A sentence for the person.
    package var message: String
    /// 1-based line of the place it concerns, if any.
    package var line: Int?
    /// 1-based column (in bytes) of the place it concerns, if any.
    package var column: Int?

    /// Makes a notice.
    package init(kind: Kind, message: String, line: Int? = nil, column: Int? = nil) {
        self.kind = kind
        self.message = message
        self.line = line
        self.column = column
    }

    /// The message.
    package var description: String { message }
}

/// A response body laid out for viewing: immutable and shareable across threads. It keeps the original
/// bytes and a compact line index (never the formatted text), so a 100 MB body costs little more than
/// itself, and only what is on screen is ever formatted.
///
/// Build one with `BodyDocument.build(data:contentType:)` (async, off the caller's thread, with progress,
/// a preview and cancellation) or, for small bodies, `BodyDocument(data:contentType:)`.
package final class BodyDocument: Sendable {
    enum Storage: Sendable {
        case json(JSONLineIndex)
        case text(TextLineIndex)
        case binary
    }

    /// The body exactly as received.
    package let data: Data
    /// The Content-Type header it came with.
    package let contentType: String?
    /// How it is shown.
    package let kind: BodyKind
    /// Things worth telling the person (invalid JSON, invalid UTF-8, a lying header …).
    package let notices: [BodyNotice]
    /// False for a preview published while the rest is still being indexed: it holds the first lines only.
    package let isComplete: Bool
    /// How many top-level values a JSON view holds (more than 1 for NDJSON); 0 for other kinds.
    package let rootCount: Int
    let storage: Storage
    /// Per-query match lists filled by counting, so next/previous become binary searches.
    let searchCache = SearchCache()

    init(data: Data, contentType: String?, kind: BodyKind, notices: [BodyNotice], isComplete: Bool, rootCount: Int,
        storage: Storage)
    {
        self.data = data
        self.contentType = contentType
        self.kind = kind
        self.notices = notices
        self.isComplete = isComplete
        self.rootCount = rootCount
        self.storage = storage
    }

    /// Lays out a body on the calling thread, without progress or a preview. Prefer `build` for anything large.
    package convenience init(data: Data, contentType: String? = nil) {
        let builder = BodyDocumentBuilder(data: data, contentType: contentType, options: BodyBuildOptions())
        // Only cancellation stops a build, and this one cannot be cancelled.
        self.init(builder.run(shouldCancel: { false }, progress: { _ in }) ?? builder.binaryFallback())
    }

    convenience init(_ parts: BodyDocumentParts) {
        self.init(data: parts.data, contentType: parts.contentType, kind: parts.kind, notices: parts.notices,
            isComplete: parts.isComplete, rootCount: parts.rootCount, storage: parts.storage)
    }

    /// Number of lines in the unfolded view (hex rows for binary bodies).
    package var lineCount: Int {
        switch storage {
        case .json(let index): index.lineCount
        case .text(let index): index.lineCount
        case .binary: max(1, (data.count + 15) / 16)
        }
    }

    /// Size of the body in bytes.
    package var byteCount: Int { data.count }

    /// Approximate bytes of memory the layout uses on top of the body.
    package var indexByteCount: Int {
        switch storage {
        case .json(let index): index.byteCount
        case .text(let index): index.starts.capacity * 4
        case .binary: 0
        }
    }

    /// Whether the view has foldable containers (JSON).
    package var isFoldable: Bool {
        if case .json = storage { return true }
        return false
    }

    /// Runs `body` with the raw bytes.
    @inline(__always) func withBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try data.withUnsafeBytes(body)
    }
}
