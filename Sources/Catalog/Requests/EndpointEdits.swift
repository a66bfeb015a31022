import DispatcherCore
import JSONSupport

/// How a person changed an endpoint for their next requests, without touching its catalog: the
/// method, the path, the query items and the endpoint's headers (each can be turned off), the
/// body, and inherited headers (environment, group) turned off. A part that was not changed is
/// nil and keeps following the catalog.
package struct EndpointEdits: Sendable, Hashable, Codable {
    /// A query item, header or form field as edited: off items stay listed but are not sent.
    package struct Item: Sendable, Hashable, Codable {
        /// The name.
        package var name: String
        /// The value (nil: a bare query name); may hold placeholders.
        package var value: String?
        /// Whether it is sent.
        package var isEnabled: Bool

        /// Makes an item.
        package init(name: String, value: String?, isEnabled: Bool = true) {
            self.name = name
            self.value = value
            self.isEnabled = isEnabled
        }
    }

    /// A body as edited.
    package enum Body: Sendable, Hashable, Codable {
        /// No body.
        case none
        /// Text as typed, sent byte for byte; as JSON when `isJSON` (it must then parse).
        case text(String, isJSON: Bool)
        /// URL-encoded form fields.
        case form([Item])
    }

    /// The method, when changed.
    package var method: HTTPMethod?
    /// The path template, when changed.
    package var path: String?
    /// Every query item, when any was changed.
    package var query: [Item]?
    /// Every header the endpoint itself sends, when any was changed (an inherited header edited
    /// becomes one of these, which wins over it).
    package var headers: [Item]?
    /// Inherited headers (environment's, group's) not to send, by name.
    package var removedHeaders: Set<String>
    /// The body, when changed.
    package var body: Body?

    /// No change.
    package init(
        method: HTTPMethod? = nil, path: String? = nil, query: [Item]? = nil, headers: [Item]? = nil, removedHeaders: Set<String> = [],
        body: Body? = nil
    ) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.removedHeaders = removedHeaders
        self.body = body
    }

    /// Whether nothing was changed.
    package var isEmpty: Bool {
        method == nil && path == nil && query == nil && headers == nil && removedHeaders.isEmpty && body == nil
    }

    /// The edits that describe the catalog's own endpoint (a starting point to change).
    package static func items(of query: [QueryItem]) -> [Item] {
        query.map { Item(name: $0.name, value: $0.value) }
    }

    /// The endpoint's own headers as items.
    package static func items(of headers: Headers) -> [Item] {
        headers.map { Item(name: $0.name, value: $0.value) }
    }

    /// The endpoint's body as edited text.
    package static func body(of body: RequestBody) -> Body {
        switch body {
        // A file or a multipart form is changed in the catalog, not in the Edit tab.
        case .none, .data, .file, .multipart: .none
        case .json(let value): .text(value.prettyText(), isJSON: true)
        case .text(let text, _): .text(text, isJSON: false)
        case .form(let items): .form(items.map { Item(name: $0.name, value: $0.value) })
        }
    }
}

extension EndpointEdits {
    /// The content type of an edited JSON body (its placeholders are filled JSON-escaped).
    static let jsonContentType = "application/json"
}

/// Why edits cannot be sent as they are.
package struct EditsError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, with a line and column for a JSON body.
    package var message: String

    package var description: String { message }
}

extension CatalogEndpoint {
    /// The endpoint with `edits` applied (inherited headers turned off are applied when the request
    /// is prepared: see `RequestBuilder.prepare(_:values:removingHeaders:)`). A JSON body that does
    /// not parse is an error saying where.
    package func applying(_ edits: EndpointEdits) throws(EditsError) -> CatalogEndpoint {
        var endpoint = self
        if let method = edits.method { endpoint.method = method }
        if let path = edits.path { endpoint.path = path }
        if let query = edits.query {
            endpoint.query = query.filter(\.isEnabled).map { QueryItem(name: $0.name, value: $0.value) }
        }
        if let items = edits.headers {
            var headers = Headers()
            for item in items where item.isEnabled {
                let original = self.headers.first { Headers.sameName($0.name, item.name) }
                let origin: HeaderOrigin = original?.value == item.value ? original?.origin ?? .endpoint : .edited
                headers.add(item.name, item.value ?? "", origin: origin)
            }
            endpoint.headers = headers
        }
        var json: JSONValue?
        switch edits.body {
        case nil: break
        case .none?: endpoint.body = .none
        case .form(let items)?: endpoint.body = .form(items.filter(\.isEnabled).map { QueryItem(name: $0.name, value: $0.value) })
        case .text(let text, let isJSON)?:
            if isJSON {
                // Checked, never re-encoded: the bytes typed are the bytes sent (a signed body stays valid).
                do {
                    json = try JSONValue.parse(text)
                } catch {
                    throw EditsError(message: "the JSON body does not parse: line \(error.line), column \(error.column): \(error.reason)")
                }
                endpoint.body = .text(text, contentType: EndpointEdits.jsonContentType)
            } else {
                endpoint.body = .text(text, contentType: contentType(of: body))
            }
        }
        // A graphql body stays one (and keeps its error rule) only while the JSON is still an operation.
        if endpoint.graphQL != nil, edits.body != nil {
            endpoint.graphQL = json.flatMap(GraphQLOperation.init(requestBody:))
        }
        return endpoint
    }

    private func contentType(of body: RequestBody) -> String? {
        if case .text(_, let contentType) = body { return contentType }
        return nil
    }
}
