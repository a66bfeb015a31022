import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions

/// A request that finished: it leaves the tickets in flight and becomes its endpoint's last
/// answer; the slices that followed it (its kinds of exchange) and those that show or keep
/// answers take it in turn; last, its captures are taken.
extension ExchangesFeature {
    static func finish(_ finished: FinishedExchange, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        let ticket = state.inFlight.removeValue(forKey: finished.ticket)
        var exchange = finished.exchange
        shell.requests.append(.exchangeEnded(EndedExchange(ticket: finished.ticket, call: ticket?.call, exchange: exchange)))
        guard let ticket else { return [] }
        // What arrived of a stream the person closed is the response, not a "cancelled" error.
        if exchange.error?.kind == .cancelled, let partial = exchange.error?.response, let stream = context.streams[ticket.endpoint],
            stream.ticket == ticket.id
        {
            exchange.result = .success(partial)
            exchange.notes.append(stream.closedNote)
        }
        let record = CallOutcome(call: ticket.call, exchange: exchange, redactor: finished.redactor)
        state.responses[ticket.endpoint] = record
        state.receivedAt[ticket.endpoint] = finished.finishedAt
        var answered = finished
        answered.exchange = exchange
        shell.requests.append(.exchangeAnswered(answered, record))
        return []
    }

    /// After the other slices took a finished request: why nothing answered (a stub without a
    /// fixture), the values captured in a session that signed out forgotten, and the request's
    /// own captures taken.
    static func answered(
        _ record: CallOutcome, at date: Date, signedOut: Bool, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        let call = record.call
        if record.exchange.error?.kind == .noFixture, let endpoint = context.catalog.endpoint(call.endpoint)?.endpoint {
            // Said where the person looks, with the way out; not kept in the history (nothing answered).
            shell.notice = "No fixture for \(call.endpoint): " + endpoint.noFixtureAdvice(live: "s switches to live") + "."
        }
        // Values captured from a session that signed out (ids, tokens) belong to it.
        if signedOut { state.captured[call.environmentKey]?[call.mode] = [:] }
        guard let response = record.exchange.response, let endpoint = context.catalog.endpoint(call.endpoint)?.endpoint,
            !endpoint.captures.isEmpty
        else { return [] }
        let values = endpoint.capturedValues(from: CapturedResponse(response), at: date)
        guard !values.isEmpty else { return [] }
        state.captured[call.environmentKey, default: CapturedValues()][call.mode].merge(values) { _, new in new }
        shell.notice = "Captured \(values.keys.sorted().joined(separator: ", ")) from \(call.endpoint) (Vars tab shows them)."
        return [.exchanges(.saveCaptured(state.captured))]
    }
}
