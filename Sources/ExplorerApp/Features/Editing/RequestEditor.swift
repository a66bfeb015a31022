import Catalog
import DispatcherCore
import JSONSupport
import TerminalKit

/// The request of an endpoint as the Edit tab shows it: the catalog's, with a draft's edits.
struct EditedRequest {
    let endpoint: CatalogEndpoint
    let edits: EndpointEdits
    /// The environment's and the group's headers, in order, with where they come from.
    let inherited: [HeaderField]

    var method: HTTPMethod { edits.method ?? endpoint.method }
    var path: String { edits.path ?? endpoint.path }
    var query: [EndpointEdits.Item] { edits.query ?? EndpointEdits.items(of: endpoint.query) }
    var headers: [EndpointEdits.Item] { edits.headers ?? EndpointEdits.items(of: endpoint.headers) }
    var body: EndpointEdits.Body { edits.body ?? EndpointEdits.body(of: endpoint.body) }

    /// The inherited headers the endpoint does not set itself.
    var shownInherited: [HeaderField] {
        inherited.filter { field in !headers.contains { Headers.sameName($0.name, field.name) } }
    }

    /// Every row, in order.
    var rows: [EditRow] {
        var rows: [EditRow] = [.method, .path, .addQuery]
        rows += query.indices.map(EditRow.query)
        rows.append(.addHeader)
        rows += shownInherited.map { .inheritedHeader($0.name) }
        rows += headers.indices.map(EditRow.header)
        rows.append(.body)
        if case .form(let fields) = body {
            rows += fields.indices.map(EditRow.formField)
            rows.append(.addFormField)
        }
        return rows
    }

    /// Whether two bodies send the same thing: JSON compared as values, not as text.
    /// Bodies past 64 kB are compared as text: parsing them would cost a frame on every change
    /// (a large body that differs only in layout then stays a draft, which sends the same JSON).
    static func sameBody(_ first: EndpointEdits.Body, _ second: EndpointEdits.Body) -> Bool {
        if first == second { return true }
        if case .text(let one, true) = first, case .text(let other, true) = second,
            one.utf8.count <= RequestPreview.largeBodyBytes, other.utf8.count <= RequestPreview.largeBodyBytes,
            let left = try? JSONValue.parse(one), let right = try? JSONValue.parse(other)
        {
            return left == right
        }
        return false
    }

    /// The catalog's body in a few words when the Edit tab cannot edit it (a multipart form, a
    /// file, bytes): it is sent as the catalog says until a body is typed (or `d` sends none).
    var keptBody: String? { edits.body == nil ? Self.summary(ofKept: endpoint.body) : nil }

    /// A multipart form, a file or bytes in a few words; nil for bodies the Edit tab edits.
    static func summary(ofKept body: RequestBody) -> String? {
        switch body {
        case .multipart(let fields):
            let parts = fields.map { field in
                switch field.content {
                case .text(let text): "\(field.name)=\(text)"
                case .file(let path, _): "\(field.name)=@\(path)"
                case .bytes(let data, let filename): "\(field.name)=@\(filename) (\(ByteCount.format(data.count)))"
                }
            }
            return "multipart form, \(fields.count) \(fields.count == 1 ? "part" : "parts"): " + parts.joined(separator: ", ")
        case .file(let path, _): return "the file \(path)"
        case .data(let data, let contentType): return "\(ByteCount.format(data.count)) of \(contentType ?? "bytes")"
        case .none, .json, .text, .form: return nil
        }
    }

    /// Edits equal to the catalog's parts become nil again, so an edit undone by hand leaves no draft.
    static func normalized(_ edits: EndpointEdits, for endpoint: CatalogEndpoint) -> EndpointEdits {
        var edits = edits
        if edits.method == endpoint.method { edits.method = nil }
        if edits.path == endpoint.path { edits.path = nil }
        if edits.query == EndpointEdits.items(of: endpoint.query) { edits.query = nil }
        if edits.headers == EndpointEdits.items(of: endpoint.headers) { edits.headers = nil }
        // No body is a change from a catalog's multipart form or file, though both read as none here.
        if let body = edits.body, summary(ofKept: endpoint.body) == nil, sameBody(body, EndpointEdits.body(of: endpoint.body)) { edits.body = nil }
        return edits
    }
}

extension EditedRequest {
    /// The environment's and the group's headers an endpoint's request gets, in order, with where
    /// they come from (less those the catalog turns off for the endpoint).
    static func inherited(_ endpoint: CatalogEndpoint, in environment: Environment) -> [HeaderField] {
        var inherited = environment.headers.fields
        if let group = endpoint.group, let groupHeaders = environment.groupHeaders[group] {
            for field in groupHeaders.fields {
                inherited.removeAll { Headers.sameName($0.name, field.name) }
                inherited.append(HeaderField(name: field.name, value: field.value, origin: .group(group)))
            }
        }
        inherited = inherited.map { field in
            if case .environment = field.origin { return field }
            if case .group = field.origin { return field }
            return HeaderField(name: field.name, value: field.value, origin: .environment(environment.name))
        }
        // Headers the catalog turns off for this endpoint are not sent, so not offered.
        inherited.removeAll { field in endpoint.omittedHeaders.contains { Headers.sameName($0, field.name) } }
        return inherited
    }
}

