import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport

/// Turns an OpenAPI 3.0 / 3.1 / 3.2 document (or Swagger 2.0) into a catalog: one endpoint per
/// operation (parameters as `{{placeholders}}` serialized by their `style` and `explode`, required
/// ones filled, optional ones written commented out), tags as groups, servers as environments (plus
/// a `local` one pointing at `apiexplorer mock`), the first security requirement's schemes as
/// headers holding `{{secret.NAME}}`, and example responses (or samples built from their schemas)
/// as fixtures.
package enum OpenAPIImporter {
    /// The operations of a path item, in the order they are imported.
    static let methods = ["get", "post", "patch", "put", "delete", "head", "options", "trace", "query"]

    /// The import of a document's bytes (JSON or YAML): the catalog and the notes.
    package static func catalog(
        from data: Data, documentName: String, service: String? = nil, files: DocumentFiles? = nil
    ) throws(AuthoringError) -> CatalogImport {
        let draft = try draft(from: data, documentName: documentName, service: service, files: files)
        return CatalogImport(drafts: [draft], notes: draft.notes)
    }

    /// The catalog for a document's bytes (JSON or YAML); `service` overrides the id taken from the
    /// title; `files` gives the files its `$ref`s name, relative to the document (nil: only
    /// references within the document are followed; files outside its folder never are).
    package static func draft(
        from data: Data, documentName: String, service: String? = nil, files: DocumentFiles? = nil
    ) throws(AuthoringError) -> CatalogDraft {
        let document = try OpenAPIDocument(data: data, documentName: documentName, files: files)
        let info = document["info"]
        let title = info?.member("title")?.text ?? "imported"
        var builder = Builder(document: document, documentName: documentName, service: service ?? Identifier.make(title.lowercased(), fallback: "imported"))
        builder.draft.notes += document.notes
        builder.draft.title = title
        builder.draft.description = info?.member("description")?.text.map(Self.wholeText).flatMap { $0.isEmpty ? nil : $0 }
        let shown = document.version.hasPrefix("Swagger") ? document.version : "OpenAPI \(document.version)"
        builder.draft.header = "Imported from \(documentName) (\(shown), \"\(title)\" \(info?.member("version")?.text ?? "")) by `apiexplorer import openapi`."
        builder.addEnvironments()
        for (path, item) in document.resolve(document["paths"])?.members ?? [] {
            guard let item = document.resolve(item) else {
                builder.draft.notes.append(ImportNote(.skipped, at: DocumentPlace.pointer(documentName, ["paths", path]), "\(path) was left out: its $ref cannot be followed (a URL, or a file that cannot be read)"))
                continue
            }
            for method in methods {
                guard let operation = document.resolve(item.member(method)) else { continue }
                builder.add(Operation(path: path, method: method.uppercased(), item: item, operation: operation))
                // Endpoints `export openapi` kept beside this one (same method and path).
                for (index, alternative) in (operation.member(OpenAPIExporter.alternativesKey)?.elements ?? []).enumerated() {
                    builder.add(Operation(path: path, method: method.uppercased(), item: item, operation: alternative, alternative: index))
                }
            }
        }
        builder.noteWebhooks()
        builder.finish()
        builder.restoreExportedOrder()
        if builder.draft.endpoints.isEmpty {
            let webhooks = document["webhooks"]?.members.count ?? 0
            throw .invalidInput(
                "\(documentName) has no operation under paths to call"
                    + (webhooks > 0 ? " (it describes \(webhooks) webhook\(webhooks == 1 ? "" : "s"), requests the API sends to you, which a catalog does not call)" : "")
                    + "; nothing was written")
        }
        return builder.draft
    }

    /// A description as the document writes it, whole, without the line break YAML's `|` leaves at its end.
    static func wholeText(_ text: String) -> String {
        String(text.trimmingSuffix { $0.isWhitespace || $0.isNewline })
    }

    /// One operation with the path item it belongs to.
    struct Operation {
        var path: String
        var method: String
        var item: JSONValue
        var operation: JSONValue
        /// Its position among the operation's `x-apiexplorer-alternatives`, when it is one.
        var alternative: Int?

        var operationID: String? { operation.member("operationId")?.text }
        var summary: String? { operation.member("summary")?.text ?? item.member("summary")?.text }
        var description: String? { operation.member("description")?.text ?? item.member("description")?.text }
    }

    /// What a security scheme adds to a request.
    struct Credential: Equatable {
        var headers: [(String, String)] = []
        var query: [(String, String)] = []
        /// The schemes it comes from, in the document's order.
        var schemes: [String] = []

        static func == (lhs: Credential, rhs: Credential) -> Bool {
            lhs.headers.map { "\($0.0)\u{0}\($0.1)" } == rhs.headers.map { "\($0.0)\u{0}\($0.1)" }
                && lhs.query.map { "\($0.0)\u{0}\($0.1)" } == rhs.query.map { "\($0.0)\u{0}\($0.1)" }
        }
    }

    private struct Builder {
        let document: OpenAPIDocument
        let documentName: String
        var draft: CatalogDraft
        var secrets: [String] = []
        var endpointIDs = UniqueNames()
        var groupIDs = UniqueNames()
        /// The group of each tag, by tag name.
        var tagGroups: [String: String] = [:]
        /// The group of each security requirement for endpoints without a tag, by the schemes' names.
        var schemeGroups: [String: String] = [:]
        /// Each endpoint's credentials (by index), placed on its group or itself by `finish`.
        var credentials: [Int: Credential] = [:]
        /// Endpoints whose credentials stay their own (`export openapi` marks them: they had no group).
        var ungrouped: Set<Int> = []
        /// The response schemas, for contract checks.
        var schemas: ResponseSchemaKeeper
        /// Groups whose headers `export openapi` kept as written (credentials are not moved onto them).
        var exportedGroups: Set<String> = []
        /// Each endpoint's place in the catalog `export openapi` wrote it from, by index.
        var exportedPositions: [Int: Int] = [:]

        init(document: OpenAPIDocument, documentName: String, service: String) {
            self.document = document
            self.documentName = documentName
            schemas = ResponseSchemaKeeper(document: document, documentName: documentName)
            draft = CatalogDraft(service: service)
        }

        func location(_ operation: Operation, _ rest: String...) -> String {
            let alternative = operation.alternative.map { [OpenAPIExporter.alternativesKey, String($0)] } ?? []
            return DocumentPlace.pointer(documentName, ["paths", operation.path, operation.method.lowercased()] + alternative + rest)
        }

        mutating func addEnvironments() {
            if let variables = document[OpenAPIExporter.variablesKey]?.members {
                draft.variables = variables.compactMap { member in member.value.text.map { (member.key, $0) } }
            }
            if let exported = document[OpenAPIExporter.environmentsKey]?.elements, !exported.isEmpty {
                addExportedEnvironments(exported)
                return
            }
            var local = CatalogDraft.Environment(
                name: "local", baseURL: "http://127.0.0.1:4010/\(draft.service)", comment: "the mock server: `apiexplorer mock`")
            local.fixtures = "immediate"
            draft.environments.append(local)
            var names: Set<String> = ["local"]
            for (index, server) in (document.resolve(document["servers"])?.elements ?? []).enumerated() {
                guard var url = server.member("url")?.text else { continue }
                for (name, variable) in server.member("variables")?.members ?? [] {
                    url = url.replacing("{\(name)}", with: variable.member("default")?.text ?? "")
                }
                while url.hasSuffix("/") { url.removeLast() }
                guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil else {
                    draft.notes.append(ImportNote(.info, at: DocumentPlace.pointer(documentName, ["servers", String(index)]), "server '\(url)' is not an absolute http(s) URL; it was left out"))
                    continue
                }
                let description = server.member("description")?.text
                let label = server.member("name")?.text ?? description ?? ""
                var name = Identifier.make(label.lowercased(), fallback: "server\(index + 1)")
                if name.count > 24 || names.contains(name) { name = "server\(index + 1)" }
                names.insert(name)
                let lower = label.lowercased() + " " + url.lowercased()
                let type = lower.contains("prod") ? "production" : lower.contains("stag") ? "staging" : "development"
                var environment = CatalogDraft.Environment(name: name, type: type, baseURL: url, comment: description)
                environment.fixtures = "never"
                draft.environments.append(environment)
            }
        }

        /// The environments `export openapi` kept whole (each with an absolute http(s) base URL; others noted and left out).
        mutating func addExportedEnvironments(_ exported: [JSONValue]) {
            var names = UniqueNames()
            for (index, value) in exported.enumerated() {
                let place = DocumentPlace.pointer(documentName, [OpenAPIExporter.environmentsKey, String(index)])
                guard let base = value.member("baseURL")?.text, let url = URL(string: base), url.scheme == "http" || url.scheme == "https", url.host != nil else {
                    draft.notes.append(ImportNote(.skipped, at: place, "an environment without an absolute http(s) baseURL was left out"))
                    continue
                }
                let name = names.claim(Identifier.make(value.member("name")?.text ?? "", fallback: "environment\(index + 1)"))
                var environment = CatalogDraft.Environment(name: name, type: value.member("type")?.text ?? "development", baseURL: base)
                environment.headers = Self.pairs(value.member("headers"))
                environment.variables = value.member("variables")?.members.compactMap { member in member.value.text.map { (member.key, $0) } } ?? []
                let fixtures = value.member("fixtures")?.text ?? "never"
                environment.fixtures = fixtures == "immediate" || fixtures == "never" || fixtures.hasPrefix("delayed(") ? fixtures : "never"
                draft.environments.append(environment)
            }
            if draft.environments.isEmpty {
                var local = CatalogDraft.Environment(name: "local", baseURL: "http://127.0.0.1:4010/\(draft.service)", comment: "the mock server: `apiexplorer mock`")
                local.fixtures = "immediate"
                draft.environments.append(local)
            }
        }

        mutating func add(_ operation: Operation) {
            let method = operation.method
            guard HTTPMethod(rawValue: method) != nil else {
                draft.notes.append(ImportNote(.skipped, at: location(operation), "\(method) \(operation.path) was left out: catalogs do not send \(method)"))
                return
            }
            let segments = operation.path.split(separator: "/").map(String.init)
            let words = segments.filter { !$0.hasPrefix("{") }
            let parameters = segments.filter { $0.hasPrefix("{") }
            // Without an operationId, `GET /users/{id}` after `GET /users` is `getUsersById`, not `getUsers2`.
            let byParameters = parameters.isEmpty ? [] : [Identifier.camelCase([method.lowercased()] + words + ["by"] + parameters, fallback: "operation")]
            let id = endpointIDs.claim(
                operation.operationID.map { Identifier.make($0, fallback: "operation") }
                    ?? Identifier.camelCase([method.lowercased()] + words, fallback: "operation"),
                alternatives: operation.operationID == nil ? byParameters : [])
            // A path key holding a query (`/responses?beta=true`): the path, and the query as fixed
            // items. One holding a fragment (`/shared_items#web_links`: documents tell operations of
            // one path apart so) is the path: a fragment is never sent.
            let (pathPart, fixedQuery, fragment) = Self.splittingQuery(operation.path)
            var result = CatalogDraft.Endpoint(id: id, method: method, path: placeholderPath(pathPart))
            result.source = location(operation)
            if let fixedQuery {
                result.query = RequestURL.queryItems(Substring(fixedQuery)).map { ($0.name, $0.value) }
                draft.notes.append(ImportNote(.repaired, at: result.source, "a path holds a query (\(operation.path)): the path is \(pathPart), the query items are sent with every request"))
            }
            if fragment != nil {
                draft.notes.append(ImportNote(.repaired, at: result.source, "a path holds a fragment, which is never sent: the path is \(pathPart)"))
            }
            result.title = operation.summary.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }.map(OpenAPIImporter.wholeText)
            result.description = operation.description.map(OpenAPIImporter.wholeText).flatMap { $0.isEmpty ? nil : $0 }
            if let tag = operation.operation.member("tags")?.elements.first?.text {
                result.group = tagGroup(tag)
            }
            let exported = operation.operation.member(OpenAPIExporter.requestKey)
            var credential: Credential?
            if exported == nil {
                addParameters(operation, to: &result)
                credential = security(operation, endpoint: result.id)
            }
            addBody(operation, to: &result)
            if let exported, applyExportedRequest(exported, to: &result) {
                // The endpoint as its catalog wrote it: its headers are exactly these.
                if let position = exported.member("position")?.intValue { exportedPositions[draft.endpoints.count] = position }
            } else {
                protectCredentials(in: &result)
            }
            if result.body == nil {
                // Content-Type and friends describe a body: without one they say nothing true.
                let bodyHeaders: Set<String> = ["content-type", "content-length", "content-encoding"]
                if result.headers.contains(where: { bodyHeaders.contains($0.0.lowercased()) }) {
                    draft.notes.append(ImportNote(.repaired, at: result.source, "the \(result.headers.filter { bodyHeaders.contains($0.0.lowercased()) }.map(\.0).joined(separator: ", ")) header was left out: the request has no body"))
                    result.headers.removeAll { bodyHeaders.contains($0.0.lowercased()) }
                }
            }
            addResponses(operation, to: &result)
            schemas.keep(endpoint: result.id, responses: operation.operation.member("responses"))
            if let credential { credentials[draft.endpoints.count] = credential }
            if operation.operation.member(OpenAPIExporter.ungroupedKey) == .bool(true) { ungrouped.insert(draft.endpoints.count) }
            draft.endpoints.append(result)
        }

        /// Credentials in a request body's samples or examples (`"password": "string"`) become
        /// secrets (`{{secret.SHOP_PASSWORD}}`, a stand-in in `local`): never written, never a
        /// literal `validate` warns about. Members only named like one (`token_id`) become
        /// placeholders with the sample as their value.
        mutating func protectCredentials(in endpoint: inout CatalogDraft.Endpoint) {
            func protect(_ name: String, _ text: String) -> String {
                guard !text.isEmpty, !text.contains("{{"), Redactor.standard.isSensitiveQuery(name) else { return text }
                if CredentialName.isCredential(name) {
                    let secret = name.lowercased().hasPrefix(draft.service.lowercased()) ? Identifier.secretName(name) : Identifier.secretName(draft.service, name)
                    if !secrets.contains(secret) { secrets.append(secret) }
                    return "{{secret.\(secret)}}"
                }
                let variable = Identifier.variable(name)
                if !endpoint.parameters.contains(where: { $0.0 == variable }) { endpoint.parameters.append((variable, text)) }
                return "{{\(variable)}}"
            }
            func walk(_ value: JSONValue, name: String) -> JSONValue {
                switch value {
                case .object(let object): return .object(JSONObject(object.map { ($0.key, walk($0.value, name: $0.key)) }))
                case .array(let elements): return .array(elements.map { walk($0, name: name) })
                case .string(let text): return .string(protect(name, text))
                default: return value
                }
            }
            switch endpoint.body {
            case .json(let value): endpoint.body = .json(walk(value, name: ""))
            case .form(let fields): endpoint.body = .form(fields.map { ($0.0, protect($0.0, $0.1)) })
            case .multipart(let fields):
                endpoint.body = .multipart(fields.map { field in
                    var field = field
                    field.value = field.value.map { protect(field.name, $0) }
                    return field
                })
            default: break
            }
        }

        /// The path `export openapi` gave a body file or multipart file (`x-apiexplorer-file`),
        /// when it is one an import may write: under `fixtures/`, inside the catalog folder (the
        /// document is a stranger's: it must not place a catalog file or climb out).
        static func exportedFile(_ object: JSONValue?) -> String? {
            object?.member(OpenAPIExporter.fileKey)?.text.flatMap(DocumentFiles.fixturePath)
        }

        /// `path` when no fixture of the draft holds other bytes there.
        func freeFixturePath(_ path: String, for data: Data) -> String? {
            draft.fixtures.allSatisfy { $0.path != path || $0.data == data } ? path : nil
        }

        /// The request `export openapi` kept as its endpoint wrote it, on `result`: path, query,
        /// headers, parameters and omitted headers exactly (what the OpenAPI view of it cannot say).
        func applyExportedRequest(_ request: JSONValue, to result: inout CatalogDraft.Endpoint) -> Bool {
            guard let path = request.member("path")?.text, path.hasPrefix("/") else { return false }
            result.path = path
            result.query = request.member("query")?.elements.compactMap { pair -> (String, String?)? in
                guard let name = pair.elements.first?.text else { return nil }
                return (name, pair.elements.dropFirst().first?.text)
            } ?? []
            result.headers = Self.pairs(request.member("headers"))
            result.parameters = request.member("parameters")?.members.compactMap { member in member.value.text.map { (member.key, $0) } } ?? []
            result.omitHeaders = request.member("omitHeaders")?.elements.compactMap(\.text) ?? []
            result.optionalQuery = []
            result.optionalHeaders = []
            return true
        }

        /// `[[name, value]]` as pairs.
        static func pairs(_ value: JSONValue?) -> [(String, String)] {
            (value?.elements ?? []).compactMap { pair in
                guard let name = pair.elements.first?.text, let value = pair.elements.dropFirst().first?.text else { return nil }
                return (name, value)
            }
        }

        /// `/a?b=1#c` → `/a`, `b=1` and `c`; a path without `?` or `#` as it is.
        static func splittingQuery(_ path: String) -> (path: String, query: String?, fragment: String?) {
            let hash = path.firstIndex(of: "#")
            let fragment = hash.map { String(path[path.index(after: $0)...]) }
            let beforeFragment = hash.map { String(path[..<$0]) } ?? path
            guard let mark = beforeFragment.firstIndex(of: "?") else { return (beforeFragment, nil, fragment) }
            let query = String(beforeFragment[beforeFragment.index(after: mark)...])
            return (String(beforeFragment[..<mark]), query.isEmpty ? nil : query, fragment)
        }

        /// The group a tag stands for, made on first use (its title and description from the document's `tags`).
        mutating func tagGroup(_ tag: String) -> String {
            if let id = tagGroups[tag] { return id }
            let id = groupIDs.claim(Identifier.make(tag, fallback: "tag"))
            tagGroups[tag] = id
            let declared = document["tags"]?.elements.first { $0.member("name")?.text == tag }
            var group = CatalogDraft.Group(id: id, title: declared?.member("x-displayName")?.text ?? (tag == id ? nil : tag), headers: [])
            if let exported = document[OpenAPIExporter.groupsKey]?.member(tag) {
                group.headers = Self.pairs(exported.member("headers"))
                exportedGroups.insert(id)
            }
            group.description = declared?.member("description")?.text.map(OpenAPIImporter.wholeText).flatMap { $0.isEmpty ? nil : $0 }
            draft.groups.append(group)
            return id
        }

        /// `/pets/{pet-id}` → `/pets/{{pet_id}}`.
        func placeholderPath(_ path: String) -> String {
            var result = ""
            var name: String?
            for character in path {
                switch character {
                case "{" where name == nil: name = ""
                case "}" where name != nil:
                    result += "{{\(Identifier.variable(name ?? ""))}}"
                    name = nil
                default:
                    if name != nil { name?.append(character) } else { result.append(character) }
                }
            }
            return result + (name.map { "{" + $0 } ?? "")
        }

        /// The path item's parameters, then the operation's (which win for the same name and place).
        func parameters(_ operation: Operation) -> [JSONValue] {
            var result: [JSONValue] = []
            func key(_ parameter: JSONValue) -> String { "\(parameter.member("in")?.text ?? "")\u{0}\(parameter.member("name")?.text ?? "")" }
            for parameter in operation.item.member("parameters")?.elements ?? [] {
                if let resolved = document.resolve(parameter) { result.append(resolved) }
            }
            for parameter in operation.operation.member("parameters")?.elements ?? [] {
                guard let resolved = document.resolve(parameter) else { continue }
                result.removeAll { key($0) == key(resolved) }
                result.append(resolved)
            }
            return result
        }

        /// Required parameters become placeholders with values, serialized by their style;
        /// optional ones are written commented out with a value to send. Names that differ only by
        /// punctuation (`DateCreated<`, `DateCreated>`, `DateCreated`) get placeholders of their
        /// own; path parameters keep the names the path uses.
        mutating func addParameters(_ operation: Operation, to result: inout CatalogDraft.Endpoint) {
            let all = parameters(operation)
            let inPath = all.filter { $0.member("in")?.text == "path" }.compactMap { $0.member("name")?.text }
            var variables = UniqueNames(taken: Set(inPath.map(Identifier.variable)))
            var cookies: [String] = []
            for parameter in all {
                guard let name = parameter.member("name")?.text, let location = parameter.member("in")?.text else { continue }
                // OpenAPI: header parameters named Accept, Content-Type or Authorization are ignored.
                if location == "header", ["accept", "content-type", "authorization"].contains(name.lowercased()) { continue }
                let required = parameter.member("required") == .bool(true) || location == "path"
                let style = parameter.member("style")?.text ?? ParameterStyle.defaultStyle(in: location)
                let explode = ParameterStyle.explode(parameter.member("explode"), style: style)
                let value = explicitValue(parameter) ?? parameterSchema(parameter).map { Samples(document: document).value(for: $0) } ?? "1"
                switch location {
                case "path":
                    result.parameters.append((Identifier.variable(name), ParameterStyle.text(name: name, value: value, style: style, explode: explode)))
                case "query":
                    if parameter.member("allowEmptyValue") == .bool(true), explicitValue(parameter) == nil, required {
                        result.query.append((name, nil))  // a bare name: `?verbose`
                        continue
                    }
                    let pairs = ParameterStyle.pairs(name: name, value: value, style: style, explode: explode)
                    guard required else {
                        result.optionalQuery += pairs
                        continue
                    }
                    for (pairName, text) in pairs {
                        let variable = variables.claim(Identifier.variable(pairName))
                        result.query.append((pairName, "{{\(variable)}}"))
                        result.parameters.append((variable, text))
                    }
                case "header":
                    let text = ParameterStyle.text(name: name, value: value, style: "simple", explode: explode)
                    guard required else {
                        result.optionalHeaders.append((name, text))
                        continue
                    }
                    let variable = variables.claim(Identifier.variable(name))
                    result.headers.append((name, "{{\(variable)}}"))
                    result.parameters.append((variable, text))
                case "cookie":
                    guard required else { continue }
                    let variable = variables.claim(Identifier.variable(name))
                    cookies.append("\(name)={{\(variable)}}")
                    result.parameters.append((variable, ParameterStyle.pairs(name: name, value: value, style: "form", explode: false).first?.1 ?? ""))
                default:
                    if required { draft.notes.append(ImportNote(.skipped, at: result.source, "the required \(location) parameter '\(name)' was left out (catalogs send path, query, header and cookie parameters)")) }
                }
            }
            if !cookies.isEmpty { result.headers.append(("Cookie", cookies.joined(separator: "; "))) }
        }

        /// The parameter's own example, first named example, or its schema's default.
        func explicitValue(_ parameter: JSONValue) -> JSONValue? {
            if let example = parameter.member("example") { return example }
            if let example = parameter.member("examples")?.members.first.flatMap({ document.resolve($0.value)?.member("value") }) {
                return example
            }
            if let value = document.resolve(parameterSchema(parameter))?.member("default") { return value }
            return nil
        }

        func parameterSchema(_ parameter: JSONValue) -> JSONValue? {
            parameter.member("schema") ?? parameter.member("content")?.members.first?.value.member("schema")
        }

        /// A value as placeholder text: strings as they are, lists joined with commas.
        func text(_ value: JSONValue) -> String {
            switch value {
            case .string(let text): text
            case .number(let literal): literal
            case .bool(let flag): flag ? "true" : "false"
            case .null: ""
            case .array(let elements): elements.map(text).joined(separator: ",")
            case .object: value.compactText
            }
        }

        /// What the first security requirement of the operation (or the document) asks, every
        /// scheme of it (a requirement lists schemes that are all sent); an empty requirement
        /// first means none. Schemes are taken in the document's order.
        mutating func security(_ operation: Operation, endpoint: String) -> Credential? {
            let requirements = operation.operation.member("security") ?? document["security"]
            guard let requirement = requirements?.elements.first, !requirement.members.isEmpty else { return nil }
            var credential = Credential()
            for (name, _) in requirement.members {
                guard let scheme = document.resolve(document["components"]?.member("securitySchemes")?.member(name)) else {
                    draft.notes.append(ImportNote(.info, at: location(operation, "security"), "the security scheme '\(name)' is named but not defined in the document: no credential is sent for it"))
                    continue
                }
                // `petstore_auth` in service petstore is PETSTORE_AUTH, not PETSTORE_PETSTORE_AUTH.
                let secret = scheme.member("x-apiexplorer-secret")?.text
                    ?? (name.lowercased().hasPrefix(draft.service.lowercased()) ? Identifier.secretName(name) : Identifier.secretName(draft.service, name))
                let placeholder = "{{secret.\(secret)}}"
                // The exact header or query value `export openapi` wrote down.
                let written = scheme.member("x-apiexplorer-value")?.text
                switch scheme.member("type")?.text {
                case _ where written != nil:
                    let value = written ?? placeholder
                    if scheme.member("in")?.text == "query" {
                        credential.query.append((scheme.member("name")?.text ?? name, value))
                    } else {
                        credential.headers.append((scheme.member("type")?.text == "http" ? "Authorization" : scheme.member("name")?.text ?? name, value))
                    }
                case "apiKey":
                    let header = scheme.member("name")?.text ?? name
                    switch scheme.member("in")?.text {
                    case "query": credential.query.append((header, placeholder))
                    case "cookie": credential.headers.append(("Cookie", "\(header)=\(placeholder)"))
                    default: credential.headers.append((header, placeholder))
                    }
                case "http":
                    let shown = scheme.member("scheme")?.text?.lowercased() == "basic" ? "Basic" : "Bearer"
                    credential.headers.append(("Authorization", "\(shown) \(placeholder)"))
                case "mutualTLS":
                    draft.notes.append("\(endpoint) uses mutual TLS (\(name)): set tls.clientCertificate in the environments")
                    continue
                default:  // oauth2, openIdConnect
                    credential.headers.append(("Authorization", "Bearer \(placeholder)"))
                }
                if !secrets.contains(secret) { secrets.append(secret) }
                credential.schemes.append(name)
            }
            credential.headers = Self.joiningCookies(credential.headers)
            if credential.headers.isEmpty && credential.query.isEmpty { return nil }
            return credential
        }

        /// Two cookie credentials become one Cookie header.
        static func joiningCookies(_ headers: [(String, String)]) -> [(String, String)] {
            let cookies = headers.filter { $0.0 == "Cookie" }.map(\.1)
            guard cookies.count > 1 else { return headers }
            return headers.filter { $0.0 != "Cookie" } + [("Cookie", cookies.joined(separator: "; "))]
        }

        mutating func addBody(_ operation: Operation, to result: inout CatalogDraft.Endpoint) {
            guard let request = document.resolve(operation.operation.member("requestBody")) else { return }
            let contents = request.member("content")?.members ?? []
            let samples = Samples(document: document)
            let requiredBody = request.member("required") == .bool(true)
            if ["GET", "HEAD", "DELETE", "OPTIONS"].contains(result.method), !requiredBody {
                draft.notes.append(ImportNote(.info, at: location(operation, "requestBody"), "an optional request body was left out: \(result.method) requests are usually sent without one"))
                return
            }
            if let (key, content) = contents.first(where: { Self.exportedFile($0.value) != nil }), let kept = Self.exportedFile(content),
                let encoded = samples.example(content)?.text
            {
                // A body file `export openapi` inlined: written at the path it had in its catalog (another if that holds other bytes).
                let data = content.member("x-apiexplorer-base64") == .bool(true) ? Data(base64Encoded: encoded) ?? Data() : Data(encoded.utf8)
                let path = freeFixturePath(kept, for: data) ?? "fixtures/\(draft.service)/\(result.id)-body.bin"
                draft.fixtures.append((path, data))
                result.body = .file(path)
                result.headers.append(("Content-Type", Self.mediaType(key)))
                return
            }
            if let (key, content) = contents.first(where: { Self.mediaType($0.key).contains("json") }) {
                let type = Self.mediaType(key)
                if type != "application/json" { result.headers.append(("Content-Type", key)) }
                if case .string(let text)? = samples.example(content) {
                    // JSON written as text (`export openapi` keeps a templated body's bytes this way).
                    result.body = .text(text)
                    if type == "application/json" { result.headers.append(("Content-Type", key)) }
                } else if let example = samples.example(content) {
                    result.body = .json(example)
                } else if let schema = content.member("schema") {
                    let (required, optional) = samples.requestValue(for: schema)
                    result.body = .json(required)
                    result.optionalBody = optional
                } else {
                    result.body = .json([:])
                }
            } else if let (_, content) = contents.first(where: { Self.mediaType($0.key) == "application/x-www-form-urlencoded" }) {
                let (required, optional) = formFields(content, samples: samples)
                result.body = .form(required)
                result.optionalForm = optional
            } else if let (_, content) = contents.first(where: { Self.mediaType($0.key) == "multipart/form-data" }) {
                addMultipart(content, samples: samples, to: &result)
            } else if let (key, content) = contents.first(where: { Self.isText(Self.mediaType($0.key)) }),
                let value = samples.example(content) ?? samples.schemaValue(content)
            {
                result.body = .text(text(value))
                result.headers.append(("Content-Type", Self.mediaType(key)))
            } else if let (key, content) = contents.first {
                if let text = samples.example(content)?.text, content.member("x-apiexplorer-base64") == nil {
                    // A body exported inline (text of any media type).
                    result.body = .text(text)
                    result.headers.append(("Content-Type", Self.mediaType(key)))
                    return
                }
                if let encoded = samples.example(content)?.text, let data = Data(base64Encoded: encoded) {
                    let path = "fixtures/\(draft.service)/\(result.id)-body.bin"
                    draft.fixtures.append((path, data))
                    result.body = .file(path)
                    result.headers.append(("Content-Type", Self.mediaType(key)))
                    return
                }
                // A file the document cannot give: a body file to set, marked missing.
                result.body = .file("{{body_file}}")
                result.headers.append(("Content-Type", Self.mediaType(key)))
                result.comment.append("its \(Self.mediaType(key)) body is a file: set body_file to a file in this folder")
                draft.notes.append(ImportNote(.repaired, at: location(operation, "requestBody"), "the request body (\(Self.mediaType(key))) is a file the document does not give: kept as a body file marked missing; set {{body_file}}"))
            }
        }

        /// A url-encoded form's fields, each by its `encoding` (style form, exploded, unless it
        /// says otherwise): the required ones, and the optional ones to write commented out.
        func formFields(_ content: JSONValue, samples: Samples) -> (required: [(String, String)], optional: [(String, String)]) {
            let encoding = content.member("encoding")
            func serialized(_ members: [(String, JSONValue)]) -> [(String, String)] {
                members.flatMap { name, value in
                    let rule = encoding?.member(name)
                    let style = rule?.member("style")?.text ?? "form"
                    return ParameterStyle.pairs(name: name, value: value, style: style, explode: ParameterStyle.explode(rule?.member("explode"), style: style))
                }
            }
            if let example = samples.example(content) { return (serialized(example.members.map { ($0.key, $0.value) }), []) }
            guard let schema = content.member("schema") else { return ([], []) }
            let (required, optional) = samples.requestValue(for: schema)
            return (serialized(required.members.map { ($0.key, $0.value) }), serialized(optional))
        }

        /// A multipart form: text fields with their values; a required file field kept as a file
        /// field whose file is a placeholder to set (the document has none to give); optional
        /// fields listed in a note.
        mutating func addMultipart(_ content: JSONValue, samples: Samples, to result: inout CatalogDraft.Endpoint) {
            guard var schema = document.resolve(content.member("schema")) else {
                draft.notes.append(ImportNote(.repaired, at: result.source, "a multipart body has no schema: no field is sent (add them under multipart:)"))
                result.comment.append("its multipart body has no schema in the document: add its fields under multipart:")
                return
            }
            if samples.properties(schema).isEmpty, let branches = (schema.member("oneOf") ?? schema.member("anyOf"))?.elements, let first = branches.first.flatMap(document.resolve) {
                // One of several forms: the first is sent; the others are named for the person to pick.
                schema = first
                let kind = schema.member("title")?.text.map { " ('\($0)')" } ?? ""
                draft.notes.append(ImportNote(.repaired, at: result.source, "a multipart body is one of \(branches.count) forms: the first\(kind) is sent"))
                result.comment.append("its multipart body is one of \(branches.count) forms in the document; the first is written here")
            }
            let requiredNames = Set(samples.requiredNames(schema))
            let encoding = content.member("encoding")
            let example = samples.example(content)
            var fields: [CatalogDraft.MultipartDraftField] = []
            var optional: [String] = []
            var files: [String] = []
            for (name, property) in samples.properties(schema) {
                guard requiredNames.contains(name) else {
                    optional.append(name)
                    continue
                }
                let resolved = document.resolve(property)
                let rule = encoding?.member(name)
                let contentType = rule?.member("contentType")?.text
                if Samples.isBinary(resolved), let given = example?.member(name)?.text {
                    // A file's content `export openapi` inlined: written beside the catalog again.
                    let filename = rule?.member("x-apiexplorer-filename")?.text.flatMap { $0.isEmpty ? nil : $0 }
                    let data = rule?.member("x-apiexplorer-base64") == .bool(true) ? Data(base64Encoded: given) ?? Data() : Data(given.utf8)
                    let path = Self.exportedFile(rule).flatMap { freeFixturePath($0, for: data) }
                        ?? "fixtures/\(draft.service)/\(result.id)-\(Identifier.make(name, fallback: "file"))-\(Identifier.make(filename ?? "file", fallback: "file"))"
                    draft.fixtures.append((path, data))
                    fields.append(CatalogDraft.MultipartDraftField(name: name, file: path, filename: filename, contentType: contentType))
                } else if let given = example?.member(name), !Samples.isBinary(resolved) {
                    fields.append(CatalogDraft.MultipartDraftField(name: name, value: ParameterStyle.scalarText(given), contentType: contentType))
                } else if Samples.isBinary(resolved) {
                    let variable = Identifier.variable(name) + "_file"
                    fields.append(CatalogDraft.MultipartDraftField(name: name, file: "{{\(variable)}}", filename: name, contentType: contentType))
                    files.append("{{\(variable)}}")
                } else {
                    let value = samples.value(for: property)
                    fields.append(CatalogDraft.MultipartDraftField(name: name, value: ParameterStyle.scalarText(value), contentType: contentType))
                }
            }
            if fields.isEmpty {
                result.comment.append("its multipart body has no required field: none is sent")
            } else {
                result.body = .multipart(fields)
            }
            if !files.isEmpty {
                let message = "a multipart file field needs a file: set \(files.joined(separator: ", ")) to a file beside the catalog (--var, or the endpoint's parameters)"
                draft.notes.append(ImportNote(.repaired, at: result.source, message))
                result.comment.append("multipart file fields marked missing: set \(files.joined(separator: ", ")) to a file in this folder")
            }
            if !optional.isEmpty {
                result.comment.append("optional multipart fields, not sent: \(optional.joined(separator: ", "))")
            }
        }

        /// Media types whose bodies are text a sample can be written in (`text/*`, XML, YAML, CSV).
        static func isText(_ type: String) -> Bool {
            type.hasPrefix("text/") || type.hasSuffix("xml") || type.hasSuffix("yaml") || type.hasSuffix("csv")
        }

        /// `type/subtype` of a media type key, lowercased, without parameters.
        static func mediaType(_ key: String) -> String {
            String(key.prefix { $0 != ";" }).trimmed.lowercased()
        }

        mutating func addResponses(_ operation: Operation, to result: inout CatalogDraft.Endpoint) {
            var stubTaken = false
            var names: Set<String> = ["default"]
            let samples = Samples(document: document)
            for (code, value) in operation.operation.member("responses")?.members ?? [] {
                guard let status = Int(code), let response = document.resolve(value) else { continue }
                let isSuccess = (200..<300).contains(status)
                let json = (response.member("content")?.members ?? []).first { Self.mediaType($0.key).contains("json") }
                var named: [(String?, JSONValue?)] = []
                if let content = json?.value {
                    let examples = content.member("examples")?.members ?? []
                    if !examples.isEmpty {
                        named = examples.map { ($0.key, document.resolve($0.value)?.member("value")) }
                    } else {
                        named = [(nil, samples.example(content) ?? samples.schemaValue(content))]
                    }
                } else {
                    named = [(nil, nil)]
                }
                let description = response.member("description")?.text.map(OpenAPIImporter.wholeText).flatMap { $0.isEmpty ? nil : $0 }
                for (exampleName, body) in named {
                    let makeStub = isSuccess && !stubTaken
                    var name = makeStub ? "default" : exampleName.map { Identifier.make($0, fallback: "example") } ?? ImportedResponse.name(for: status)
                    while names.contains(name) && !makeStub { name += "_" }
                    names.insert(name)
                    var example = CatalogDraft.Example(name: name, description: description, status: status)
                    if let body, let mediaType = json.map({ Self.mediaType($0.key) }) {
                        let path = "fixtures/\(draft.service)/\(result.id)\(makeStub ? "" : "-\(name)").json"
                        draft.fixtures.append((path, Data((body.prettyText() + "\n").utf8)))
                        example.bodyFile = path
                        if mediaType != "application/json" { example.headers = [("Content-Type", mediaType)] }
                    }
                    if makeStub {
                        result.stub = example
                        stubTaken = true
                    } else {
                        result.examples.append(example)
                    }
                }
            }
        }

        /// Webhooks are requests the API sends, not ones a catalog calls: each is named in a note.
        mutating func noteWebhooks() {
            for (name, item) in document["webhooks"]?.members ?? [] {
                let methods = OpenAPIImporter.methods.filter { document.resolve(item)?.member($0) != nil }.map { $0.uppercased() }
                draft.notes.append(ImportNote(
                    .info, at: DocumentPlace.pointer(documentName, ["webhooks", name]),
                    "webhook '\(name)' (\(methods.joined(separator: ", "))) was not imported: the API sends it to you; `apiexplorer mock` does not send requests"))
            }
        }

        /// Credentials go on a group when every endpoint of it sends the same ones, else on each
        /// endpoint; endpoints without a tag go to a group named after their schemes.
        mutating func finish() {
            keepSchemas()
            var byGroup: [String: [Int]] = [:]
            for index in draft.endpoints.indices {
                if let group = draft.endpoints[index].group { byGroup[group, default: []].append(index) }
            }
            for (group, members) in byGroup where !exportedGroups.contains(group) {
                let first = credentials[members[0]]
                guard let first, members.allSatisfy({ credentials[$0] == first }), first.query.isEmpty,
                    let position = draft.groups.firstIndex(where: { $0.id == group })
                else { continue }
                draft.groups[position].headers = first.headers
                for index in members { credentials[index]?.headers = [] }
            }
            for (index, credential) in credentials.sorted(by: { $0.key < $1.key }) {
                if draft.endpoints[index].group == nil, credential.query.isEmpty, !credential.headers.isEmpty, !ungrouped.contains(index) {
                    let id = schemeGroup(for: credential)
                    draft.endpoints[index].group = id
                    continue
                }
                draft.endpoints[index].headers.removeAll { header in credential.headers.contains { $0.0.lowercased() == header.0.lowercased() } }
                draft.endpoints[index].headers += credential.headers
                draft.endpoints[index].query += credential.query.map { ($0.0, Optional($0.1)) }
            }
            guard !secrets.isEmpty else { return }
            draft.environments[0].secretDefaults = secrets.map { ($0, "demo-\($0.lowercased().replacing("_", with: "-"))") }
            draft.notes += secrets.map { ImportNote(.info, "set $APIEXPLORER_SECRET_\($0) in the environment or \($0) in .env for the server environments (local uses a stand-in)") }
        }

        /// The endpoints in the order their catalog had (`export openapi` numbers them), when every one says.
        mutating func restoreExportedOrder() {
            guard !exportedPositions.isEmpty, exportedPositions.count == draft.endpoints.count else { return }
            draft.endpoints = draft.endpoints.enumerated().sorted { (exportedPositions[$0.offset] ?? 0) < (exportedPositions[$1.offset] ?? 0) }.map(\.element)
        }

        /// The response schemas go beside the catalog (`<service>.schemas.json`), which names them.
        mutating func keepSchemas() {
            draft.notes += schemas.notes
            guard let data = schemas.file() else { return }
            let path = "\(draft.service).schemas.json"
            draft.fixtures.append((path, data))
            draft.schemas = path
        }

        /// The group holding these credentials' headers for untagged endpoints, named after its schemes, made on first use.
        mutating func schemeGroup(for credential: Credential) -> String {
            let key = credential.schemes.joined(separator: "\u{0}")
            if let id = schemeGroups[key] { return id }
            let id = groupIDs.claim(Identifier.make(credential.schemes.joined(separator: "-"), fallback: "authenticated"))
            schemeGroups[key] = id
            draft.groups.append(CatalogDraft.Group(id: id, title: "Security scheme \(credential.schemes.joined(separator: " + "))", headers: credential.headers))
            return id
        }
    }
}

