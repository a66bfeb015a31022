import FoundationEssentials
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
            // machine, or one outside the document's folder) stays a file field whose file is a
            // placeholder to set: marked missing.
            var parts: [CatalogDraft.MultipartDraftField] = []
            var missing: [String] = []
            var names = UniqueNames()
            for field in fields(body.member("formdata")) {
                guard field.isFile else {
                    parts.append(CatalogDraft.MultipartDraftField(name: field.name, value: field.value, contentType: field.contentType))
                    continue
                }
                if let inline = field.inline {
                    // A `.http` part written inline with a filename: its text is the file.
                    let name = field.filename ?? field.name
                    let path = "fixtures/\(service)/\(endpoint.id)-\(Identifier.make(field.name, fallback: "file"))-\(Identifier.make(name, fallback: "file"))"
                    bodyFiles.append((path, Data(inline.utf8)))
                    parts.append(CatalogDraft.MultipartDraftField(name: field.name, file: path, filename: name, contentType: field.contentType))
                    continue
                }
                for source in field.sources.isEmpty ? [""] : field.sources {
                    let name = field.filename ?? Self.fileName(source)
                    let copied = source.isEmpty ? nil : copy(source, to: "fixtures/\(service)/\(endpoint.id)-\(Identifier.make(field.name, fallback: "file"))-\(Identifier.make(name, fallback: "file"))")
                    guard let path = copied?.path else {
                        let variable = names.claim(Identifier.variable(field.name) + "_file")
                        parts.append(CatalogDraft.MultipartDraftField(name: field.name, file: "{{\(variable)}}", filename: name.isEmpty ? nil : name, contentType: field.contentType))
                        let why = source.isEmpty ? "has no file chosen" : "names \(source), which \(copied?.refusal?.description ?? "could not be read")"
                        missing.append("'\(field.name)' \(why): set {{\(variable)}}")
                        continue
                    }
                    parts.append(CatalogDraft.MultipartDraftField(name: field.name, file: path, filename: name, contentType: field.contentType))
                }
            }
            if !missing.isEmpty {
                notes.append(ImportNote(
                    .repaired, at: location,
                    "\(owner): form-data file field \(missing.joined(separator: "; ")); kept as a file field marked missing (copy the file beside the catalog and give its path)"))
                endpoint.comment.append("multipart file fields marked missing (their files were not read): \(missing.joined(separator: "; "))")
            }
            endpoint.headers.removeAll { $0.0.lowercased() == "content-type" }
            if parts.isEmpty {
                notes.append(ImportNote(.info, at: location, "\(owner): its form-data body has no enabled field: no body was kept"))
            } else {
                endpoint.body = .multipart(parts)
            }
        case "file":
            let source = body.member("file")?.member("src")?.text ?? ""
            let copied = source.isEmpty ? nil : copy(source, to: "fixtures/\(service)/\(endpoint.id)-body-\(Identifier.make(Self.fileName(source), fallback: "body"))")
            if let path = copied?.path {
                endpoint.body = .file(path)
                return
            }
            let why = source.isEmpty ? "names no file" : "is read from \(source), which \(copied?.refusal?.description ?? "could not be read")"
            endpoint.body = .file("{{body_file}}")
            endpoint.comment.append("its body file was not read (\(source.isEmpty ? "none chosen" : source)): set body_file to a file in this folder")
            notes.append(ImportNote(.repaired, at: location, "\(owner): its body \(why): kept as a body file marked missing; copy it beside the catalog and set {{body_file}}"))
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

    /// The last part of a file reference (`C:\\files\\a.png` and `./a.png` are both `a.png`).
    static func fileName(_ source: String) -> String {
        source.split(whereSeparator: { $0 == "/" || $0 == "\\" }).last.map(String.init) ?? source
    }

    /// Copies the document's file `source` beside the catalog at `path` (its mode kept, never
    /// wider); nil path and the reason when it was not read.
    mutating func copy(_ source: String, to path: String) -> (path: String?, refusal: LocalFileRefusal?) {
        switch files.read(source) {
        case .read(let data, let permissions):
            // A file under `fixtures/` (what `export http` writes) keeps its path: a round trip changes nothing.
            let kept = DocumentFiles.fixturePath(source).flatMap { kept in
                (services.flatMap(\.draft.fixtures) + bodyFiles).allSatisfy { $0.path != kept || $0.data == data } ? kept : nil
            }
            let path = kept ?? path
            bodyFiles.append((path, data))
            bodyFileModes[path] = permissions
            return (path, nil)
        case .refused(let reason):
            return (nil, reason)
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
        /// The filename sent, when the document gives one apart from the file's own name.
        var filename: String?
        /// A file's content written in the document itself (a `.http` part with a filename).
        var inline: String?
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
                sources: sources.filter { !$0.isEmpty }, contentType: field.member("contentType")?.text.flatMap { $0.isEmpty ? nil : $0 },
                filename: field.member("apiexplorerFilename")?.text, inline: field.member("apiexplorerContent")?.text)
        }
    }
}

extension CatalogDraft.Endpoint {
    /// The value of a header the endpoint sets (the name compared without case).
    package func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }
}