/// Which draft: an endpoint in an environment of its catalog (edits made in one environment stay
/// there, and never reach another catalog declaring the same service id).
package struct DraftKey: Sendable, Hashable {
    /// The endpoint.
    package var endpoint: EndpointKey
    /// The environment's name.
    package var environment: String
    /// The catalog that declares the endpoint's service.
    package var catalog: CatalogID

    /// The key of `endpoint` in `environment` (its service's environment).
    package init(endpoint: EndpointKey, in environment: EnvironmentKey) {
        self.endpoint = endpoint
        self.environment = environment.environment
        catalog = environment.catalog
    }

    /// The service in the environment.
    package var environmentKey: EnvironmentKey { EnvironmentKey(catalog: catalog, service: endpoint.service, environment: environment) }
}

/// A row of the Edit tab.
package enum EditRow: Sendable, Hashable {
    /// The method.
    case method
    /// The path template.
    case path
    /// "add a query item".
    case addQuery
    /// A query item, by index.
    case query(Int)
    /// "add a header".
    case addHeader
    /// A header from the environment or the group, by name (turned off, or overridden by editing it).
    case inheritedHeader(String)
    /// One of the endpoint's headers, by index.
    case header(Int)
    /// The body (text or JSON; a form's fields follow as their own rows).
    case body
    /// "add a form field".
    case addFormField
    /// A form field, by index.
    case formField(Int)
    /// Not a row: the id typed to save the request as a new endpoint.
    case newEndpointID
    /// Not a row: the name typed for a credential's secret before the edits are written.
    case secretName
    /// Not a row: `name=value` typed from anywhere (`P`), replacing the query item of that name or added.
    case setQuery
    /// Not a row: `Name: value` typed from anywhere (`A`), replacing the header of that name or added.
    case setHeader
}

/// The Edit tab's cursor, scroll, and the row being typed, if any.
package struct EditorState: Sendable, Hashable {
    /// The row under the cursor, by position.
    package internal(set) var row = 0
    /// The first row shown.
    package internal(set) var scroll = 0
    /// The row being typed and its text.
    package internal(set) var input: RowInput?
    /// The credentials of edits about to be written, being named one by one.
    package internal(set) var naming: SecretNaming?
    /// The last draft `W` wrote into its catalog file: `u` puts the file back as it was (the runner
    /// kept it beside, as `FILE~`) and the edits back into the draft.
    package internal(set) var lastWrite: WrittenDraft?

    /// A draft written into its catalog file.
    package struct WrittenDraft: Sendable, Hashable {
        /// The draft.
        package var key: DraftKey
        /// Its edits, as written.
        package var edits: EndpointEdits
    }

    /// A row being typed.
    package struct RowInput: Sendable, Hashable {
        /// The row.
        package var row: EditRow
        /// The text typed.
        package var input: InputState
    }
}

/// The Variables tab's cursor and the value being typed, if any.
package struct VariablesState: Sendable, Hashable {
    /// The variable under the cursor, by position.
    package internal(set) var row = 0
    /// The value being typed, if any.
    package internal(set) var input: ValueInput?

    /// A run-time value being typed.
    package struct ValueInput: Sendable, Hashable {
        /// The placeholder's name.
        package var name: String
        /// The text typed.
        package var input: InputState
    }
}

extension EndpointEdits {
    /// What the edits change, one short line each, for the question before they are written.
    var changeSummary: [String] {
        var lines: [String] = []
        if let method { lines.append("method: \(method.rawValue)") }
        if let path { lines.append("path: \(path)") }
        if let query { lines.append("query: " + query.map(\.name).joined(separator: ", ")) }
        if let headers { lines.append("headers: " + headers.map(\.name).joined(separator: ", ")) }
        if !removedHeaders.isEmpty { lines.append("headers turned off: " + removedHeaders.sorted().joined(separator: ", ")) }
        if body != nil { lines.append("body") }
        return lines
    }
}

/// Edits about to be written (`W`, or `N` with the new id) that hold credentials: each is named in
/// turn and written as `{{secret.NAME}}`, its value kept as a run-time secret of this session only.
package struct SecretNaming: Sendable, Hashable {
    /// How the edits are written.
    package enum Write: Sendable, Hashable {
        /// Into the endpoint (`W`).
        case intoEndpoint
        /// As a new endpoint with this id (`N`).
        case asNewEndpoint(String)
    }

    /// Whose edits.
    package var key: DraftKey
    /// How they are written.
    package var write: Write
    /// The credentials, in order.
    package var credentials: [TypedCredential]
    /// The names given so far, in the same order.
    package var names: [String] = []
}
