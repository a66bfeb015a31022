/// One event of a `text/event-stream` response, as the WHATWG HTML standard's event stream
/// interpretation dispatches it (§9.2.6).
package struct ServerSentEvent: Sendable, Hashable {
    /// The `event` field, `message` when none was given.
    package var type: String
    /// The `data` fields joined with line feeds.
    package var data: String
    /// The last event ID at dispatch (the stream's, not only this event's: it carries over).
    package var lastEventID: String

    /// Makes an event.
    package init(type: String = "message", data: String, lastEventID: String = "") {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
    }
}
