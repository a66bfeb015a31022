import DispatcherCore

/// Opens a Server-Sent Events stream again after the server closed it, as a browser's EventSource
/// does (WHATWG HTML §9.2.3): after the reconnection time (the stream's `retry`, else 3 s), with
/// `Last-Event-ID` when an event had an id. A stream that ends in anything but a `200` event
/// stream, or in `204 No Content`, is not reopened: that is how a server says "stop".
public enum StreamReconnection {
    /// The reconnection time when the stream gave none.
    public static let defaultDelay: Duration = .seconds(3)

    /// Whether the endpoint asks for it and the stream ended in a way that allows it.
    public static func shouldReconnect(_ endpoint: CatalogEndpoint, after exchange: Exchange) -> Bool {
        guard endpoint.stream?.reconnect == true, exchange.error == nil, let response = exchange.response, response.status == 200 else {
            return false
        }
        return response.mediaType == MediaType.eventStream
    }

    /// The wait before reopening: the stream's `retry` in milliseconds, else the default.
    public static func delay(retry: Int?) -> Duration {
        retry.map { .milliseconds($0) } ?? defaultDelay
    }

    /// The edits that reopen the stream: the person's own, with `Last-Event-ID` set (or left out
    /// when no event had an id).
    public static func edits(_ edits: EndpointEdits?, endpoint: CatalogEndpoint, lastEventID: String) -> EndpointEdits {
        var edits = edits ?? EndpointEdits()
        var headers = edits.headers ?? endpoint.headers.map { EndpointEdits.Item(name: $0.name, value: $0.value) }
        headers.removeAll { $0.name.lowercased() == "last-event-id" }
        if !lastEventID.isEmpty { headers.append(EndpointEdits.Item(name: "Last-Event-ID", value: lastEventID)) }
        edits.headers = headers
        return edits
    }
}
