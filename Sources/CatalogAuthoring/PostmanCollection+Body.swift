import JSONSupport

extension PostmanCollection {
    /// A request body: raw (JSON when it parses), url-encoded, form-data (a `multipart:` body,
    /// its files copied beside the catalog), a file, GraphQL (a `graphql:` body, whose errors
    /// inside a 2xx the built-in rule maps). Files that cannot be read are left out with a note.
    mutating func addBody(_ body: JSONValue, service: String, to endpoint: inout CatalogDraft.Endpoint) {
        let owner = "endpoint \(endpoint.id)"
        switch body.member("mode")?.text {
        case "raw":
            let text = rewrite(body.member("raw")?.text ?? "")
            guard !text.isEmpty else { return }
            let language = body.member("options")?.member("raw")?.member("language")?.text ?? ""
            endpoint.body = RequestBodyText.body(text, contentType: endpoint.header("Content-Type") ?? RequestBodyText.contentType(language: language))
            if case .json(let value) = endpoint.body { endpoint.body = .json(secrets.json(value)) }
            if case .form(let fields) = endpoint.body { endpoint.body = .form(fields.map { ($0.0, secrets.value(named: $0.0, $0.1)) }) }
            if case .text = endpoint.body, endpoint.header("Content-Type") == nil, let type = RequestBodyText.contentType(language: language) {
                endpoint.headers.append(("Content-Type", type))
            }
        case "urlencoded":
            endpoint.body = .form(fields(body.member("urlencoded")).map { ($0.name, $0.value) })
        case "formdata":
            // A multipart body of the catalog's own kind: files are copied beside the catalog and
            // streamed from there when sent; a file that cannot be read is left out with a note.
            var parts: [CatalogDraft.MultipartDraftField] = []
            var missing: [String] = []
            for field in fields(body.member("formdata")) {
                guard field.isFile else {
                    parts.append(CatalogDraft.MultipartDraftField(name: field.name, value: field.value, contentType: field.contentType))
                    continue
                }
                let sources = field.sources
                guard !sources.isEmpty else {
                    missing.append("\(field.name) (no file chosen)")
                    continue
                }
                for source in sources {
                    guard let data = readFile(source) else {
                        missing.append("\(field.name) (\(source))")
                        continue
                    }
                    let name = source.split(separator: "/").last.map(String.init) ?? source
                    let path = "fixtures/\(service)/\(endpoint.id)-\(Identifier.make(field.name, fallback: "file"))-\(Identifier.make(name, fallback: "file"))"
                    bodyFiles.append((path, data))
                    parts.append(CatalogDraft.MultipartDraftField(name: field.name, file: path, filename: name, contentType: field.contentType))
                }
            }
            if !missing.isEmpty {
                notes.append("\(owner): the form-data file field\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", ")) could not be read and \(missing.count == 1 ? "was" : "were") left out; copy the file beside the catalog and add it to multipart")
            }
            endpoint.headers.removeAll { $0.0.lowercased() == "content-type" }
            endpoint.body = .multipart(parts)
        case "file":
            let source = body.member("file")?.member("src")?.text ?? "a file"
            if let data = readFile(source) {
                let name = source.split(separator: "/").last.map(String.init) ?? source
                let path = "fixtures/\(service)/\(endpoint.id)-body-\(Identifier.make(name, fallback: "body"))"
                bodyFiles.append((path, data))
                endpoint.body = .file(path)
                return
            }
            notes.append("\(owner): its body is read from \(source), which was left out; copy it beside the catalog and give it with bodyFile")
        case "graphql":
            let graphql = body.member("graphql")
            let query = rewrite(graphql?.member("query")?.text ?? "")
            let variablesText = rewrite(graphql?.member("variables")?.text ?? "")
            let variables = variablesText.trimmed.isEmpty ? JSONValue.object([:]) : (try? JSONValue.parse(variablesText))
            guard let variables else {
                notes.append("\(owner): its GraphQL variables are not JSON; the body was sent as text")
                endpoint.body = .text(#"{"query": \#(YAMLText.quoted(query)), "variables": \#(variablesText)}"#)
                endpoint.headers.append(("Content-Type", "application/json"))
                return
            }
            endpoint.body = .graphql(query: query, variables: secrets.json(variables), operationName: nil)
        default:
            break
        }
    }

    /// A field of an `urlencoded` or `formdata` list.
    struct FormField {
        var name: String
        var value: String
        var isFile: Bool
        /// The files a file field names (Postman writes one path or a list).
        var sources: [String]
        var contentType: String?
    }

    /// The enabled fields of an `urlencoded` or `formdata` list.
    private mutating func fields(_ list: JSONValue?) -> [FormField] {
        (list?.elements ?? []).compactMap { field in
            guard let name = field.member("key")?.text, field.member("disabled") != .bool(true) else { return nil }
            let value = field.member("value").map(PostmanVariable.text) ?? ""
            let source = field.member("src")
            let sources = source?.text.map { [$0] } ?? source?.elements.compactMap(\.text) ?? []
            return FormField(
                name: name, value: rewrite(secrets.value(named: name, value)), isFile: field.member("type")?.text == "file",
                sources: sources.filter { !$0.isEmpty }, contentType: field.member("contentType")?.text.flatMap { $0.isEmpty ? nil : $0 })
        }
    }
}

extension CatalogDraft.Endpoint {
    /// The value of a header the endpoint sets (the name compared without case).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
