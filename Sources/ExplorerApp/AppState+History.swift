import DispatcherCore
import Foundation

extension AppState {
    /// Puts a finished request at the top of the history (bounded).
    mutating func remember(_ record: ResponseRecord) {
        let exchange = record.exchange
        let outcome: String
        if let error = exchange.error {
            outcome = error.status.map { "\($0) \(error.kind)" } ?? "\(error.kind)"
        } else {
            outcome = exchange.response?.statusLine ?? "—"
        }
        let requestLine = "\(exchange.request.method.rawValue) \(record.redactor.url(exchange.request.url))"
        history.insert(
            HistoryItem(ticket: record.ticket, requestLine: requestLine, outcome: outcome, failed: exchange.error != nil, date: Date()),
            at: 0)
        if history.count > HistoryItem.limit { history.removeLast(history.count - HistoryItem.limit) }
    }
}