/// Example values from OpenAPI documents, and samples built from their schemas when there are none.
struct Samples {
    let document: OpenAPIDocument

    /// The media type's own example, if it has one.
    func example(_ content: JSONValue) -> JSONValue? {
        if let example = content.member("example") { return example }
        if let first = content.member("examples")?.members.first, let value = document.resolve(first.value)?.member("value") {
            return value
        }
        return nil
    }

    /// A value the media type's schema accepts, when it has a schema.
    func schemaValue(_ content: JSONValue) -> JSONValue? {
        content.member("schema").map { value(for: $0) }
    }

    /// A value the schema accepts: its example, default or first allowed value, else one built
    /// from its type (objects with every property, arrays with one element).
    func value(for schema: JSONValue) -> JSONValue {
        value(for: schema, depth: 0, requiredOnly: false)
    }

    /// A request body's value with only what the schema requires (an update must not send
    /// settings the person did not choose), and its optional top-level members with samples,
    /// to be written commented out.
    func requestValue(for schema: JSONValue) -> (required: JSONValue, optional: [(String, JSONValue)]) {
        let whole = value(for: schema, depth: 0, requiredOnly: false)
        guard case .object(let full) = whole, let resolved = document.resolve(schema), type(of: resolved) == "object" || resolved.member("allOf") != nil else {
            return (whole, [])
        }
        if resolved.member("example") != nil || resolved.member("examples") != nil { return (whole, []) }
        let required = value(for: schema, depth: 0, requiredOnly: true)
        let kept = Set(required.members.map(\.key))
        return (required, full.filter { !kept.contains($0.key) }.map { ($0.key, $0.value) })
    }

