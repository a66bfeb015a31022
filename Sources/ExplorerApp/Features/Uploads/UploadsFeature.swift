import DispatcherCore

/// Request bodies being uploaded (streamed): how far each is, for the status bar's progress.
package struct UploadsState: Sendable {
    /// Bytes sent and in all, by request ticket.
    package fileprivate(set) var progress: [Int: (sent: Int, total: Int)] = [:]
}

/// What happens to uploads.
package enum UploadsAction: Sendable {
    /// A request body being uploaded moved on: bytes sent so far and in all.
    case progressed(ticket: Int, sent: Int, total: Int)
    /// The request finished (or was cancelled).
    case ended(ticket: Int)
}

enum UploadsFeature: AppFeature {
    static func reduce(_ state: inout UploadsState, _ action: UploadsAction, _ shell: inout AppShell, _ context: RequestsInFlight) -> [AppEffect] {
        switch action {
        case .progressed(let ticket, let sent, let total):
            guard context.tickets[ticket] != nil else { return [] }
            state.progress[ticket] = (sent, total)
            if sent >= total { shell.requests.append(.log(["#\(ticket) ↑ request body sent: \(ByteCount.format(total))"])) }
        case .ended(let ticket):
            state.progress[ticket] = nil
        }
        return []
    }
}
