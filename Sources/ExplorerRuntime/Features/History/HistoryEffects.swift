import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Sessions
import StateStore

/// Reads and writes the request history (`apiexplorer history`, the `H` list).
struct HistoryEffects: Sendable {
    /// Where sent requests are kept; nil keeps no history.
    let store: HistoryStore?

    func perform(_ effect: HistoryEffect, _ context: EffectContext) {
        switch effect {
        case .load:
            context.load { [store] in .history(.loaded(store?.summaries().reversed().map(HistoryItem.init) ?? [])) }
        }
    }

    /// Keeps a request that finished; a full disk must not turn a good response into an error, so a
    /// failed write is not reported. A stub without a fixture answered nothing: it is not kept.
    func keep(_ exchange: Exchange, call: EndpointCall, redactor: Redactor, date: Date) {
        guard exchange.error?.kind != .noFixture else { return }
        try? store?.append(HistoryEntry(exchange: exchange, call: call, redactor: redactor, date: date))
    }
}

extension HistoryItem {
    /// The item the history list shows for a summary read from the history.
    init(_ summary: HistorySummary) {
        self.init(
            call: summary.call, requestLine: "\(summary.method) \(summary.url)", outcome: summary.outcome, failed: summary.failed,
            date: summary.date)
    }
}
