import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import SystemSupport

/// Writes a service as an OpenAPI 3.1 document, so a catalog made by hand can go back to the
/// rest of the toolchain: environments as servers, endpoints as operations (placeholders as
/// parameters with their values as examples), groups as tags, groups whose headers hold secrets
/// as security schemes, bodies (files inlined, never a local path) and fixtures as request and
/// response examples. Endpoints that share a method and path with an earlier one are kept in the
/// first one's `x-apiexplorer-alternatives` (other tools see only the first; a note says so).
/// `import openapi` reads it back to the same endpoints.
package enum OpenAPIExporter {
    /// The extension holding the operations of endpoints that share a method and path with the one it is on.
    package static let alternativesKey = "x-apiexplorer-alternatives"
    /// The extension marking an operation whose credentials belong to it alone (its endpoint has no group).
    static let ungroupedKey = "x-apiexplorer-ungrouped"
    /// Bodies inlined up to this size; a larger file is described, not copied.
    static let inlineLimit = 1 << 20
    /// The extension holding an operation's request exactly as its endpoint writes it (path,
    /// query, headers, parameters, omitted headers): OpenAPI ignores `Accept`, `Content-Type` and
    /// `Authorization` header parameters and has no place for templated values.
    static let requestKey = "x-apiexplorer-request"
    /// The extension holding the environments whole (their headers and variables: servers have no place for them).
    static let environmentsKey = "x-apiexplorer-environments"
    /// The extension holding the service's variables.
    static let variablesKey = "x-apiexplorer-variables"
    /// The extension holding each group's headers as written.
    static let groupsKey = "x-apiexplorer-groups"
    /// The extension naming a body file's or multipart file's path in the catalog folder.
    static let fileKey = "x-apiexplorer-file"

    /// The document for `service`.
    package static func document(_ service: Service) -> JSONValue {
        export(service).document
    }

    /// The document for `service` and what the person should know about it (endpoints only this
    /// importer sees, bodies not inlined).
    package static func export(_ service: Service) -> (document: JSONValue, notes: [String]) {
        var exporter = Builder(service: service)
        let document = exporter.document()
        return (document, exporter.notes)
    }

    private struct Builder {
        let service: Service
        var schemes = JSONObject()
        var notes: [String] = []

        mutating func document() -> JSONValue {
            var paths = JSONObject()
            var alternatives: [String: [String]] = [:]
            for (position, endpoint) in service.endpoints.enumerated() {
                let path = openAPIPath(endpoint.path)
                let method = endpoint.method.rawValue.lowercased()
                var item = paths[path]?.objectValue ?? JSONObject()
                if var first = item[method]?.objectValue {
                    // Same method and path: kept beside the first, for this importer.
                    var list = first[OpenAPIExporter.alternativesKey]?.arrayValue ?? []
                    list.append(.object(operation(endpoint, position: position)))
                    first[OpenAPIExporter.alternativesKey] = .array(list)
                    item[method] = .object(first)
                    alternatives["\(endpoint.method.rawValue) \(path)", default: []].append(endpoint.id)
                } else {
                    item[method] = .object(operation(endpoint, position: position))
                }
                paths[path] = .object(item)
            }
            for (route, ids) in alternatives.sorted(by: { $0.key < $1.key }) {
                notes.append(
                    "\(ids.joined(separator: ", ")) share\(ids.count == 1 ? "s" : "") \(route) with an earlier endpoint: kept under \(OpenAPIExporter.alternativesKey), "
                        + "which `apiexplorer import openapi` reads; other tools see only the first")
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
            let used = Set(service.endpoints.compactMap(\.group))
            let tags = service.groups.filter { used.contains($0.id) }.map { group -> JSONValue in
                var tag: JSONObject = ["name": .string(group.id)]
                // Redoc's name for a tag's title; `import openapi` reads it back.
                if group.title != group.id { tag["x-displayName"] = .string(group.title) }
                return .object(tag)
            }
            if !tags.isEmpty { document["tags"] = .array(tags) }
            // What OpenAPI has no place for, for `import openapi` to restore (other tools skip `x-`).
            if !service.variables.isEmpty {
                document[OpenAPIExporter.variablesKey] = .object(JSONObject(service.variables.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }))
            }
            document[OpenAPIExporter.environmentsKey] = .array(service.environments.map(Self.environment))
            let groups = service.groups.filter { used.contains($0.id) }
            if !groups.isEmpty {
                document[OpenAPIExporter.groupsKey] = .object(JSONObject(groups.map { group in
                    (key: group.id, value: JSONValue.object(["title": .string(group.title), "headers": Self.pairs(group.headers)]))
                }))
            }
            notes.append(
                "the environments (with their headers and variables), the service's variables, the groups' headers and each endpoint's request as written "
                    + "are kept under x-apiexplorer-… extensions, which `apiexplorer import openapi` restores; other tools read the servers, parameters and schemes")
            document["paths"] = .object(paths)
            if !schemes.isEmpty { document["components"] = .object(["securitySchemes": .object(schemes)]) }
            return .object(document)
        }

        /// An environment as `x-apiexplorer-environments` keeps it.
        static func environment(_ environment: Environment) -> JSONValue {
            var object: JSONObject = [
                "name": .string(environment.name), "type": .string(environment.type.description),
                "baseURL": .string(environment.baseURL.absoluteString), "fixtures": .string(environment.fixtures.description),
            ]
            if !environment.headers.isEmpty { object["headers"] = pairs(environment.headers) }
            if !environment.variables.isEmpty {
                object["variables"] = .object(JSONObject(environment.variables.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }))
            }
            return .object(object)
        }

        /// Headers as `[[name, value]]`, in order (names may repeat).
        static func pairs(_ headers: Headers) -> JSONValue {
            .array(headers.map { .array([.string($0.name), .string($0.value)]) })
        }

        /// A file's path as the catalog names it: relative to its folder when inside it.
        func catalogPath(_ path: String) -> String {
            guard let folder = service.directory?.path, path.hasPrefix(folder + "/") else { return path }
            return String(path.dropFirst(folder.count + 1))
        }

        /// `/pets/{{petId}}` → `/pets/{petId}`.
        func openAPIPath(_ path: String) -> String {
            path.replacing("{{", with: "{").replacing("}}", with: "}").replacing("{ ", with: "{").replacing(" }", with: "}")
        }

        /// A placeholder's value for examples: the endpoint's parameters, then the service's variables.
        func value(_ name: String, in endpoint: CatalogEndpoint) -> String {
            endpoint.parameters[name] ?? service.variables[name] ?? service.environments.first?.variables[name] ?? ""
        }

        /// The operation of `endpoint`, the `position`th of its service (paths group operations; the catalog's order comes back from it).
        mutating func operation(_ endpoint: CatalogEndpoint, position: Int) -> JSONObject {
            var operation: JSONObject = ["operationId": .string(endpoint.id)]
            if endpoint.title != endpoint.id { operation["summary"] = .string(endpoint.title) }
            if let summary = endpoint.summary { operation["description"] = .string(summary) }
            if let group = endpoint.group { operation["tags"] = [.string(group)] }
            var parameters: [JSONValue] = []
            for name in Template(endpoint.path).placeholders {
                parameters.append(parameter(name, in: "path", example: value(name, in: endpoint)))
            }
            for item in endpoint.query {
                if let secret = item.value.flatMap(secretName) {
                    addScheme(secret, ["type": "apiKey", "in": "query", "name": .string(item.name), "x-apiexplorer-secret": .string(secret), "x-apiexplorer-value": .string(item.value ?? "")], to: &operation)
                    continue
                }
                guard let text = item.value else {
                    // A bare name (`?verbose`): allowed empty, no example.
                    parameters.append(.object(["name": .string(item.name), "in": "query", "required": true, "allowEmptyValue": true, "schema": ["type": "string"]]))
                    continue
                }
                let placeholders = Template(text).placeholders
                let example = placeholders.count == 1 && text == "{{\(placeholders[0])}}" ? value(placeholders[0], in: endpoint) : text
                parameters.append(parameter(item.name, in: "query", example: example))
            }
            let group = endpoint.group.flatMap { id in service.groups.first { $0.id == id } }
            // A group's credential is a scheme named after the group (and the header, when it has
            // several); an endpoint's own, after its secret.
            var fields: [(field: HeaderField, scheme: String?)] = []
            if let group {
                let several = group.headers.filter { secretName($0.value) != nil }.count > 1
                fields = group.headers.map { ($0, several ? "\(group.id).\($0.name)" : group.id) }
            }
            fields += endpoint.headers.map { ($0, nil) }
            for (field, schemeName) in fields {
                if let secret = secretName(field.value) {
                    addScheme(schemeName ?? secret, scheme(header: field.name, value: field.value, secret: secret), to: &operation)
                } else if field.name.lowercased() != "content-type" {
                    let placeholders = Template(field.value).placeholders
                    let example = placeholders.count == 1 && field.value == "{{\(placeholders[0])}}" ? value(placeholders[0], in: endpoint) : field.value
                    parameters.append(parameter(field.name, in: "header", example: example))
                }
            }
            if !parameters.isEmpty { operation["parameters"] = .array(parameters) }
            var request: JSONObject = [
                "path": .string(endpoint.path),
                "query": .array(endpoint.query.map { .array([.string($0.name), $0.value.map(JSONValue.string) ?? .null]) }),
                "headers": Self.pairs(endpoint.headers), "position": .integer(position),
            ]
            if !endpoint.parameters.isEmpty {
                request["parameters"] = .object(JSONObject(endpoint.parameters.sorted { $0.key < $1.key }.map { (key: $0.key, value: JSONValue.string($0.value)) }))
            }
            if !endpoint.omittedHeaders.isEmpty { request["omitHeaders"] = .array(endpoint.omittedHeaders.sorted().map(JSONValue.string)) }
            operation[OpenAPIExporter.requestKey] = .object(request)
            if let body = requestBody(endpoint) { operation["requestBody"] = body }
            operation["responses"] = .object(responses(endpoint))
            // Without a group, `import openapi` would gather an endpoint's credentials in one named after its schemes.
            if endpoint.group == nil, operation["security"] != nil { operation[OpenAPIExporter.ungroupedKey] = true }
            return operation
        }

        func parameter(_ name: String, in location: String, example: String) -> JSONValue {
            .object(["name": .string(name), "in": .string(location), "required": true, "example": .string(example), "schema": .object(["type": "string"])])
        }

        /// `SHOP_TOKEN` when a header or query value holds `{{secret.SHOP_TOKEN}}`.
        func secretName(_ text: String) -> String? {
            Template(text).placeholders.first { $0.hasPrefix("secret.") }.map { String($0.dropFirst(7)) }
        }

        /// The scheme a header holding a secret stands for; the header's exact text and the
        /// secret's name go in extensions, so `import openapi` writes the same header again.
        func scheme(header name: String, value: String, secret: String) -> JSONValue {
            let lower = value.lowercased()
            var scheme: JSONObject
            if name.lowercased() != "authorization" {
                scheme = ["type": "apiKey", "in": "header", "name": .string(name)]
            } else if lower.hasPrefix("basic ") {
                scheme = ["type": "http", "scheme": "basic"]
            } else {
                scheme = ["type": "http", "scheme": "bearer"]
            }
            scheme["x-apiexplorer-secret"] = .string(secret)
            scheme["x-apiexplorer-value"] = .string(value)
            return .object(scheme)
        }

        /// Adds a scheme to the operation's one security requirement: every credential of an
        /// endpoint is sent together (OpenAPI's "and" within a requirement).
        mutating func addScheme(_ name: String, _ scheme: JSONValue, to operation: inout JSONObject) {
            schemes[name] = scheme
            var requirement = operation["security"]?.arrayValue?.first?.objectValue ?? JSONObject()
            requirement[name] = .array([])
            operation["security"] = .array([.object(requirement)])
        }

        /// The request body as a media type with its example; a file's content inlined (text as
        /// written, other bytes in base64 marked so), never its path.
        mutating func requestBody(_ endpoint: CatalogEndpoint) -> JSONValue? {
            let declared = endpoint.headers["Content-Type"]
            var media = JSONObject()
            let type: String
            switch endpoint.body {
            case .none: return nil
            case .json(let value):
                type = declared ?? "application/json"
                media["example"] = value
            case .text(let text, let contentType):
                type = contentType ?? declared ?? "text/plain"
                media["example"] = .string(text)
            case .form(let items):
                type = "application/x-www-form-urlencoded"
                media["schema"] = formSchema(items.map(\.name))
                media["example"] = .object(Self.grouped(items.map { ($0.name, JSONValue.string($0.value ?? "")) }))
                let repeated = Set(items.map(\.name).filter { name in items.filter { $0.name == name }.count > 1 })
                if !repeated.isEmpty {
                    media["encoding"] = .object(JSONObject(repeated.sorted().map { (key: $0, value: JSONValue.object(["style": "form", "explode": true])) }))
                }
            case .data(let data, let contentType):
                type = contentType ?? declared ?? "application/octet-stream"
                media.merge(inlined(data, what: endpoint.id))
            case .file(let path, let contentType):
                type = contentType ?? declared ?? MediaType.forFileOrBinary(path)
                media[OpenAPIExporter.fileKey] = .string(catalogPath(path))
                guard let data = Self.read(path) else {
                    notes.append("\(endpoint.id): its body file could not be read (or is over 1 MiB): described as binary, not inlined")
                    media["schema"] = ["type": "string", "format": "binary"]
                    break
                }
                media.merge(inlined(data, what: endpoint.id))
            case .multipart(let fields):
                type = "multipart/form-data"
                var properties = JSONObject()
                var example = JSONObject()
                var encoding = JSONObject()
                for field in fields {
                    var rule = JSONObject()
                    if let contentType = field.contentType { rule["contentType"] = .string(contentType) }
                    switch field.content {
                    case .text(let text):
                        properties[field.name] = ["type": "string"]
                        example[field.name] = .string(text)
                    case .file(let path, _):
                        properties[field.name] = ["type": "string", "format": "binary"]
                        if let data = Self.read(path) { example[field.name] = Self.encoded(data, marking: &rule) }
                        rule["x-apiexplorer-filename"] = .string(field.filename ?? "")
                        rule[OpenAPIExporter.fileKey] = .string(catalogPath(path))
                    case .bytes(let data, let filename):
                        properties[field.name] = ["type": "string", "format": "binary"]
                        example[field.name] = Self.encoded(data, marking: &rule)
                        rule["x-apiexplorer-filename"] = .string(filename)
                    }
                    if !rule.isEmpty { encoding[field.name] = .object(rule) }
                }
                media["schema"] = .object(["type": "object", "properties": .object(properties), "required": .array(fields.map { .string($0.name) })])
                media["example"] = .object(example)
                if !encoding.isEmpty { media["encoding"] = .object(encoding) }
            }
            return .object(["required": true, "content": .object(JSONObject([(key: type, value: JSONValue.object(media))]))])
        }

        /// An object schema requiring every field (all are sent).
        func formSchema(_ names: [String]) -> JSONValue {
            var unique: [String] = []
            for name in names where !unique.contains(name) { unique.append(name) }
            return .object([
                "type": "object", "properties": .object(JSONObject(unique.map { (key: $0, value: JSONValue.object(["type": "string"])) })),
                "required": .array(unique.map(JSONValue.string)),
            ])
        }

        /// Repeated names as lists (a form's `tags=a&tags=b`).
        static func grouped(_ pairs: [(String, JSONValue)]) -> JSONObject {
            var result = JSONObject()
            for (name, value) in pairs {
                switch result[name] {
                case nil: result[name] = value
                case .array(let list)?: result[name] = .array(list + [value])
                case let first?: result[name] = .array([first, value])
                }
            }
            return result
        }

        /// Bytes as an example: text as written, other bytes in base64 (marked `x-apiexplorer-base64`).
        mutating func inlined(_ data: Data, what: String) -> JSONObject {
            var media = JSONObject()
            media["example"] = Self.encoded(data, marking: &media)
            return media
        }

        static func encoded(_ data: Data, marking object: inout JSONObject) -> JSONValue {
            if let text = String(validating: data, as: UTF8.self) { return .string(text) }
            object["x-apiexplorer-base64"] = true
            return .string(data.base64EncodedString())
        }

        /// A file's bytes, up to the inline limit.
        static func read(_ path: String) -> Data? {
            guard case .file(let size) = FileStatus(path: path), size <= OpenAPIExporter.inlineLimit else { return nil }
            return FileContents.read(atPath: path, atMost: OpenAPIExporter.inlineLimit)
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
                case .networkError, .noFixture: continue
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

extension JSONObject {
    /// Adds `other`'s members (its values win).
    mutating func merge(_ other: JSONObject) {
        for member in other { self[member.key] = member.value }
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
