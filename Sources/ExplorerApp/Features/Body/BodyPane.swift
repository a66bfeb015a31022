import BodyViewer
import FoundationEssentials
import TerminalKit

/// A body document as a value effects and actions can carry: equal only to the very same document.
package struct BodyHandle: Sendable, Hashable {
    /// The document.
    package let document: BodyDocument

    /// Wraps a document.
    package init(_ document: BodyDocument) { self.document = document }

    package static func == (lhs: BodyHandle, rhs: BodyHandle) -> Bool { lhs.document === rhs.document }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(document)) }
}

/// A document and where the person is in it.
package struct BodyLayer: Sendable {
    /// What is shown.
    package var document: BodyDocument
    /// Cursor, scroll, folds, wrap, line numbers and search.
    package var view: BodyViewState

    /// A layer at the top of `document`; text wraps by default, JSON and hex dumps scroll sideways, and
    /// hex dumps go without line numbers (their offsets say where a row is).
    package init(document: BodyDocument) {
        self.document = document
        var isText = false
        var isBinary = false
        switch document.kind {
        case .text: isText = true
        case .binary: isBinary = true
        case .json: break
        }
        view = BodyViewState(viewportHeight: 1, viewportWidth: 1, isWrapping: isText, showsLineNumbers: !isBinary)
    }

    /// Sizes the view to the rows and columns it gets on screen.
    mutating func fit(_ size: Size) {
        guard view.viewportHeight != size.height || view.viewportWidth != size.width else { return }
        view.resize(height: max(1, size.height), width: max(1, size.width), in: document)
    }
}

/// What selects part of the body: a JSONPath query or a jq filter.
package enum BodySelectionKind: Sendable, Hashable {
    /// A JSONPath expression (`$.items[*].id`).
    case query(String)
    /// A jq filter (`.items | length`).
    case jq(String)

    /// `query $.x` / `jq .x`, for the info line.
    package var label: String {
        switch self {
        case .query(let expression): "query \(expression)"
        case .jq(let filter): "jq \(filter)"
        }
    }
}

/// A query or jq result shown instead of the whole body.
package struct BodySelection: Sendable {
    /// What produced it.
    package var kind: BodySelectionKind
    /// How many values the query selected (nil for jq).
    package var count: Int?
    /// The result and the view of it.
    package var layer: BodyLayer
}

/// A one-line input at the bottom of the body.
package struct BodyPrompt: Sendable, Hashable {
    /// What the input is for.
    package enum Kind: Sendable, Hashable {
        /// Incremental search (`/`).
        case search
        /// A JSONPath query (`:`).
        case query
        /// A jq filter (`|`).
        case jq
        /// Where to save the body (`S`).
        case save
        /// The file exists: overwrite it? (y/n)
        case confirmOverwrite(path: String)
    }

    /// What the input is for.
    package var kind: Kind
    /// The text typed.
    package var input: InputState

    /// The prompt drawn before the text.
    package var label: String {
        switch kind {
        case .search: "/"
        case .query: "JSONPath: "
        case .jq: "jq filter: "
        case .save: "Save to: "
        case .confirmOverwrite(let path):
            // The file name only: a long path would push the question off the line.
            "\(path.split(separator: "/").last.map(String.init) ?? path) exists. Overwrite it? (y/n) "
        }
    }
}

/// How far the formatting of a body has come.
package struct BodyBuildStatus: Sendable, Hashable {
    /// Bytes indexed.
    package var bytesProcessed: Int
    /// Size of the body.
    package var totalBytes: Int

    /// Makes a status.
    package init(bytesProcessed: Int, totalBytes: Int) {
        self.bytesProcessed = bytesProcessed
        self.totalBytes = totalBytes
    }

    /// Share done, 0...1.
    package var fraction: Double { totalBytes == 0 ? 1 : Double(bytesProcessed) / Double(totalBytes) }
}

/// The Body tab of one response: the document (built off the UI thread), the view of it, and what the
/// person is doing with it (searching, querying, saving).
package struct BodyPane: Sendable {
    /// Identifies the build; progress and results of another build are stale and ignored.
    package var generation: Int
    /// Set while the body is being formatted.
    package var building: BodyBuildStatus?
    /// The body (a preview of its first lines while building).
    package var main: BodyLayer?
    /// A query or jq result shown instead of the body.
    package var selection: BodySelection?
    /// A query or jq filter running, with the id its result will carry.
    package var pendingSelection: (id: Int, kind: BodySelectionKind)?
    /// The input line, when open.
    package var prompt: BodyPrompt?
    /// Why there is no document (formatting cancelled).
    package var failure: String?
    /// Whether the document is of a stream still arriving (formatted again as bytes come).
    package var isStreamed = false

    /// A pane whose body is about to be built.
    package init(generation: Int, byteCount: Int) {
        self.generation = generation
        building = BodyBuildStatus(bytesProcessed: 0, totalBytes: byteCount)
    }

    /// The layer keys act on: the selection when one is shown, else the body.
    package var active: BodyLayer? {
        get { selection?.layer ?? main }
        set {
            guard let newValue else { return }
            if selection != nil { selection?.layer = newValue } else { main = newValue }
        }
    }

    /// Whether background work this pane waits for is running (formatting, a query, jq, counting matches).
    package var isBusy: Bool {
        if building != nil || pendingSelection != nil { return true }
        guard let search = active?.view.search else { return false }
        return search.count?.isComplete != true
    }
}
