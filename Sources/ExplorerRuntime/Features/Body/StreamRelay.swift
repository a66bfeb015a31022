import Catalog
import DispatcherCore
import ExplorerApp
import Sessions
import FoundationEssentials
import Synchronization

/// Hands a response that is read as it arrives to the explorer a frame at a time: events are
/// parsed on the transport's thread as bytes come (cheap), and what arrived is posted at most once
/// per `ReportTimer.interval`, so a fast stream costs one frame per interval, not one per event.
final class StreamRelay: Sendable {
    private struct State {
        var observing = false
        var kind = ResponseStream.Kind.text
        var parser = ServerSentEventParser()
        var head: StreamHead?
        var events: [StreamedEvent] = []
        var bytes = Data()
        var byteCount = 0
        /// Events parsed over every connection (a reconnection keeps counting).
        var eventCount = 0
    }

    private let state = Mutex(State())
    private let timer = ReportTimer()
    private let ticket: Int
    private let post: @Sendable (AppAction) -> Void
    /// The explorer's clock (a stepping one in snapshots, so their times do not move).
    private let clock: DispatchClock
    private let started: Duration
    /// Whether the endpoint says it streams (`stream:`): then any body is shown as it arrives;
    /// otherwise only bodies whose type is a stream's (event stream, NDJSON).
    private let endpointStreams: Bool
    /// Masks the secret values the request carries, should the server echo one while streaming
    /// (the whole body, once it has arrived, is masked until `v` as any body is).
    private let masking: Redactor

    init(ticket: Int, post: @escaping @Sendable (AppAction) -> Void, endpointStreams: Bool, clock: DispatchClock, masking: Redactor) {
        self.ticket = ticket
        self.masking = masking
        self.post = post
        self.endpointStreams = endpointStreams
        self.clock = clock
        started = clock.now()
    }

    /// The observer the transport calls.
    var observer: ResponsePartObserver { { [self] part in observe(part) } }

    func observe(_ part: ResponsePart) -> Bool {
        switch part {
        case .head(let status, let headers):
            let contentType = headers["Content-Type"]
            let wanted = endpointStreams || ResponseStream.isStreamingType(contentType)
            state.withLock { state in
                // A reconnection carries on: the last event id and retry stay, a half-read event does not.
                var parser = state.parser
                parser.reset()
                let eventCount = state.eventCount
                state = State()
                state.parser = parser
                state.eventCount = eventCount
                state.observing = wanted
                state.kind = ResponseStream.kind(contentType: contentType)
                state.head = StreamHead(status: status, headers: headers)
            }
            if wanted { scheduleFlush() }
            return wanted
        case .body(let data):
            let at = clock.now() - started
            state.withLock { state in
                guard state.observing else { return }
                state.byteCount += data.count
                switch state.kind {
                case .events:
                    let events = state.parser.parse(data)
                    state.eventCount += events.count
                    state.events += events.map { StreamedEvent(at: at, event: $0) }
                case .text: state.bytes.append(data)
                }
            }
            scheduleFlush()
            return true
        }
    }

    /// Where a reconnection starts: the last event id and the stream's `retry`.
    var resumePoint: (lastEventID: String, retry: Int?) { state.withLock { ($0.parser.lastEventID, $0.parser.retry) } }

    /// Events received so far, over every connection.
    var eventCount: Int { state.withLock { $0.eventCount } }

    /// Posts what arrived since the last report. Posted under the lock, so a report can never
    /// come after the request's end, which `send` posts after its own last `flush()`.
    func flush() {
        state.withLock { state in
            guard state.observing, state.head != nil || !state.events.isEmpty || !state.bytes.isEmpty else { return }
            let events = state.events.map { streamed in
                var masked = streamed
                masked.event.data = masking.text(streamed.event.data)
                return masked
            }
            post(.body(.streamed(
                ticket: ticket, update: StreamUpdate(head: state.head, events: events, bytes: masking.data(state.bytes), byteCount: state.byteCount))))
            state.head = nil
            state.events = []
            state.bytes = Data()
        }
    }

    private func scheduleFlush() {
        timer.schedule { [self] in flush() }
    }
}

/// Bodies read as they arrive (event streams, NDJSON, any body of an endpoint that says `stream:`),
/// as a kind of exchange: every HTTP request may turn out to be one (the head's type tells), so
/// each gets a relay; an event stream that says `reconnect: true` is opened again when it closes.
struct StreamedBodies: ExchangeKind {
    func part(in request: OutgoingRequest) -> (any ExchangePart)? {
        let relay = StreamRelay(
            ticket: request.ticket.id, post: request.post, endpointStreams: request.endpoint.stream != nil, clock: request.clock,
            masking: request.session.redactor)
        return StreamedBody(relay: relay, endpoint: request.endpoint)
    }
}

/// One request's body read as it arrives.
struct StreamedBody: ExchangePart {
    let relay: StreamRelay
    let endpoint: CatalogEndpoint

    func prepare(_ options: inout RequestOptions) {
        options.onResponsePart = relay.observer
        options.isStream = endpoint.stream != nil
    }

    /// `stream: { reconnect: true }`: a closed event stream is opened again, as EventSource does;
    /// the connections' events stay one response, however the stream ends.
    func transfer(edits: EndpointEdits?, next: @escaping ExchangeTransfer) async -> Exchange {
        var edits = edits
        var last = await next(edits)
        var stream = ReconnectingStream(last)
        while stream.shouldReconnect(endpoint, after: last), !Task.isCancelled {
            let (lastEventID, retry) = relay.resumePoint
            do {
                try await Task.sleep(for: StreamReconnection.delay(retry: retry))
            } catch {
                stream.exchange.notes.append("The stream was closed by you while it waited to reconnect.")
                break
            }
            edits = StreamReconnection.edits(edits, endpoint: endpoint, lastEventID: lastEventID)
            last = await next(edits)
            stream.add(last, eventsSoFar: relay.eventCount)
        }
        stream.noteWhenGivenUp(endpoint, after: last)
        return stream.exchange
    }

    func ended(_ exchange: inout Exchange) { relay.flush() }
}
