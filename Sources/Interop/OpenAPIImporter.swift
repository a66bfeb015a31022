import DispatcherCore
import Foundation
import JSONSupport
import OpenAPIKit

/// Turns an OpenAPI 3.0 / 3.1 document into a catalog: one endpoint per operation (parameters as
/// `{{placeholders}}` with their examples or defaults as values), servers as environments (plus
/// a `local` one pointing at `apiexplorer mock`), security schemes as groups of headers holding
/// `{{secret.NAME}}`, and example responses (or samples built from their schemas) as fixtures.
public enum OpenAPIImporter {
    /// The catalog for a document's bytes (JSON or YAML); `service` overrides the id taken from the title.
    public static func draft(from data: Data, documentName: String, service: String? = nil) throws(InteropError) -> CatalogDraft {
        let (document, version) = try OpenAPIDocumentLoader.load(data)
        let resolved: ResolvedDocument
        do {
            resolved = try document.locallyDereferenced().resolved()
        } catch {
            throw .invalidInput("the document has references that cannot be followed: \(error)")
        }
        var builder = Builder(document: document, service: service ?? Identifier.make(document.info.title.lowercased(), fallback: "imported"))
        builder.draft.header = "Imported from \(documentName) (OpenAPI \(version), \"\(document.info.title)\" \(document.info.version)) by `apiexplorer import openapi`."
        builder.addEnvironments()
        for endpoint in resolved.endpoints { builder.add(endpoint) }
        builder.finish()
        return builder.draft
    }

    private struct Builder {
        let document: OpenAPI.Document
        var draft: CatalogDraft
        var secrets: [String] = []
        var usedIDs: Set<String> = []

        init(document: OpenAPI.Document, service: String) {
            self.document = document
            draft = CatalogDraft(service: service)
            draft.title = document.info.title
            draft.description = document.info.description.map { String($0.prefix { $0 != "\n" }) }
        }

        mutating func addEnvironments() {
            var local = CatalogDraft.Environment(
                name: "local", baseURL: "http://127.0.0.1:4010/\(draft.service)", comment: "the mock server: `apiexplorer mock`")
            local.fixtures = "immediate"
            draft.environments.append(local)
            var names: Set<String> = ["local"]
            for (index, server) in document.servers.enumerated() {
                var url = server.urlTemplate.absoluteString
                for (name, variable) in server.variables { url = url.replacingOccurrences(of: "{\(name)}", with: variable.default) }
                guard let parsed = URL(string: url), parsed.scheme == "http" || parsed.scheme == "https", parsed.host != nil else {
                    draft.notes.append("server '\(url)' is not an absolute http(s) URL; it was left out")
                    continue
                }
                let label = server.name ?? server.description ?? ""
                var name = Identifier.make(label.lowercased(), fallback: "server\(index + 1)")
                if name.count > 24 || names.contains(name) { name = "server\(index + 1)" }
                names.insert(name)
                let lower = label.lowercased() + " " + url.lowercased()
                let type = lower.contains("prod") ? "production" : lower.contains("stag") ? "staging" : "development"
                var environment = CatalogDraft.Environment(name: name, type: type, baseURL: url, comment: server.description)
                environment.fixtures = "never"
                draft.environments.append(environment)
            }
        }

        mutating func add(_ endpoint: ResolvedEndpoint) {
            let method = endpoint.method.rawValue.uppercased()
            guard HTTPMethod(rawValue: method) != nil else {
                draft.notes.append("\(method) \(endpoint.path.rawValue) was left out: catalogs do not send \(method)")
                return
            }
            let words = endpoint.path.components.filter { !$0.hasPrefix("{") }
            var id = endpoint.operationId.map { Identifier.make($0, fallback: "operation") }
                ?? Identifier.camelCase([method.lowercased()] + words, fallback: "operation")
            while usedIDs.contains(id) { id += "_" }
            usedIDs.insert(id)
            var result = CatalogDraft.Endpoint(id: id, method: method, path: placeholderPath(endpoint.path.rawValue))
            result.title = endpoint.endpointSummary.map { $0.hasSuffix(".") ? String($0.dropLast()) : $0 }
            result.description = endpoint.endpointDescription.map { String($0.prefix { $0 != "\n" }) }
            addParameters(endpoint, to: &result)
            addSecurity(endpoint, to: &result)
            addBody(endpoint, to: &result)
            addResponses(endpoint, to: &result)
            draft.endpoints.append(result)
        }

