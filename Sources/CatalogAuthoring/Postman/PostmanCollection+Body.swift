import JSONSupport

extension PostmanCollection {
    /// A request body: raw (JSON when it parses), url-encoded, form-data (a `multipart:` body,
    /// its files copied beside the catalog), a file, GraphQL (a `graphql:` body, whose errors
    /// inside a 2xx the built-in rule maps). Files that cannot be read are left out with a note.
    mutating func addBody(_ body: JSONValue, service: String, at location: String, to endpoint: inout CatalogDraft.Endpoint) {
        let owner = "endpoint \(endpoint.id)"
        switch body.member("mode")?.text {
        case "raw":
            let text = rewrite(body.member("raw")?.text ?? "")
            guard !text.isEmpty else { return }
            let language = body.member("options")?.member("raw")?.member("language")?.text ?? ""
            let contentType = endpoint.header("Content-Type") ?? RequestBodyText.contentType(language: language)
            endpoint.body = RequestBodyText.body(text, contentType: contentType)
            if case .text = endpoint.body, (contentType ?? "").contains("json"), text.contains("{{") {
                notes.append(ImportNote(.repaired, at: location, "\(owner): its JSON body holds placeholders outside strings (templated JSON), so it is kept as text"))
            }
            if case .json(let value) = endpoint.body { endpoint.body = .json(secrets.json(value)) }
            if case .form(let fields) = endpoint.body { endpoint.body = .form(fields.map { ($0.0, secrets.value(named: $0.0, $0.1)) }) }
            if case .text = endpoint.body, endpoint.header("Content-Type") == nil, let type = RequestBodyText.contentType(language: language) {
                endpoint.headers.append(("Content-Type", type))
            }
        case "urlencoded":
            endpoint.body = .form(fields(body.member("urlencoded")).map { ($0.name, $0.value) })
        case "formdata":
            // A multipart body of the catalog's own kind: files are copied beside the catalog and
            // streamed from there when sent. A file that cannot be read (a path on the exporter's
            // machine) stays a file field whose file is a placeholder to set: marked missing.
            var parts: [CatalogDraft.MultipartDraftField] = []
            var missing: [String] = []
            var names = UniqueNames()
            for field in fields(body.member("formdata")) {
                guard field.isFile else {
                    parts.append(CatalogDraft.MultipartDraftField(name: field.name, value: field.value, contentType: field.contentType))
                    continue
                }
                for source in field.sources.isEmpty ? [""] : field.sources {
                    let name = source.split(separator: "/").last.map(String.init) ?? source
                    guard !source.isEmpty, let data = readFile(source) else {
                        let variable = names.claim(Identifier.variable(field.name) + "_file")
                        parts.append(CatalogDraft.MultipartDraftField(name: field.name, file: "{{\(variable)}}", filename: name.isEmpty ? nil : name, contentType: field.contentType))
                        missing.append("\(field.name) (\(source.isEmpty ? "no file chosen" : source)): set {{\(variable)}}")
                        continue
                    }
                    let path = "fixtures/\(service)/\(endpoint.id)-\(Identifier.make(field.name, fallback: "file"))-\(Identifier.make(name, fallback: "file"))"
                    bodyFiles.append((path, data))
                    parts.append(CatalogDraft.MultipartDraftField(name: field.name, file: path, filename: name, contentType: field.contentType))
                }
            }
            if !missing.isEmpty {
                notes.append(ImportNote(
                    .repaired, at: location,
                    "\(owner): the form-data file field\(missing.count == 1 ? "" : "s") \(missing.joined(separator: "; ")) could not be read: kept as file field\(missing.count == 1 ? "" : "s") marked missing; copy the file beside the catalog and give its path"))
                endpoint.comment.append("multipart file fields marked missing (their files were not found): \(missing.joined(separator: "; "))")
            }
            endpoint.headers.removeAll { $0.0.lowercased() == "content-type" }
            if parts.isEmpty {
                notes.append(ImportNote(.info, at: location, "\(owner): its form-data body has no enabled field: no body was kept"))
            } else {
                endpoint.body = .multipart(parts)
            }
        case "file":
            let source = body.member("file")?.member("src")?.text ?? "a file"
            if let data = readFile(source) {
                let name = source.split(separator: "/").last.map(String.init) ?? source
                let path = "fixtures/\(service)/\(endpoint.id)-body-\(Identifier.make(name, fallback: "body"))"
                bodyFiles.append((path, data))
                endpoint.body = .file(path)
                return
            }
            endpoint.body = .file("{{body_file}}")
            endpoint.comment.append("its body file was not found (\(source)): set body_file to a file in this folder")
            notes.append(ImportNote(.repaired, at: location, "\(owner): its body is read from \(source), which could not be read: kept as a body file marked missing; copy it beside the catalog and set {{body_file}}"))
        case "graphql":
            let graphql = body.member("graphql")
            let query = rewrite(graphql?.member("query")?.text ?? "")
            let variablesText = rewrite(graphql?.member("variables")?.text ?? "")
            let variables = variablesText.trimmed.isEmpty ? JSONValue.object([:]) : (try? JSONValue.parse(variablesText))
            guard let variables else {
                // Templated JSON (`{ "id": {{streamId}} }`) is JSON only once filled in.
                notes.append(ImportNote(.repaired, at: location, "\(owner): its GraphQL variables are not JSON until their placeholders are filled (templated JSON): the body is kept as text"))
                endpoint.body = .text(#"{"query": \#(YAMLText.quoted(query)), "variables": \#(variablesText)}"#)
                if endpoint.header("Content-Type") == nil { endpoint.headers.append(("Content-Type", "application/json")) }
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
    package func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
