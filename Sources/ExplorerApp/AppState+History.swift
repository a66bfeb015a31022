import Catalog
import DispatcherCore
import FoundationEssentials

extension AppState {
    /// Puts a request that finished at `date` at the top of the history (bounded).
    mutating func remember(_ record: CallOutcome, at date: Date) {
        let exchange = record.exchange
        let outcome: String
        if let error = exchange.error {
            outcome = error.status.map { "\($0) \(error.kind)" } ?? "\(error.kind)"
        } else {
            outcome = exchange.response?.statusLine ?? "—"
        }
        let requestLine = "\(exchange.request.method.rawValue) \(record.redactor.url(exchange.request.url))"
        history.insert(
            HistoryItem(call: record.call, requestLine: requestLine, outcome: outcome, failed: exchange.error != nil, date: date),
            at: 0)
        if history.count > HistoryItem.limit { history.removeLast(history.count - HistoryItem.limit) }
    }
}
