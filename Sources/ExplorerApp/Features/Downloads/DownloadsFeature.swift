import Catalog
import DispatcherCore
import TextSupport
import Sessions

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
    /// The request finished (or was cancelled): its progress goes, and a download's end is said
    /// (`call` is nil for a report of a request no longer in flight).
    case ended(ticket: Int, call: EndpointCall?, exchange: Exchange)
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
        case .ended(let ticket, let call, let exchange):
            state.progress[ticket] = nil
            if call?.downloadPath != nil { shell.notice = ended(exchange) }
        }
        return []
    }

    /// What replaces "Downloading … to …" when the download ends: where the body went, or why not.
    static func ended(_ exchange: Exchange) -> String {
        if let file = exchange.response?.downloadedFile {
            let resumed = file.resumedFrom > 0 ? " (continued after \(ByteCount.format(file.resumedFrom)))" : ""
            return "Saved \(ByteCount.format(file.byteCount)) to \(file.path)\(resumed)."
        }
        if let error = exchange.error { return "Not downloaded: \(error.kind.name): \(error.message)" }
        return "Not downloaded: the answer was not a body to save."
    }
}
