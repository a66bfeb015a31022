import Catalog
import TerminalKit

/// Every notice and error the status bar showed this run, in full: the bar shows only the latest,
/// cut to its width; `M` opens them all, newest first.
package struct MessagesState: Sendable {
    /// The messages, oldest first, at most `limit`.
    package fileprivate(set) var entries: [Message] = []
    /// How many were recorded this run (numbers the next one).
    package fileprivate(set) var recorded = 0

    /// The most messages kept.
    package static let limit = 500
}

/// One message of the status bar.
package struct Message: Sendable, Hashable {
    /// Its number in this run, from 1.
    package var number: Int
    /// What it said, in full.
    package var text: String
    /// Whether it reports something that went wrong (shown in the error colour).
    package var isError: Bool
}

/// What happens to the message log.
package enum MessagesAction: Sendable {
    /// Open the log (`M`).
    case show
    /// Lines to keep besides the status bar's notices (a reload's errors, with file:line:column).
    case recorded([String], isError: Bool)
}

enum MessagesFeature: AppFeature {
    static func reduce(_ state: inout MessagesState, _ action: MessagesAction, _ shell: inout AppShell, _ context: Void) -> [AppEffect] {
        switch action {
        case .show:
            if state.entries.isEmpty {
                shell.notice = "No messages yet."
            } else {
                shell.present(.messages(scroll: 0))
            }
        case .recorded(let lines, let isError):
            for line in lines { append(line, isError: isError, to: &state) }
        }
        return []
    }

    /// Keeps a notice the status bar shows (`AppState.notice` calls this whenever it changes).
    static func record(_ notice: String, in state: inout MessagesState) {
        append(notice, isError: isErrorText(notice), to: &state)
    }

    private static func append(_ text: String, isError: Bool, to state: inout MessagesState) {
        state.recorded += 1
        state.entries.append(Message(number: state.recorded, text: text, isError: isError))
        if state.entries.count > MessagesState.limit { state.entries.removeFirst(state.entries.count - MessagesState.limit) }
    }

    /// A notice for `width` columns: a diagnostic's location (`path:line:column: …`) stays readable
    /// when the notice is cut, its folders giving way first (`…/hb.yaml:98:5: …`).
    static func keepingLocation(_ notice: String, width: Int) -> String {
        guard notice.displayWidth > width, let end = notice.firstRange(of: ": ")?.lowerBound else { return notice }
        let parts = notice[..<end].split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, parts.suffix(2).allSatisfy({ part in !part.isEmpty && part.allSatisfy { $0.isASCII && $0.isNumber } }) else { return notice }
        let path = parts.dropLast(2).joined(separator: ":")
        guard let slash = path.lastIndex(of: "/") else { return notice }
        let locationLength: Int = parts[parts.count - 2].count + parts[parts.count - 1].count + 2
        let location: Substring = notice[notice.index(end, offsetBy: -locationLength)...]
        return "…" + String(path[slash...]) + String(location)
    }

    /// Whether a notice reports a failure: the app's notices of that kind start with these words.
    static func isErrorText(_ text: String) -> Bool {
        ["Not ", "Could not", "Cannot", "Warning", "No "].contains { text.hasPrefix($0) } || text.contains("has errors") || text.contains("failed")
    }
}
