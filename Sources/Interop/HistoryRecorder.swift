import DispatcherCore

/// A result handler that keeps every finished exchange in the history (secrets masked), so
/// requests sent from the explorer show up in `apiexplorer history` and HAR exports.
public struct HistoryRecorder: ResultHandler {
    private let store: HistoryStore
    private let redactor: Redactor

    /// Records into `store`, masking with `redactor` (the session's, so its secrets are known).
    public init(store: HistoryStore, redactor: Redactor) {
        self.store = store
        self.redactor = redactor
    }

    public func handle(_ exchange: Exchange) async -> [String] {
        let identifier = exchange.request.identifier
        let parts = identifier.split(separator: "/", maxSplits: 1).map(String.init)
        let entry = HistoryEntry(
            exchange: exchange, service: parts.first ?? identifier, endpoint: parts.count == 2 ? parts[1] : identifier,
            example: nil, values: [:], redactor: redactor)
        // History is a convenience: a full disk must not turn a good response into an error.
        try? store.append(entry)
        return []
    }
}
