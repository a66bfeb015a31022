import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport

/// Turns an OpenAPI 3.0 / 3.1 / 3.2 document into a catalog: one endpoint per operation
/// (parameters as `{{placeholders}}` with their examples or defaults as values), servers as
/// environments (plus a `local` one pointing at `apiexplorer mock`), security schemes as groups of
/// headers holding `{{secret.NAME}}`, and example responses (or samples built from their schemas)
/// as fixtures.
public enum OpenAPIImporter {
    /// The operations of a path item, in the order they are imported.
    static let methods = ["get", "post", "patch", "put", "delete", "head", "options", "trace", "query"]

    /// The catalog for a document's bytes (JSON or YAML); `service` overrides the id taken from the
    /// title; `readFile` reads the files its `$ref`s name, relative to the document (nil: only
    /// references within the document are followed).
    public static func draft(
        from data: Data, documentName: String, service: String? = nil, readFile: ((String) -> Data?)? = nil
    ) throws(AuthoringError) -> CatalogDraft {
        let document = try OpenAPIDocument(data: data, readFile: readFile)
        let info = document["info"]
        let title = info?.member("title")?.text ?? "imported"
        var builder = Builder(document: document, service: service ?? Identifier.make(title.lowercased(), fallback: "imported"))
        builder.draft.title = title
        builder.draft.description = info?.member("description")?.text.map { String($0.prefix { $0 != "\n" }) }
        builder.draft.header = "Imported from \(documentName) (OpenAPI \(document.version), \"\(title)\" \(info?.member("version")?.text ?? "")) by `apiexplorer import openapi`."
        builder.addEnvironments()
        for (path, item) in document.resolve(document["paths"])?.members ?? [] {
            guard let item = document.resolve(item) else {
                builder.draft.notes.append("\(path) was left out: its $ref cannot be followed (a URL, or a file that cannot be read)")
                continue
            }
            for method in methods {
                guard let operation = document.resolve(item.member(method)) else { continue }
                builder.add(Operation(path: path, method: method.uppercased(), item: item, operation: operation))
            }
        }
        builder.finish()
        if builder.draft.endpoints.isEmpty {
            let webhooks = document["webhooks"]?.members.count ?? 0
            throw .invalidInput(
                "\(documentName) has no operation under paths to call"
                    + (webhooks > 0 ? " (it describes \(webhooks) webhook\(webhooks == 1 ? "" : "s"), requests the API sends to you, which a catalog does not call)" : "")
                    + "; nothing was written")
        }
        return builder.draft
    }

    /// One operation with the path item it belongs to.
    struct Operation {
        var path: String
        var method: String
        var item: JSONValue
        var operation: JSONValue

        var operationID: String? { operation.member("operationId")?.text }
        var summary: String? { operation.member("summary")?.text ?? item.member("summary")?.text }
        var description: String? { operation.member("description")?.text ?? item.member("description")?.text }
    }

    /// A parameter, resolved.
    struct Parameter {
        var name: String
        var location: String
        var required: Bool
        var value: JSONValue
    }

    private struct Builder {
        let document: OpenAPIDocument
        var draft: CatalogDraft
        var secrets: [String] = []
        var endpointIDs = UniqueNames()

        init(document: OpenAPIDocument, service: String) {
            self.document = document
            draft = CatalogDraft(service: service)
        }

