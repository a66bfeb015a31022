import JSONSupport

extension PostmanCollection {
    /// A request body: raw (JSON when it parses), url-encoded, form-data (text fields as a
    /// multipart body), GraphQL (a `graphql:` body, whose errors inside a 2xx the built-in rule
    /// maps); files are left out with a note.
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
            let all = fields(body.member("formdata"))
            let files = all.filter(\.isFile).map(\.name)
            if !files.isEmpty { notes.append("\(owner): the form-data file fields \(files.joined(separator: ", ")) were left out (catalogs send text fields)") }
            let (text, contentType) = RequestBodyText.multipart(all.filter { !$0.isFile }.map { ($0.name, $0.value) })
            endpoint.headers.removeAll { $0.0.lowercased() == "content-type" }
            endpoint.headers.append(("Content-Type", contentType))
            endpoint.body = .text(text)
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

    /// The enabled fields of an `urlencoded` or `formdata` list.
    private mutating func fields(_ list: JSONValue?) -> [(name: String, value: String, isFile: Bool)] {
        (list?.elements ?? []).compactMap { field in
            guard let name = field.member("key")?.text, field.member("disabled") != .bool(true) else { return nil }
            let value = field.member("value").map(PostmanVariable.text) ?? ""
            return (name, rewrite(secrets.value(named: name, value)), field.member("type")?.text == "file")
        }
    }
}

extension CatalogDraft.Endpoint {
    /// The value of a header the endpoint sets (the name compared without case).
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
