import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport

/// Writes a service as an OpenAPI 3.1 document, so a catalog made by hand can go back to the
/// rest of the toolchain: environments as servers, endpoints as operations (placeholders as
/// parameters with their values as examples), groups whose headers hold secrets as security
/// schemes, bodies and fixtures as request and response examples. `import openapi` reads it
/// back to the same endpoints.
public enum OpenAPIExporter {
    /// The document for `service`.
    public static func document(_ service: Service) -> JSONValue {
        var exporter = Builder(service: service)
        return exporter.document()
    }

    private struct Builder {
        let service: Service
        var schemes = JSONObject()

        mutating func document() -> JSONValue {
            var paths = JSONObject()
            for endpoint in service.endpoints {
                let path = openAPIPath(endpoint.path)
                var item = paths[path]?.objectValue ?? JSONObject()
                item[endpoint.method.rawValue.lowercased()] = .object(operation(endpoint))
                paths[path] = .object(item)
            }
            var info: JSONObject = ["title": .string(service.title), "version": "1"]
            if let summary = service.summary { info["description"] = .string(summary) }
            var document: JSONObject = ["openapi": "3.1.0", "info": .object(info)]
            // `import openapi` makes its own `local` environment for the mock server.
            let servers = service.environments.filter { $0.name != "local" }.map { environment -> JSONValue in
                var base = environment.baseURL.absoluteString
                while base.hasSuffix("/") { base.removeLast() }
                return .object(["url": .string(base), "description": .string(environment.name)])
            }
            if !servers.isEmpty { document["servers"] = .array(servers) }
            document["paths"] = .object(paths)
            if !schemes.isEmpty { document["components"] = .object(["securitySchemes": .object(schemes)]) }
            return .object(document)
        }

        /// `/pets/{{petId}}` → `/pets/{petId}`.
        func openAPIPath(_ path: String) -> String {
            path.replacing("{{", with: "{").replacing("}}", with: "}").replacing("{ ", with: "{").replacing(" }", with: "}")
        }

        /// A placeholder's value for examples: the endpoint's parameters, then the service's variables.
        func value(_ name: String, in endpoint: CatalogEndpoint) -> String {
            endpoint.parameters[name] ?? service.variables[name] ?? service.environments.first?.variables[name] ?? ""
        }

        mutating func operation(_ endpoint: CatalogEndpoint) -> JSONObject {
            var operation: JSONObject = ["operationId": .string(endpoint.id)]
            if endpoint.title != endpoint.id { operation["summary"] = .string(endpoint.title) }
            if let summary = endpoint.summary { operation["description"] = .string(summary) }
            var parameters: [JSONValue] = []
            for name in Template(endpoint.path).placeholders {
                parameters.append(parameter(name, in: "path", example: value(name, in: endpoint)))
            }
            for item in endpoint.query {
                let example = item.value.map { text in Template(text).placeholders.count == 1 && text.hasPrefix("{{") ? value(Template(text).placeholders[0], in: endpoint) : text }
                if let secret = item.value.flatMap(secretName) {
                    addScheme(secret, .object(["type": "apiKey", "in": "query", "name": .string(item.name)]), to: &operation)
                } else {
                    parameters.append(parameter(item.name, in: "query", example: example ?? ""))
                }
            }
            let group = endpoint.group.flatMap { id in service.groups.first { $0.id == id } }
            for field in Array(group?.headers ?? Headers()) + Array(endpoint.headers) {
                if let secret = secretName(field.value) {
                    addScheme(group?.id ?? secret, scheme(header: field.name, value: field.value), to: &operation)
                } else if field.name.lowercased() != "content-type" {
                    let placeholders = Template(field.value).placeholders
                    let example = placeholders.count == 1 && field.value.hasPrefix("{{") ? value(placeholders[0], in: endpoint) : field.value
                    parameters.append(parameter(field.name, in: "header", example: example))
                }
            }
            if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
            if let body = requestBody(endpoint.body) { operation["requestBody"] = body }
            operation["responses"] = .object(responses(endpoint))
            return operation
        }

        func parameter(_ name: String, in location: String, example: String) -> JSONValue {
            .object(["name": .string(name), "in": .string(location), "required": true, "example": .string(example), "schema": .object(["type": "string"])])
        }