        mutating func addEnvironments() {
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
                guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil else {
                    draft.notes.append("server '\(url)' is not an absolute http(s) URL; it was left out")
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

        mutating func add(_ operation: Operation) {
            let method = operation.method
            guard HTTPMethod(rawValue: method) != nil else {
                draft.notes.append("\(method) \(operation.path) was left out: catalogs do not send \(method)")
                return
            }
            let words = operation.path.split(separator: "/").map(String.init).filter { !$0.hasPrefix("{") }
            let id = endpointIDs.claim(
                operation.operationID.map { Identifier.make($0, fallback: "operation") }
                    ?? Identifier.camelCase([method.lowercased()] + words, fallback: "operation"))
            var result = CatalogDraft.Endpoint(id: id, method: method, path: placeholderPath(operation.path))
            result.title = operation.summary.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            result.description = operation.description.map { String($0.prefix { $0 != "\n" }) }
            addParameters(operation, to: &result)
            addSecurity(operation, to: &result)
            addBody(operation, to: &result)
            addResponses(operation, to: &result)
            draft.endpoints.append(result)
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

        /// Names that differ only by punctuation (`DateCreated<`, `DateCreated>`, `DateCreated`)
        /// get placeholders of their own; path parameters keep the names the path uses.
        mutating func addParameters(_ operation: Operation, to result: inout CatalogDraft.Endpoint) {
            let all = parameters(operation)
            let inPath = all.filter { $0.member("in")?.text == "path" }.compactMap { $0.member("name")?.text }
            var variables = UniqueNames(taken: Set(inPath.map(Identifier.variable)))
            for parameter in all {
                guard let name = parameter.member("name")?.text, let location = parameter.member("in")?.text else { continue }
                let required = parameter.member("required") == .bool(true) || location == "path"
                let variable = location == "path" ? Identifier.variable(name) : variables.claim(Identifier.variable(name))
                let placeholder = "{{\(variable)}}"
                let explicit = explicitValue(parameter)
                let value = explicit ?? parameterSchema(parameter).map { text(Samples(document: document).value(for: $0)) } ?? "1"
                switch location {
                case "path":
                    result.parameters.append((variable, value))
                case "query":
                    guard required || explicit != nil else {
                        draft.notes.append("\(result.id): the optional query item '\(name)' was left out (it has no example or default)")
                        continue
                    }
                    result.query.append((name, placeholder))
                    result.parameters.append((variable, value))
                case "header":
                    guard required else { continue }
                    result.headers.append((name, placeholder))
                    result.parameters.append((variable, value))
                default:
                    if required { draft.notes.append("\(result.id): the \(location) parameter '\(name)' was left out") }
                }
            }
        }

        /// The parameter's own example, first named example, or its schema's default.
        func explicitValue(_ parameter: JSONValue) -> String? {
            guard parameter.member("schema") != nil else { return nil }
            if let example = parameter.member("example") { return text(example) }
            if let example = parameter.member("examples")?.members.first.flatMap({ document.resolve($0.value)?.member("value") }) {
                return text(example)
            }
            if let value = document.resolve(parameter.member("schema"))?.member("default") { return text(value) }
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

        mutating func addSecurity(_ operation: Operation, to result: inout CatalogDraft.Endpoint) {
            let requirements = operation.operation.member("security") ?? document["security"]
            guard let requirement = requirements?.elements.first,
                let (name, _) = requirement.members.min(by: { $0.key < $1.key })
            else { return }
            guard let scheme = document.resolve(document["components"]?.member("securitySchemes")?.member(name)) else {
                draft.notes.append("\(result.id) names the security scheme '\(name)', which the document does not define")
                return
            }
            let group = Identifier.make(name, fallback: "authenticated")
            // `petstore_auth` in service petstore is PETSTORE_AUTH, not PETSTORE_PETSTORE_AUTH.
            let secret = name.lowercased().hasPrefix(draft.service.lowercased()) ? Identifier.secretName(name) : Identifier.secretName(draft.service, name)
            if !secrets.contains(secret) { secrets.append(secret) }
            switch scheme.member("type")?.text {
            case "apiKey":
                let header = scheme.member("name")?.text ?? name
                switch scheme.member("in")?.text {
                case "query":
                    result.query.append((header, "{{secret.\(secret)}}"))
                    return
                case "cookie":
                    ensureGroup(group, headers: [("Cookie", "\(header)={{secret.\(secret)}}")])
                default:
                    ensureGroup(group, headers: [(header, "{{secret.\(secret)}}")])
                }
            case "http":
                let shown = scheme.member("scheme")?.text?.lowercased() == "basic" ? "Basic" : "Bearer"
                ensureGroup(group, headers: [("Authorization", "\(shown) {{secret.\(secret)}}")])
            case "mutualTLS":
                draft.notes.append("\(result.id) uses mutual TLS (\(name)): set tls.clientCertificate in the environments")
                return
            default:  // oauth2, openIdConnect
                ensureGroup(group, headers: [("Authorization", "Bearer {{secret.\(secret)}}")])
            }
            result.group = group
        }

        mutating func ensureGroup(_ id: String, headers: [(String, String)]) {
            guard !draft.groups.contains(where: { $0.id == id }) else { return }
            draft.groups.append(CatalogDraft.Group(id: id, title: "Security scheme \(id)", headers: headers))
        }

        mutating func addBody(_ operation: Operation, to result: inout CatalogDraft.Endpoint) {
            guard let request = document.resolve(operation.operation.member("requestBody")) else { return }
            let contents = request.member("content")?.members ?? []
            let samples = Samples(document: document)
            if let (_, content) = contents.first(where: { Self.mediaType($0.key).contains("json") }) {
                result.body = .json(samples.example(content) ?? samples.schemaValue(content) ?? [:])
            } else if let (_, content) = contents.first(where: { Self.mediaType($0.key) == "application/x-www-form-urlencoded" }) {
                let value = samples.example(content) ?? samples.schemaValue(content) ?? [:]
                if case .object(let object) = value { result.body = .form(object.map { ($0.key, text($0.value)) }) }
            } else if let (_, content) = contents.first(where: { Self.mediaType($0.key) == "multipart/form-data" }) {
                // Text parts only: a binary part (format binary) has no sample to send.
                let value = samples.example(content) ?? samples.schemaValue(content) ?? [:]
                let fields = value.members.filter { $0.value != .string("") }.map { ($0.key, text($0.value)) }
                let (body, contentType) = RequestBodyText.multipart(fields)
                result.body = .text(body)
                result.headers.append(("Content-Type", contentType))
                if fields.count < value.members.count {
                    draft.notes.append("\(result.id): the multipart body's file parts were left out (catalogs send text parts)")
                }
            } else if let (key, content) = contents.first(where: { Self.isText(Self.mediaType($0.key)) }),
                let value = samples.example(content) ?? samples.schemaValue(content)
            {
                result.body = .text(text(value))
                result.headers.append(("Content-Type", Self.mediaType(key)))
            } else if let type = contents.first?.key {
                draft.notes.append("\(result.id): the \(Self.mediaType(type)) request body was left out (give it with body or bodyFile)")
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
                let description = response.member("description")?.text.flatMap { $0.isEmpty ? nil : $0 }
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

        mutating func finish() {
            guard !secrets.isEmpty else { return }
            draft.environments[0].secretDefaults = secrets.map { ($0, "demo-\($0.lowercased().replacing("_", with: "-"))") }
            draft.notes += secrets.map { "set \($0) in the environment or .env for the server environments (local uses a stand-in)" }
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
        value(for: schema, depth: 0)
    }

    private func value(for schemaReference: JSONValue, depth: Int) -> JSONValue {
        guard let schema = document.resolve(schemaReference), case .object = schema else { return .null }
        if let example = schema.member("examples")?.elements.first ?? schema.member("example") { return example }
        if let value = schema.member("default") { return value }
        if let first = schema.member("enum")?.elements.first { return first }
        if let constant = schema.member("const") { return constant }
        guard depth < 8 else { return .null }
        if let parts = schema.member("allOf")?.elements, !parts.isEmpty {
            var merged = JSONObject()
            for part in parts {
                if case .object(let object) = value(for: part, depth: depth + 1) {
                    for member in object { merged[member.key] = member.value }
                }
            }
            return .object(merged)
        }
        if let first = (schema.member("oneOf") ?? schema.member("anyOf"))?.elements.first {
            return value(for: first, depth: depth + 1)
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
            let properties = schema.member("properties")?.members ?? []
            return .object(JSONObject(properties.map { ($0.key, value(for: $0.value, depth: depth + 1)) }))
        case "array":
            return .array(schema.member("items").map { [value(for: $0, depth: depth + 1)] } ?? [])
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
