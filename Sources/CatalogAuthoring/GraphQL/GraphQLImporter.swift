import FoundationEssentials
import JSONSupport

/// Turns a GraphQL schema (SDL, or the JSON result of the introspection query) into a catalog:
/// one endpoint per query and mutation field, each a `graphql:` body whose operation declares
/// every argument as a variable and selects the field's scalar members two levels deep. Required
/// arguments get `{{placeholders}}` (sample values as parameters), optional ones `null`. The
/// stub answers a sample of the selection, so every endpoint runs in stub mode.
package enum GraphQLImporter {
    /// How deep selection sets go below the root field.
    static let selectionDepth = 2
    /// Fields selected per type at most (huge types stay readable).
    static let fieldsPerType = 30

    /// The catalog of a schema's bytes. Pure: nothing is read or written.
    /// - Parameters:
    ///   - url: the GraphQL endpoint the environment sends to (`http://localhost:4000/graphql`).
    ///   - service: the service id; by default from the document's name.
    package static func catalog(schema data: Data, documentName: String, url: URL, service: String? = nil) throws(AuthoringError) -> CatalogImport {
        let data = ImportedDocument.withoutByteOrderMark(data)
        let text = String(decoding: data, as: UTF8.self)
        let schema: GraphQLSchema
        do throws(GraphQLSchemaError) {
            if text.first(where: { !$0.isWhitespace }) == "{" {
                let root: JSONValue
                do { root = try JSONValue.parse(data) } catch {
                    throw GraphQLSchemaError(message: "not JSON: \(error)", line: 1, column: 1)
                }
                schema = try GraphQLSchema(introspection: root)
            } else {
                schema = try GraphQLSchemaParser.parse(text)
            }
        } catch {
            throw .invalidInput("\(documentName):\(error.line):\(error.column): \(error.message)")
        }
        guard let scheme = url.scheme, ["http", "https"].contains(scheme.lowercased()), let host = url.host, !host.isEmpty else {
            throw .usage("--url must be an http(s) URL such as http://localhost:4000/graphql, not '\(url.absoluteString)'")
        }
        let rootTypes = [("query", schema.queryType), ("mutation", schema.mutationType)].compactMap { operation, name in
            name.flatMap { schema.types[$0] }.map { (operation, $0) }
        }
        guard rootTypes.contains(where: { !$0.1.fields.isEmpty }) else {
            throw .invalidInput("\(documentName) has no query or mutation fields to call (a schema needs a Query type, or schema { query: … })")
        }

        let base = documentName.split(separator: "/").last.map { String($0.split(separator: ".").first ?? $0) } ?? "graphql"
        var draft = CatalogDraft(service: service ?? Identifier.make(base.lowercased(), fallback: "graphql"))
        draft.header = "Imported from \(documentName) (GraphQL schema) by `apiexplorer import graphql`."
        draft.title = schema.queryType.flatMap { schema.types[$0]?.description?.split(separator: "\n").first.map(String.init) } ?? "\(base) (GraphQL)"
        let origin = "\(scheme)://\(host)\(url.port.map { ":\($0)" } ?? "")"
        draft.environments = [CatalogDraft.Environment(name: "local", baseURL: origin, comment: "the GraphQL server; change the URL or add environments")]
        let path = url.path.isEmpty ? "/" : url.path

        var ids = UniqueNames()
        var notes: [ImportNote] = []
        for (operation, root) in rootTypes where !root.fields.isEmpty {
            let group = operation == "query" ? "queries" : "mutations"
            draft.groups.append(CatalogDraft.Group(id: group, title: operation == "query" ? "Queries" : "Mutations", headers: []))
            for field in root.fields {
                let made = GraphQLOperationBuilder(schema: schema).operation(operation, field: field)
                var endpoint = CatalogDraft.Endpoint(id: ids.claim(Identifier.camelCase([field.name], fallback: operation)), method: "POST", path: path)
                endpoint.title = field.description.flatMap { $0.split(separator: "\n").first.map(String.init) } ?? "\(operation) \(field.name)"
                endpoint.group = group
                endpoint.body = .graphql(query: made.query, variables: .object(made.variables), operationName: made.name)
                endpoint.parameters = made.parameters
                endpoint.stub = CatalogDraft.Example(name: "default", status: 200, body: .object(["data": .object([field.name: made.sample])]))
                draft.endpoints.append(endpoint)
            }
        }
        if let subscription = schema.subscriptionType, let fields = schema.types[subscription]?.fields, !fields.isEmpty {
            notes.append("\(fields.count) subscription field\(fields.count == 1 ? " was" : "s were") left out: subscriptions run over WebSocket protocols catalogs do not speak yet")
        }
        notes.append("\(draft.service): the operations select scalar fields \(selectionDepth) levels deep; edit a query's selection in the catalog or the explorer's editor")
        return CatalogImport(drafts: [draft], notes: notes)
    }
}