        /// `SHOP_TOKEN` when a header or query value holds `{{secret.SHOP_TOKEN}}`.
        func secretName(_ text: String) -> String? {
            Template(text).placeholders.first { $0.hasPrefix("secret.") }.map { String($0.dropFirst(7)) }
        }

        func scheme(header name: String, value: String) -> JSONValue {
            let lower = value.lowercased()
            guard name.lowercased() == "authorization" else { return .object(["type": "apiKey", "in": "header", "name": .string(name)]) }
            if lower.hasPrefix("basic ") { return .object(["type": "http", "scheme": "basic"]) }
            return .object(["type": "http", "scheme": "bearer"])
        }

        mutating func addScheme(_ name: String, _ scheme: JSONValue, to operation: inout JSONObject) {
            schemes[name] = scheme
            var security = operation["security"]?.arrayValue ?? []
            security.append(.object(JSONObject([(key: name, value: JSONValue.array([]))])))
            operation["security"] = .array(security)
        }

        func requestBody(_ body: RequestBody) -> JSONValue? {
            let (type, example): (String, JSONValue)
            switch body {
            case .none, .data: return nil
            case .json(let value): (type, example) = ("application/json", value)
            case .text(let text, let contentType): (type, example) = (contentType ?? "text/plain", .string(text))
            case .form(let items): (type, example) = ("application/x-www-form-urlencoded", .object(JSONObject(items.map { (key: $0.name, value: JSONValue.string($0.value ?? "")) })))
            case .file(let path, let contentType): (type, example) = (contentType ?? MediaType.forFileOrBinary(path), .string("<\(path)>"))
            case .multipart(let fields):
                (type, example) = ("multipart/form-data", .object(JSONObject(fields.map { field in
                    if case .text(let text) = field.content { return (key: field.name, value: JSONValue.string(text)) }
                    return (key: field.name, value: JSONValue.string("<file \(field.filename ?? "")>"))
                })))
            }
            return .object(["content": .object(JSONObject([(key: type, value: JSONValue.object(["example": example]))]))])
        }

        /// Each status's fixtures as named examples (the stub first); bodies that are JSON as values.
        func responses(_ endpoint: CatalogEndpoint) -> JSONObject {
            var byStatus: [(Int, [(String, String?, Headers, Data)])] = []
            for example in [endpoint.stub] + endpoint.examples {
                let (status, headers, body): (Int, Headers, Data)
                switch example.sample {
                case .status(let code, let data): (status, headers, body) = (code, Headers(), data)
                case .response(let code, let fields, let data): (status, headers, body) = (code, fields, data)
                case .echo(let code, let fields): (status, headers, body) = (code, fields, Data())
                case .networkError: continue
                }
                if let index = byStatus.firstIndex(where: { $0.0 == status }) {
                    byStatus[index].1.append((example.name, example.summary, headers, body))
                } else {
                    byStatus.append((status, [(example.name, example.summary, headers, body)]))
                }
            }
            var result = JSONObject()
            for (status, examples) in byStatus {
                var response: JSONObject = ["description": .string(examples.first?.1 ?? HTTPStatus.reasonPhrase(for: status) ?? "status \(status)")]
                let withBodies = examples.filter { !$0.3.isEmpty }
                if let first = withBodies.first {
                    let type = first.2["Content-Type"].map { String($0.prefix { $0 != ";" }) } ?? "application/json"
                    var named = JSONObject()
                    for example in withBodies {
                        let value = (try? JSONValue.parse(example.3)) ?? .string(String(decoding: example.3, as: UTF8.self))
                        named[example.0] = .object(["value": value])
                    }
                    response["content"] = .object(JSONObject([(key: type, value: JSONValue.object(["examples": .object(named)]))]))
                }
                result[String(status)] = .object(response)
            }
            if result.isEmpty { result["200"] = .object(["description": "OK"]) }
            return result
        }
    }
}

extension JSONValue {
    /// The object's members, if it is one.
    var objectValue: JSONObject? {
        if case .object(let object) = self { return object }
        return nil
    }

    /// The array's elements, if it is one.
    var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }
}