        func placeholderPath(_ path: String) -> String {
            var result = ""
            var inside = false
            for character in path {
                switch character {
                case "{" where !inside: inside = true; result += "{{"
                case "}" where inside: inside = false; result += "}}"
                default: result.append(inside ? (character.isLetter || character.isNumber || character == "_" ? character : "_") : character)
                }
            }
            return result
        }

        mutating func addParameters(_ endpoint: ResolvedEndpoint, to result: inout CatalogDraft.Endpoint) {
            for parameter in endpoint.parameters {
                let name = parameter.name
                let placeholder = placeholderPath("{\(name)}")
                let explicit = explicitValue(parameter)
                let value = explicit ?? parameterSchema(parameter).map { text(Samples.value(for: $0)) } ?? "1"
                switch parameter.location {
                case .path:
                    result.parameters.append((String(placeholder.dropFirst(2).dropLast(2)), value))
                case .query:
                    guard parameter.required || explicit != nil else {
                        draft.notes.append("\(result.id): the optional query item '\(name)' was left out (it has no example or default)")
                        continue
                    }
                    result.query.append((name, placeholder))
                    result.parameters.append((String(placeholder.dropFirst(2).dropLast(2)), value))
                case .header:
                    guard parameter.required else { continue }
                    result.headers.append((name, placeholder))
                    result.parameters.append((String(placeholder.dropFirst(2).dropLast(2)), value))
                case .cookie, .querystring:
                    if parameter.required { draft.notes.append("\(result.id): the \(parameter.location.rawValue) parameter '\(name)' was left out") }
                }
            }
        }

        func explicitValue(_ parameter: DereferencedParameter) -> String? {
            if let context = parameter.schemaOrContent.a {
                if let example = context.example { return text(Samples.json(example)) }
                if let example = context.examples?.values.first?.value?.value { return text(Samples.json(example)) }
                if let value = context.schema.defaultValue { return text(Samples.json(value)) }
            }
            return nil
        }

