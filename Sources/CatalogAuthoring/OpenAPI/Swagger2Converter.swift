import JSONSupport

/// Reads a Swagger 2.0 document into the shape of OpenAPI 3.0, so one importer takes both. The
/// rules are swagger2openapi's (Mermade): `host`, `basePath` and `schemes` become `servers`;
/// `consumes` and `produces` the media types of request and response `content`; `in: body` and
/// `in: formData` parameters a `requestBody` (url-encoded, or multipart when the operation consumes
/// it; `type: file` a binary string); the type keywords of other parameters a `schema`, their
/// `collectionFormat` a `style` and `explode`; `definitions`, `parameters`, `responses` and
/// `securityDefinitions` the matching `components` (basic auth an `http` scheme, OAuth 2 flows
/// renamed). Lenient like the rest of the importer: what cannot be said is noted, not refused.
struct Swagger2Converter {
    /// Follows a parameter's `$ref` in the original document (or a file it names); nil when it leads nowhere.
    let resolve: (JSONValue) -> JSONValue?
    let documentName: String
    private(set) var notes: [ImportNote] = []

    init(documentName: String, resolve: @escaping (JSONValue) -> JSONValue?) {
        self.documentName = documentName
        self.resolve = resolve
    }

    /// Short references Swagger 1.2 tools wrote (`$ref: Pet`) as the definitions they mean
    /// (`#/definitions/Pet`); done before files are read, so `Pet` is never taken for one.
    static func expandingShortReferences(_ root: JSONValue) -> JSONValue {
        let definitions = Set(root.member("definitions")?.members.map(\.key) ?? [])
        guard !definitions.isEmpty else { return root }
        func visit(_ value: JSONValue) -> JSONValue {
            switch value {
            case .object(let object):
                return .object(JSONObject(object.map { member in
                    if member.key == "$ref", case .string(let reference) = member.value, definitions.contains(reference) {
                        return (member.key, .string("#/definitions/\(reference)"))
                    }
                    return (member.key, visit(member.value))
                }))
            case .array(let elements): return .array(elements.map(visit))
            default: return value
            }
        }
        return visit(root)
    }

    /// The document as OpenAPI 3.0.
    mutating func convert(_ root: JSONValue) -> JSONValue {
        var result = JSONObject()
        result["openapi"] = "3.0.3"
        for key in ["info", "tags", "security", "externalDocs"] { if let value = root.member(key) { result[key] = rewritten(value) } }
        for member in root.members where member.key.hasPrefix("x-") { result[member.key] = member.value }
        if let servers = servers(root) { result["servers"] = servers }
        let consumes = Self.mediaTypes(root.member("consumes"))
        let produces = Self.mediaTypes(root.member("produces"))

        var paths = JSONObject()
        for (path, item) in root.member("paths")?.members ?? [] {
            var converted = JSONObject()
            let shared = item.member("parameters")?.elements ?? []
            for member in item.members {
                switch member.key {
                case "parameters":
                    let plain = shared.compactMap { resolvedParameter($0) }.filter { !Self.isBody($0) }
                    if !plain.isEmpty { converted["parameters"] = .array(plain.compactMap { parameter($0, pointer: ["paths", path, "parameters"]) }) }
                case let method where OpenAPIImporter.methods.contains(method):
                    converted[method] = .object(operation(
                        member.value, shared: shared, consumes: Self.mediaTypes(member.value.member("consumes")) ?? consumes ?? ["application/json"],
                        produces: Self.mediaTypes(member.value.member("produces")) ?? produces ?? ["application/json"], pointer: ["paths", path, method]))
                default:
                    converted[member.key] = rewritten(member.value)
                }
            }
            paths[path] = .object(converted)
        }
        result["paths"] = .object(paths)

        var components = JSONObject()
        if let definitions = root.member("definitions") { components["schemas"] = rewritten(definitions) }
        let parameters = (root.member("parameters")?.members ?? []).compactMap { member -> (key: String, value: JSONValue)? in
            guard !Self.isBody(member.value), let converted = parameter(member.value, pointer: ["parameters", member.key]) else { return nil }
            return (member.key, converted)
        }
        if !parameters.isEmpty { components["parameters"] = .object(JSONObject(parameters)) }
        if let responses = root.member("responses") {
            components["responses"] = .object(JSONObject(responses.members.map { ($0.key, response($0.value, produces: produces ?? ["application/json"])) }))
        }
        if let definitions = root.member("securityDefinitions") {
            components["securitySchemes"] = .object(JSONObject(definitions.members.map { ($0.key, Self.securityScheme($0.value)) }))
        }
        if !components.isEmpty { result["components"] = .object(components) }
        return .object(result)
    }

