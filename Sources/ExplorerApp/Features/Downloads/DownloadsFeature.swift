import DispatcherCore

/// Response bodies being written to a file (`d`, an endpoint's `download:`): how far each is,
/// for the status bar's progress (bytes so far, the total when known, the rate).
package struct DownloadsState: Sendable {
    /// Progress by request ticket; gone when the request ends.
    package fileprivate(set) var progress: [Int: TransferProgress] = [:]

    /// The download to show: the one started first.
    package var shown: TransferProgress? { progress.min { $0.key < $1.key }?.value }
}

/// What happens to downloads.
package enum DownloadsAction: Sendable {
    /// A body being downloaded moved on: bytes so far, the total when known, and the runtime
    /// clock's reading (the rate is computed from these readings, never from the wall time).
    case progressed(ticket: Int, received: Int, expected: Int?, at: Duration)
    /// The request finished (or was cancelled): its progress goes.
    case ended(ticket: Int)
}

enum DownloadsFeature: AppFeature {
    static func reduce(_ state: inout DownloadsState, _ action: DownloadsAction, _ shell: inout AppShell, _ context: RequestsInFlight) -> [AppEffect] {
        switch action {
        case .progressed(let ticket, let received, let expected, let at):
            // A report that arrives after its request ended is dropped.
            guard context.tickets[ticket] != nil else { return [] }
            if state.progress[ticket] == nil {
                state.progress[ticket] = TransferProgress(received: received, expected: expected, at: at)
            } else {
                state.progress[ticket]?.update(received: received, expected: expected, at: at)
            }
        case .ended(let ticket):
            state.progress[ticket] = nil
        }
        return []
    }
}
