import DispatcherCore
import FoundationEssentials

/// A response shown while it arrives: Server-Sent Events as a list of events, any other streamed
/// body (NDJSON, chunked text) as the body viewer over the bytes so far.
package struct ResponseStream: Sendable {
    /// How the stream is shown.
    package enum Kind: Sendable, Hashable {
        /// `text/event-stream`: one row per event.
        case events
        /// Anything else: the body viewer, rebuilt as bytes arrive.
        case text
    }

    /// The request it answers.
    package var ticket: Int
    /// The head's status.
    package var status: Int
    /// The head's headers.
    package var headers: Headers
    /// How it is shown.
    package var kind: Kind
    /// The events so far (event streams).
    package var events: [StreamedEvent] = []
    /// The bytes so far (text streams), for the body viewer.
    package var received = Data()
    /// Bytes of the body so far.
    package var byteCount = 0
    /// Whether the connection is still open.
    package var isOpen = true
    /// Whether the person closed it (Esc) rather than the server.
    package var closedByUser = false
    /// The event under the cursor; nil follows the newest.
    package var cursor: Int?
    /// The first event row shown.
    package var scroll = 0
    /// Connections the stream came over (more than one after reconnections).
    package var connections = 1
    /// Bytes of `received` the body viewer's document was built from (text streams).
    package var builtByteCount = 0

    /// A stream whose head just arrived.
    package init(ticket: Int, status: Int, headers: Headers) {
        self.ticket = ticket
        self.status = status
        self.headers = headers
        kind = Self.kind(contentType: headers["Content-Type"])
    }

    /// `text/event-stream` is read as events; every other body as text.
    package static func kind(contentType: String?) -> Kind {
        MediaType.essence(of: contentType) == MediaType.eventStream ? .events : .text
    }

    /// Whether a head with this content type is worth showing as it arrives even when the endpoint
    /// does not say `stream:` (a body nobody reads early is not copied).
    package static func isStreamingType(_ contentType: String?) -> Bool {
        MediaType.essence(of: contentType).map(MediaType.streamed.contains) ?? false
    }

    /// What a stream the person closed says in its response's notes.
    var closedNote: String {
        let count = kind == .events ? "\(events.count) event\(events.count == 1 ? "" : "s")" : ByteCount.format(byteCount)
        return "The stream was closed by you after \(count)."
    }

    /// The event under the cursor.
    package var selectedIndex: Int? { events.isEmpty ? nil : min(cursor ?? events.count - 1, events.count - 1) }
}

/// An event and when it came, since the request was sent.
package struct StreamedEvent: Sendable, Hashable {
    /// Time since the request was sent.
    package var at: Duration
    /// The event.
    package var event: ServerSentEvent

    /// Makes one.
    package init(at: Duration, event: ServerSentEvent) {
        self.at = at
        self.event = event
    }
}

/// What arrived of a stream since the runtime's last report (reports are batched, a frame's worth at a time).
package struct StreamUpdate: Sendable {
    /// The head, in the first report (and again after a followed redirect).
    package var head: StreamHead?
    /// Events completed since the last report (event streams).
    package var events: [StreamedEvent]
    /// Bytes since the last report (text streams).
    package var bytes: Data
    /// Body bytes so far in all.
    package var byteCount: Int

    /// Makes an update.
    package init(head: StreamHead? = nil, events: [StreamedEvent] = [], bytes: Data = Data(), byteCount: Int) {
        self.head = head
        self.events = events
        self.bytes = bytes
        self.byteCount = byteCount
    }
}

/// The status and headers a stream began with.
package struct StreamHead: Sendable, Hashable {
    /// The status.
    package var status: Int
    /// The headers.
    package var headers: Headers

    /// Makes a head.
    package init(status: Int, headers: Headers) {
        self.status = status
        self.headers = headers
    }
}
