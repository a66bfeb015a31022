import DispatcherCore
import ExplorerApp

/// Uploads as a kind of exchange: a request body being sent reports how far it is (streamed
/// bodies; the last report always goes out, and says the body is sent).
struct Uploads: ExchangeKind {
    func part(in request: OutgoingRequest) -> (any ExchangePart)? {
        Upload(ticket: request.ticket.id, post: request.post)
    }
}

/// One request's upload.
struct Upload: ExchangePart {
    let ticket: Int
    let post: @Sendable (AppAction) -> Void

    func prepare(_ options: inout RequestOptions) {
        let throttle = ProgressThrottle(interval: ProgressThrottle.reportInterval)
        let (ticket, post) = (ticket, post)
        options.uploadProgress = { sent, total in
            guard sent >= total || throttle.shouldReport() else { return }
            post(.uploads(.progressed(ticket: ticket, sent: sent, total: total)))
        }
    }
}
