import Catalog
import DispatcherCore
import ExplorerApp
import FoundationEssentials
import Sessions

/// A kind of exchange: what a request of that kind needs beyond sending it and reporting its end
/// (a body read as it arrives, a download, an upload's progress, a WebSocket conversation). The
/// send path asks every kind for its part in each request, so a new protocol is a kind in its own
/// folder and one line in `EffectRunner.kinds`, not a change to the path.
protocol ExchangeKind: Sendable {
    /// The kind's part in a request, nil when the request is not of this kind.
    func part(in request: OutgoingRequest) -> (any ExchangePart)?
}

/// A kind's part in one request.
protocol ExchangePart: Sendable {
    /// Adds what the kind needs to the request's options (observers, a conversation).
    func prepare(_ options: inout RequestOptions)
    /// Sends the request through `next` (once, again, or in its own way) and returns what came
    /// back; `edits` are the request's edits (a reconnection changes them).
    func transfer(edits: EndpointEdits?, next: @escaping ExchangeTransfer) async -> Exchange
    /// The request ended: the kind's last reports go out before its end is posted, and it may
    /// change what came back (a download answered whole written to its file).
    func ended(_ exchange: inout Exchange)
}

extension ExchangePart {
    func prepare(_ options: inout RequestOptions) {}
    func transfer(edits: EndpointEdits?, next: @escaping ExchangeTransfer) async -> Exchange { await next(edits) }
    func ended(_ exchange: inout Exchange) {}
}

/// Sends the request with the given edits, as the kinds before prepared it.
typealias ExchangeTransfer = @Sendable (EndpointEdits?) async -> Exchange

/// A request on its way, as its kinds see it.
struct OutgoingRequest: Sendable {
    /// Its ticket: the call, and the id its reports carry.
    let ticket: RequestTicket
    /// The endpoint, as its catalog has it.
    let endpoint: CatalogEndpoint
    /// The session it is sent in.
    let session: ServiceSession
    /// Posts an action to the app.
    let post: @Sendable (AppAction) -> Void
    /// The explorer's clock (a stepping one in snapshots).
    let clock: DispatchClock

    /// The call.
    var call: EndpointCall { ticket.call }
}
