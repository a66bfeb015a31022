import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions
import TerminalKit

/// Requests sent, newest first: this run's and (loaded at launch) earlier ones; `H` lists them
/// to send again.
package struct HistoryState: Sendable {
    /// The requests, newest first, at most `HistoryItem.limit`.
    package fileprivate(set) var items: [HistoryItem] = []
}

/// What happens to the history.
package enum HistoryAction: Sendable {
    /// `H`: the list of requests sent.
    case show
    /// A key in the list: Enter sends the request under the cursor again.
    case window(Command)
    /// Earlier requests read from the history (newest first), after the catalogs.
    case loaded([HistoryItem])
    /// A request finished at `at`: it goes on top.
    case requestFinished(CallOutcome, at: Date)
}

/// Work the history asks of the runtime.
package enum HistoryEffect: Sendable, Hashable {
    /// Read earlier runs' requests from the history, reporting `.loaded`.
    case load
}

/// One request in the history: enough to show it and to send it again.
package struct HistoryItem: Sendable, Hashable {
    /// What was sent, where and how.
    package var call: EndpointCall
    /// The method and URL as sent, secrets masked.
    package var requestLine: String
    /// `200 OK`, or the mapped error kind.
    package var outcome: String
    /// Whether it ended in an error.
    package var failed: Bool
    /// When it was sent.
    package var date: Date

    /// Makes an item.
    package init(call: EndpointCall, requestLine: String, outcome: String, failed: Bool, date: Date) {
        self.call = call
        self.requestLine = requestLine
        self.outcome = outcome
        self.failed = failed
        self.date = date
    }

    /// The most items kept in the app.
    package static let limit = 500
}

enum HistoryFeature: AppFeature {
    /// How far a page key moves the list's cursor.
    struct Context {
        var pageHeight: Int
    }

    static func context(of app: AppState) -> Context { Context(pageHeight: app.pageHeight) }

    static func reduce(_ state: inout HistoryState, _ action: HistoryAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .show:
            if state.items.isEmpty {
                shell.notice = "No request sent yet: \(shell.keys(.exchanges(.send))) sends one."
            } else {
                shell.present(.history(list: ListState(selected: 0)))
            }
        case .window(let command):
            guard case .history(var list)? = shell.window else { return [] }
            let count = state.items.count
            switch command {
            case .pageDown: list.select(min(count - 1, (list.selected ?? 0) + context.pageHeight), itemCount: count)
            case .pageUp: list.select(max(0, (list.selected ?? 0) - context.pageHeight), itemCount: count)
            default:
                switch OverlaysFeature.listKey(command, list, count: count) {
                case .moved(let moved): list = moved
                case .chosen(let selected):
                    shell.dismiss()
                    shell.requests.append(.sendAgain(state.items[selected].call))
                    return []
                case .closed:
                    shell.dismiss()
                    return []
                case .ignored: return []
                }
            }
            shell.present(.history(list: list))
        case .loaded(let earlier):
            // Requests of this run are newer than anything in the file.
            state.items = Array((state.items + earlier).prefix(HistoryItem.limit))
            shell.pendingLoads.remove(.history(.load))
        case .requestFinished(let record, let date):
            // A stub without a fixture answered nothing: it is not kept.
            guard record.exchange.error?.kind != .noFixture else { return [] }
            state.items.insert(item(record, at: date), at: 0)
            if state.items.count > HistoryItem.limit { state.items.removeLast(state.items.count - HistoryItem.limit) }
        }
        return []
    }

    /// The item a request that finished at `date` makes.
    static func item(_ record: CallOutcome, at date: Date) -> HistoryItem {
        let exchange = record.exchange
        let outcome: String
        if let error = exchange.error {
            outcome = error.status.map { "\($0) \(error.kind)" } ?? "\(error.kind)"
        } else {
            outcome = exchange.response?.statusLine ?? "—"
        }
        let requestLine = "\(exchange.request.method.rawValue) \(record.redactor.url(exchange.request.url))"
        return HistoryItem(call: record.call, requestLine: requestLine, outcome: outcome, failed: exchange.error != nil, date: date)
    }
}
