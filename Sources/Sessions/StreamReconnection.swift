import Catalog
import DispatcherCore

/// Opens a Server-Sent Events stream again after the server closed it, as a browser's EventSource
/// does (WHATWG HTML §9.2.3): after the reconnection time (the stream's `retry`, else 3 s), with
/// `Last-Event-ID` when an event had an id. A stream that ends in anything but a `200` event
/// stream, or in `204 No Content`, is not reopened: that is how a server says "stop".
package enum StreamReconnection {
    /// The reconnection time when the stream gave none.
    package static let defaultDelay: Duration = .seconds(3)

    /// Whether the endpoint asks for it and the stream ended in a way that allows it.
    package static func shouldReconnect(_ endpoint: CatalogEndpoint, after exchange: Exchange) -> Bool {
        guard endpoint.stream?.reconnect == true, exchange.error == nil, let response = exchange.response, response.status == 200 else {
            return false
        }
        return isOpenStream(response)
    }

    /// Whether a response is a `200` event stream (what a reconnection must get to carry on).
    static func isOpenStream(_ response: Response) -> Bool {
        response.status == 200 && response.mediaType == MediaType.eventStream
    }

    /// Reconnections in a row that bring no new event before the stream is given up: a server that
    /// closes at once, over and over, is not asked for ever. Said in each reconnection's note.
    package static let maximumFruitlessReconnections = 10

    /// The wait before reopening: the stream's `retry` in milliseconds, else the default.
    package static func delay(retry: Int?) -> Duration {
        retry.map { .milliseconds($0) } ?? defaultDelay
    }

    /// The edits that reopen the stream: the person's own, with `Last-Event-ID` set (or left out
    /// when no event had an id).
    package static func edits(_ edits: EndpointEdits?, endpoint: CatalogEndpoint, lastEventID: String) -> EndpointEdits {
        var edits = edits ?? EndpointEdits()
        var headers = edits.headers ?? endpoint.headers.map { EndpointEdits.Item(name: $0.name, value: $0.value) }
        headers.removeAll { $0.name.lowercased() == "last-event-id" }
        if !lastEventID.isEmpty { headers.append(EndpointEdits.Item(name: "Last-Event-ID", value: lastEventID)) }
        edits.headers = headers
        return edits
    }
}

/// The connections of a reconnecting stream as one exchange, so the events of every connection
/// stay together: the first connection's head, every connection's body one after the other, and
/// notes that say how it ended. A `204` (the server's "stop"), an error or giving up ends it with
/// the events kept; an error is named in a note, since the events are the answer.
package struct ReconnectingStream: Sendable {
    /// The stream so far, as one exchange.
    package var exchange: Exchange
    /// Connections opened, the first included.
    package private(set) var connections = 1
    /// Reconnections in a row that brought no event.
    package private(set) var fruitless = 0
    /// Events seen so far (as the caller counted them).
    private var events = 0

    /// Starts with the first connection's outcome.
    package init(_ first: Exchange) { exchange = first }

    /// Whether to open the stream again: the endpoint asks, the last connection ended in a way that
    /// allows it, and the bound on reconnections without an event is not reached.
    package func shouldReconnect(_ endpoint: CatalogEndpoint, after last: Exchange) -> Bool {
        StreamReconnection.shouldReconnect(endpoint, after: last) && fruitless < StreamReconnection.maximumFruitlessReconnections
    }

    /// The note for the reconnection about to be made: when, with which event id, which attempt.
    package func reconnectingNote(delay: Duration, lastEventID: String) -> String {
        let milliseconds = Int((delay.seconds * 1000).rounded())
        let id = lastEventID.isEmpty ? "" : " with Last-Event-ID: \(lastEventID)"
        return "The stream closed; reconnecting in \(milliseconds) ms\(id) (connection \(connections + 1); "
            + "\(fruitless + 1) of at most \(StreamReconnection.maximumFruitlessReconnections) in a row without an event)."
    }

    /// Adds the outcome of the next connection; `eventsSoFar` counts every event received, over all connections.
    package mutating func add(_ next: Exchange, eventsSoFar: Int) {
        connections += 1
        fruitless = eventsSoFar > events ? 0 : fruitless + 1
        events = eventsSoFar
        guard var combined = exchange.response, exchange.error == nil else {
            exchange = next
            return
        }
        if let response = next.response, next.error == nil, StreamReconnection.isOpenStream(response) {
            combined.body.append(response.body)
            exchange.result = .success(combined)
            return
        }
        exchange.result = .success(combined)
        if let error = next.error {
            let status = error.status.map { " (HTTP \($0))" } ?? ""
            exchange.notes.append(
                "Reconnection \(connections - 1) failed, so the stream ended: \(error.kind.name)\(status): \(error.message) The \(events) events received are kept.")
        } else if next.response?.status == 204 {
            exchange.notes.append("The server answered 204 No Content to reconnection \(connections - 1): the stream is over. The \(events) events received are kept.")
        } else {
            let status = next.response.map { HTTPStatus.line(for: $0.status) } ?? "nothing"
            exchange.notes.append("Reconnection \(connections - 1) was answered \(status), not an event stream: the stream ended. The \(events) events received are kept.")
        }
    }

    /// Adds a note when the bound on reconnections without an event stopped the stream.
    package mutating func noteWhenGivenUp(_ endpoint: CatalogEndpoint, after last: Exchange) {
        guard StreamReconnection.shouldReconnect(endpoint, after: last), fruitless >= StreamReconnection.maximumFruitlessReconnections else { return }
        exchange.notes.append(
            "Gave up after \(fruitless) reconnections in a row without an event (at most \(StreamReconnection.maximumFruitlessReconnections)); the \(events) events received are kept.")
    }
}