        func parameterSchema(_ parameter: DereferencedParameter) -> DereferencedJSONSchema? {
            parameter.schemaOrContent.a?.schema ?? parameter.schemaOrContent.b?.values.first?.schema
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

        mutating func addSecurity(_ endpoint: ResolvedEndpoint, to result: inout CatalogDraft.Endpoint) {
            guard let requirement = endpoint.security.first, let (name, scoped) = requirement.schemes.min(by: { $0.key < $1.key }) else { return }
            let group = Identifier.make(name, fallback: "authenticated")
            // `petstore_auth` in service petstore is PETSTORE_AUTH, not PETSTORE_PETSTORE_AUTH.
            let secret = name.lowercased().hasPrefix(draft.service.lowercased()) ? Identifier.secretName(name) : Identifier.secretName(draft.service, name)
            if !secrets.contains(secret) { secrets.append(secret) }
            switch scoped.securityScheme.type {
            case .apiKey(let header, let location):
                if location == .query {
                    result.query.append((header, "{{secret.\(secret)}}"))
                    return
                }
                if location == .cookie {
                    ensureGroup(group, headers: [("Cookie", "\(header)={{secret.\(secret)}}")])
                } else {
                    ensureGroup(group, headers: [(header, "{{secret.\(secret)}}")])
                }
            case .http(let scheme, _):
                let shown = scheme.lowercased() == "basic" ? "Basic" : "Bearer"
                ensureGroup(group, headers: [("Authorization", "\(shown) {{secret.\(secret)}}")])
            case .oauth2, .openIdConnect:
                ensureGroup(group, headers: [("Authorization", "Bearer {{secret.\(secret)}}")])
            case .mutualTLS:
                draft.notes.append("\(result.id) uses mutual TLS (\(name)): set tls.clientCertificate in the environments")
                return
            }
            result.group = group
        }

        mutating func ensureGroup(_ id: String, headers: [(String, String)]) {
            guard !draft.groups.contains(where: { $0.id == id }) else { return }
            draft.groups.append(CatalogDraft.Group(id: id, title: "Security scheme \(id)", headers: headers))
        }

        mutating func addBody(_ endpoint: ResolvedEndpoint, to result: inout CatalogDraft.Endpoint) {
            guard let request = endpoint.requestBody else { return }
            let contents = Array(request.content)
            if let (_, content) = contents.first(where: { $0.key.typeAndSubtype.contains("json") }) {
                result.body = .json(Samples.example(content) ?? content.schema.map(Samples.value) ?? [:])
            } else if let (_, content) = contents.first(where: { $0.key.typeAndSubtype == "application/x-www-form-urlencoded" }) {
                let value = Samples.example(content) ?? content.schema.map(Samples.value) ?? [:]
                if case .object(let object) = value { result.body = .form(object.map { ($0.key, text($0.value)) }) }
            } else if let type = contents.first?.key.typeAndSubtype {
                draft.notes.append("\(result.id): the \(type) request body was left out (give it with body or bodyFile)")
            }
        }

        mutating func addResponses(_ endpoint: ResolvedEndpoint, to result: inout CatalogDraft.Endpoint) {
            var stubTaken = false
            var names: Set<String> = ["default"]
            for (code, response) in endpoint.responses {
                guard case .status(let status) = code.value else { continue }
                let isSuccess = (200..<300).contains(status)
                let json = Array(response.content).first { $0.key.typeAndSubtype.contains("json") }
                var named: [(String?, JSONValue?)] = []
                if let content = json?.value {
                    if let examples = content.examples, !examples.isEmpty {
                        named = examples.map { ($0.key, $0.value.value?.value.map(Samples.json)) }
                    } else {
                        named = [(nil, Samples.example(content) ?? content.schema.map(Samples.value))]
                    }
                } else {
                    named = [(nil, nil)]
                }
                for (exampleName, body) in named {
                    let makeStub = isSuccess && !stubTaken
                    var name = makeStub ? "default" : exampleName.map { Identifier.make($0, fallback: "example") } ?? Self.exampleName(for: status)
                    while names.contains(name) && !makeStub { name += "_" }
                    names.insert(name)
                    var example = CatalogDraft.Example(name: name, description: response.underlyingResponse.description.flatMap { $0.isEmpty ? nil : $0 }, status: status)
                    if let body, let mediaType = json?.key.typeAndSubtype {
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

        /// `notFound` for 404 …, `status422` for codes without a kind of their own.
        static func exampleName(for status: Int) -> String {
            let kind = ErrorKind(status: status)
            switch kind {
            case .clientError, .serverError, .unknown: return "status\(status)"
            default: return kind.name
            }
        }

        mutating func finish() {
            guard !secrets.isEmpty else { return }
            draft.environments[0].secretDefaults = secrets.map { ($0, "demo-\($0.lowercased().replacingOccurrences(of: "_", with: "-"))") }
            draft.notes += secrets.map { "set \($0) in the environment or .env for the server environments (local uses a stand-in)" }
        }
    }
}

/// Example values from OpenAPI documents, and samples built from schemas when there are none.
enum Samples {
    /// An OpenAPIKit value as JSON.
    static func json(_ value: AnyCodable) -> JSONValue {
        guard let data = try? JSONEncoder().encode(value), let parsed = try? JSONValue.parse(data) else { return .null }
        return parsed
    }

    /// The media type's own example, if it has one.
    static func example(_ content: DereferencedContent) -> JSONValue? {
        if let example = content.example { return json(example) }
        if let example = content.examples?.values.first?.value?.value { return json(example) }
        return nil
    }

    /// A value the schema accepts: its example, default or first allowed value, else one built
    /// from its type (objects with every property, arrays with one element).
    static func value(for schema: DereferencedJSONSchema) -> JSONValue {
        value(for: schema, depth: 0)
    }

    private static func value(for schema: DereferencedJSONSchema, depth: Int) -> JSONValue {
        if let example = schema.examples.first { return json(example) }
        if let value = schema.defaultValue { return json(value) }
        if let first = schema.allowedValues?.first { return json(first) }
        guard depth < 8 else { return .null }
        switch schema {
        case .null: return .null
        case .boolean: return true
        case .integer: return 1
        case .number: return 1.5
        case .string(let core, _):
            switch core.format {
            case .dateTime: return "2024-01-01T12:00:00Z"
            case .date: return "2024-01-01"
            default:
                let format = schema.formatString ?? ""
                if format == "binary" || format == "byte" { return "" }
                if format == "email" { return "user@example.com" }
                if format == "uuid" { return "3f2a1c9e-0000-4000-8000-000000000001" }
                if format.hasPrefix("uri") || format == "url" { return "https://example.com" }
                return "string"
            }
        case .object(_, let object):
            return .object(JSONObject(object.properties.map { ($0.key, value(for: $0.value, depth: depth + 1)) }))
        case .array(_, let array):
            return .array(array.items.map { [value(for: $0, depth: depth + 1)] } ?? [])
        case .all(let schemas, _):
            var merged = JSONObject()
            for part in schemas {
                if case .object(let object) = value(for: part, depth: depth + 1) {
                    for member in object { merged[member.key] = member.value }
                }
            }
            return .object(merged)
        case .one(let schemas, _), .any(let schemas, _):
            return schemas.first.map { value(for: $0, depth: depth + 1) } ?? .null
        case .not, .fragment:
            return .null
        }
    }
}