    /// One server per scheme (`https://host/basePath`); none without a host.
    mutating func servers(_ root: JSONValue) -> JSONValue? {
        guard let host = root.member("host")?.text, !host.isEmpty else {
            notes.append(ImportNote(.info, at: DocumentPlace.pointer(documentName, ["host"]), "the Swagger document names no host: only the local environment was made"))
            return nil
        }
        let base = root.member("basePath")?.text ?? ""
        var schemes = root.member("schemes")?.elements.compactMap(\.text).filter { $0 == "http" || $0 == "https" } ?? []
        if schemes.isEmpty {
            // The specification says: the scheme the document itself was fetched with, which a file does not tell.
            schemes = ["https"]
            notes.append(ImportNote(.info, at: DocumentPlace.pointer(documentName, ["schemes"]), "the Swagger document names no scheme: https was assumed for \(host)"))
        }
        return .array(schemes.map { .object(["url": .string("\($0)://\(host)\(base)")]) })
    }

    static func mediaTypes(_ value: JSONValue?) -> [String]? {
        guard let value else { return nil }
        let types = value.text.map { [$0] } ?? value.elements.compactMap(\.text)
        return types.isEmpty ? nil : types
    }

    static func isBody(_ parameter: JSONValue) -> Bool {
        let location = parameter.member("in")?.text
        return location == "body" || location == "formData"
    }

    /// A parameter with its `$ref` followed (a reference to a body or form parameter must be inlined).
    func resolvedParameter(_ parameter: JSONValue) -> JSONValue? {
        parameter.member("$ref") != nil ? resolve(parameter) : parameter
    }

    mutating func operation(_ operation: JSONValue, shared: [JSONValue], consumes: [String], produces: [String], pointer: [String]) -> JSONObject {
        var result = JSONObject()
        for member in operation.members where !["parameters", "responses", "consumes", "produces", "schemes"].contains(member.key) {
            result[member.key] = rewritten(member.value)
        }
        // The operation's own parameters win over the path's of the same name and place.
        var all: [JSONValue] = []
        func key(_ parameter: JSONValue) -> String { "\(parameter.member("in")?.text ?? "")\u{0}\(parameter.member("name")?.text ?? "")" }
        for value in shared { if let resolved = resolvedParameter(value) { all.append(resolved) } }
        for (index, value) in (operation.member("parameters")?.elements ?? []).enumerated() {
            guard let resolved = resolvedParameter(value) else {
                notes.append(ImportNote(.repaired, at: DocumentPlace.pointer(documentName, pointer + ["parameters", String(index)]), "a parameter's $ref leads nowhere; it was left out"))
                continue
            }
            all.removeAll { key($0) == key(resolved) }
            all.append(resolved)
        }
        let plain = all.filter { !Self.isBody($0) }.compactMap { parameter($0, pointer: pointer + ["parameters"]) }
        if !plain.isEmpty { result["parameters"] = .array(plain) }
        if let body = all.first(where: { $0.member("in")?.text == "body" }) {
            var requestBody = JSONObject()
            if let description = body.member("description") { requestBody["description"] = description }
            if body.member("required") == .bool(true) { requestBody["required"] = true }
            let schema = rewritten(body.member("schema") ?? .object([:]))
            var content = JSONObject()
            for type in consumes {
                var media: JSONObject = ["schema": schema]
                if let example = body.member("x-example") { media["example"] = example }
                content[type] = .object(media)
            }
            requestBody["content"] = .object(content)
            result["requestBody"] = .object(requestBody)
        } else {
            let fields = all.filter { $0.member("in")?.text == "formData" }
            if !fields.isEmpty { result["requestBody"] = formBody(fields, consumes: consumes) }
        }
        var responses = JSONObject()
        for (code, value) in operation.member("responses")?.members ?? [] {
            responses[code] = response(value, produces: produces)
        }
        result["responses"] = .object(responses)
        return result
    }

    /// `in: formData` parameters as a url-encoded or multipart request body.
    mutating func formBody(_ fields: [JSONValue], consumes: [String]) -> JSONValue {
        let type = consumes.contains("multipart/form-data") || fields.contains { $0.member("type")?.text == "file" }
            ? "multipart/form-data" : "application/x-www-form-urlencoded"
        var properties = JSONObject()
        var required: [JSONValue] = []
        var encoding = JSONObject()
        for field in fields {
            guard let name = field.member("name")?.text else { continue }
            var schema = Self.schema(of: field)
            if field.member("type")?.text == "file" { schema = ["type": "string", "format": "binary"] }
            if let description = field.member("description") { schema["description"] = description }
            if let example = field.member("x-example") { schema["example"] = example }
            properties[name] = .object(schema)
            if field.member("required") == .bool(true) { required.append(.string(name)) }
            if let format = field.member("collectionFormat")?.text {
                encoding[name] = .object(["style": "form", "explode": .bool(format == "multi")])
            }
        }
        var object: JSONObject = ["type": "object", "properties": .object(properties)]
        if !required.isEmpty { object["required"] = .array(required) }
        var media: JSONObject = ["schema": .object(object)]
        if !encoding.isEmpty { media["encoding"] = .object(encoding) }
        return .object(["content": .object(JSONObject([(key: type, value: JSONValue.object(media))]))])
    }