    /// The properties of an object schema (`allOf` parts merged), in order.
    func properties(_ schema: JSONValue) -> [(String, JSONValue)] {
        guard let resolved = document.resolve(schema) else { return [] }
        var result: [(String, JSONValue)] = []
        for part in resolved.member("allOf")?.elements ?? [] {
            for (name, value) in properties(part) where !result.contains(where: { $0.0 == name }) { result.append((name, value)) }
        }
        for member in resolved.member("properties")?.members ?? [] where !result.contains(where: { $0.0 == member.key }) {
            result.append((member.key, member.value))
        }
        return result
    }

    /// The names an object schema requires (`allOf` parts included).
    func requiredNames(_ schema: JSONValue) -> [String] {
        guard let resolved = document.resolve(schema) else { return [] }
        return (resolved.member("required")?.elements.compactMap(\.text) ?? []) + (resolved.member("allOf")?.elements ?? []).flatMap(requiredNames)
    }

    /// A file's schema (`format: binary`, or base64 `contentEncoding`/`contentMediaType`).
    static func isBinary(_ schema: JSONValue?) -> Bool {
        guard let schema else { return false }
        return schema.member("format")?.text == "binary" || schema.member("contentMediaType") != nil && schema.member("type")?.text == "string"
    }

    private func value(for schemaReference: JSONValue, depth: Int, requiredOnly: Bool) -> JSONValue {
        guard let schema = document.resolve(schemaReference), case .object = schema else { return .null }
        if let example = schema.member("examples")?.elements.first ?? schema.member("example") { return example }
        if let value = schema.member("default") { return value }
        if let first = schema.member("enum")?.elements.first { return first }
        if let constant = schema.member("const") { return constant }
        guard depth < 8 else { return .null }
        if let parts = schema.member("allOf")?.elements, !parts.isEmpty {
            var merged = JSONObject()
            let required = Set(requiredNames(schema))
            for part in parts {
                if case .object(let object) = value(for: part, depth: depth + 1, requiredOnly: false) {
                    for member in object where !requiredOnly || required.contains(member.key) { merged[member.key] = member.value }
                }
            }
            if requiredOnly {
                for (name, property) in properties(schema) where required.contains(name) && merged[name] == nil {
                    merged[name] = value(for: property, depth: depth + 1, requiredOnly: true)
                }
            }
            return .object(merged)
        }
        if let first = (schema.member("oneOf") ?? schema.member("anyOf"))?.elements.first {
            return value(for: first, depth: depth + 1, requiredOnly: requiredOnly)
        }
        switch type(of: schema) {
        case "null": return .null
        case "boolean": return true
        case "integer": return 1
        case "number": return 1.5
        case "string":
            switch schema.member("format")?.text ?? "" {
            case "date-time": return "2024-01-01T12:00:00Z"
            case "date": return "2024-01-01"
            case "binary", "byte": return ""
            case "email": return "user@example.com"
            case "uuid": return "3f2a1c9e-0000-4000-8000-000000000001"
            case let format where format.hasPrefix("uri") || format == "url": return "https://example.com"
            default: return "string"
            }
        case "object":
            let required = Set(schema.member("required")?.elements.compactMap(\.text) ?? [])
            let properties = (schema.member("properties")?.members ?? []).filter { !requiredOnly || required.contains($0.key) }
            return .object(JSONObject(properties.map { ($0.key, value(for: $0.value, depth: depth + 1, requiredOnly: requiredOnly)) }))
        case "array":
            return .array(schema.member("items").map { [value(for: $0, depth: depth + 1, requiredOnly: requiredOnly)] } ?? [])
        default:
            return .null
        }
    }

    /// The schema's type: `type` (the first that is not `null` when it is a list, as 3.1 writes
    /// nullable types), else `object` when it has properties.
    private func type(of schema: JSONValue) -> String? {
        switch schema.member("type") {
        case .string(let type)?: return type
        case .array(let types)?:
            let names = types.compactMap(\.text)
            return names.first { $0 != "null" } ?? names.first
        default:
            return schema.member("properties") != nil ? "object" : schema.member("items") != nil ? "array" : nil
        }
    }
}