    /// The keywords of a 2.0 parameter that describe its value, as a schema.
    static func schema(of parameter: JSONValue) -> JSONObject {
        let keywords = [
            "type", "format", "items", "enum", "default", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
            "maxLength", "pattern", "minItems", "maxItems", "uniqueItems", "multipleOf",
        ]
        var schema = JSONObject()
        for keyword in keywords { if let value = parameter.member(keyword) { schema[keyword] = value } }
        if schema["type"] == nil { schema["type"] = "string" }
        return schema
    }

    /// A non-body parameter: its type keywords as a schema, its `collectionFormat` as a style.
    mutating func parameter(_ parameter: JSONValue, pointer: [String]) -> JSONValue? {
        if parameter.member("$ref") != nil { return rewritten(parameter) }
        guard let location = parameter.member("in")?.text, parameter.member("type")?.text != "file" else { return nil }
        var result = JSONObject()
        for key in ["name", "in", "description", "required", "deprecated", "allowEmptyValue"] {
            if let value = parameter.member(key) { result[key] = value }
        }
        if location == "path" { result["required"] = true }
        result["schema"] = .object(Self.schema(of: parameter))
        if let example = parameter.member("x-example") { result["example"] = example }
        switch parameter.member("collectionFormat")?.text {
        case "csv"?: if location == "query" || location == "cookie" { result["style"] = "form"; result["explode"] = false }
        case "ssv"?: result["style"] = "spaceDelimited"; result["explode"] = false
        case "pipes"?: result["style"] = "pipeDelimited"; result["explode"] = false
        case "multi"?: result["style"] = "form"; result["explode"] = true
        case "tsv"?:
            notes.append(ImportNote(.repaired, at: DocumentPlace.pointer(documentName, pointer), "'\(parameter.member("name")?.text ?? "")' is tab-separated (collectionFormat tsv), which OpenAPI 3 cannot say: it is sent comma-separated"))
            result["style"] = "form"; result["explode"] = false
        default:
            // Swagger's default collection format is csv.
            if parameter.member("type")?.text == "array", location == "query" { result["style"] = "form"; result["explode"] = false }
        }
        return .object(result)
    }

    /// A response: its schema and examples under each produced media type.
    func response(_ response: JSONValue, produces: [String]) -> JSONValue {
        if response.member("$ref") != nil { return rewritten(response) }
        var result = JSONObject()
        result["description"] = response.member("description") ?? ""
        if let headers = response.member("headers") {
            result["headers"] = .object(JSONObject(headers.members.map { ($0.key, JSONValue.object(["schema": .object(Self.schema(of: $0.value))])) }))
        }
        var content = JSONObject()
        let examples = response.member("examples")?.members ?? []
        if let schema = response.member("schema"), schema.member("type")?.text != "file" {
            for type in produces {
                var media: JSONObject = ["schema": rewritten(schema)]
                if let example = examples.first(where: { $0.key == type })?.value { media["example"] = example }
                content[type] = .object(media)
            }
        }
        for (type, example) in examples where content[type] == nil {
            content[type] = .object(["example": example])
        }
        if !content.isEmpty { result["content"] = .object(content) }
        return .object(result)
    }

    /// A 2.0 security definition as a 3.0 security scheme.
    static func securityScheme(_ definition: JSONValue) -> JSONValue {
        switch definition.member("type")?.text {
        case "basic"?:
            return ["type": "http", "scheme": "basic"]
        case "oauth2"?:
            let names = ["implicit": "implicit", "password": "password", "application": "clientCredentials", "accessCode": "authorizationCode"]
            var flow = JSONObject()
            if let url = definition.member("authorizationUrl") { flow["authorizationUrl"] = url }
            if let url = definition.member("tokenUrl") { flow["tokenUrl"] = url }
            flow["scopes"] = definition.member("scopes") ?? .object([:])
            let name = names[definition.member("flow")?.text ?? ""] ?? "implicit"
            var scheme: JSONObject = ["type": "oauth2", "flows": .object(JSONObject([(key: name, value: JSONValue.object(flow))]))]
            if let description = definition.member("description") { scheme["description"] = description }
            return .object(scheme)
        default:
            return definition
        }
    }

    /// A value with its references into 2.0 places (`#/definitions/Pet`) pointed at their 3.0 places.
    func rewritten(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(JSONObject(object.map { member in
                guard member.key == "$ref", case .string(let reference) = member.value else { return (member.key, rewritten(member.value)) }
                return (member.key, .string(Self.reference(reference)))
            }))
        case .array(let elements): return .array(elements.map(rewritten))
        default: return value
        }
    }

    static func reference(_ reference: String) -> String {
        for (old, new) in [("#/definitions/", "#/components/schemas/"), ("#/parameters/", "#/components/parameters/"), ("#/responses/", "#/components/responses/")]
        where reference.hasPrefix(old) {
            return new + reference.dropFirst(old.count)
        }
        return reference
    }
}
