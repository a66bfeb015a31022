import FoundationEssentials
import JSONSupport
import TextSupport

/// Turns an Insomnia v4 export into catalogs: each workspace a service (one per URL base, as
/// for Postman), request groups groups (their environment the `parameters` of their requests),
/// the base environment the service's variables and each sub-environment an environment. The
/// export is read into the shape of a Postman collection and built by the same code, so both
/// imports treat secrets, auth and bodies alike.
package enum InsomniaImporter {
    /// The catalogs of an export's bytes (JSON or YAML, as Insomnia writes both); `service` overrides the id taken from the
    /// workspace's name (with one workspace). Pure: nothing is read or written.
    /// `files` gives the files multipart fields and file bodies name (only those in the export's folder).
    package static func catalog(
        export data: Data, documentName: String, service: String? = nil, files: DocumentFiles = .none
    ) throws(AuthoringError) -> CatalogImport {
        let root = try ImportedDocument.jsonOrYAML(data, what: "the Insomnia export \(documentName)")
        guard root.member("_type")?.text == "export", let resources = root.member("resources")?.elements else {
            throw .invalidInput("\(documentName) is not an Insomnia export (no \"_type\": \"export\" with resources); export it as Insomnia v4 (JSON or YAML)")
        }
        let format = root.member("__export_format")?.intValue ?? 0
        guard format == 4 else { throw .invalidInput("\(documentName) is an Insomnia export of format \(format); format 4 is understood") }
        let export = InsomniaExport(resources: resources, documentName: documentName)
        let workspaces = resources.filter { $0.member("_type")?.text == "workspace" }
        guard !workspaces.isEmpty else { throw .invalidInput("\(documentName) has no workspace") }
        var result = CatalogImport(drafts: [])
        for workspace in workspaces {
            let name = workspace.member("name")?.text ?? "insomnia"
            var collection = PostmanCollection(root: export.collection(for: workspace), name: name, environments: export.environments(of: workspace))
            collection.files = files
            collection.environmentLabel = "Insomnia environment"
            collection.serviceID = (workspaces.count == 1 ? service : nil) ?? Identifier.make(name.lowercased(), fallback: "insomnia")
            collection.header = "Imported from \(documentName) (Insomnia workspace \"\(name)\") by `apiexplorer import insomnia`."
            collection.documentName = documentName
            let part = collection.build()
            result.drafts += part.drafts
            result.notes += part.notes
        }
        result.notes += export.notes
        return result
    }
}

/// An Insomnia export's resources, by parent, read into Postman collection values.
struct InsomniaExport {
    let children: [String: [JSONValue]]
    /// Where each resource is in the export (`FILE /resources/12`), by id.
    let places: [String: String]
    var notes: [ImportNote] = []

    init(resources: [JSONValue], documentName: String) {
        var children: [String: [JSONValue]] = [:]
        var places: [String: String] = [:]
        for (index, resource) in resources.enumerated() {
            children[resource.member("parentId")?.text ?? "", default: []].append(resource)
            if let id = resource.member("_id")?.text, places[id] == nil { places[id] = DocumentPlace.pointer(documentName, ["resources", String(index)]) }
        }
        self.places = places
        // Insomnia orders siblings by metaSortKey.
        self.children = children.mapValues { $0.sorted { ($0.member("metaSortKey")?.doubleValue ?? 0) < ($1.member("metaSortKey")?.doubleValue ?? 0) } }
    }

    private func kids(_ resource: JSONValue, type: String) -> [JSONValue] {
        (children[resource.member("_id")?.text ?? ""] ?? []).filter { $0.member("_type")?.text == type }
    }

    /// The workspace as a Postman collection: base environment → variables, groups → folders.
    func collection(for workspace: JSONValue) -> JSONValue {
        let base = kids(workspace, type: "environment").first
        return .object([
            "info": .object(["name": workspace.member("name") ?? "insomnia", "description": workspace.member("description") ?? .null]),
            "variable": Self.variables(base?.member("data")),
            "item": .array(items(under: workspace)),
        ])
    }

    /// The sub-environments of the workspace's base environment, as Postman environment files.
    func environments(of workspace: JSONValue) -> [PostmanEnvironment] {
        guard let base = kids(workspace, type: "environment").first else { return [] }
        return kids(base, type: "environment").map { environment in
            PostmanEnvironment(
                name: environment.member("name")?.text ?? "environment",
                values: PostmanVariable.list(Self.variables(environment.member("data"))))
        }
    }

    /// The folders and requests under `parent`; `path` holds the groups above it, so a group
    /// that names itself or an ancestor as its parent (a broken export) ends the descent.
    private func items(under parent: JSONValue, path: Set<String> = []) -> [JSONValue] {
        let id = parent.member("_id")?.text ?? ""
        guard !path.contains(id) else { return [] }
        return (children[id] ?? []).compactMap { resource in
            switch resource.member("_type")?.text {
            case "request_group":
                return .object([
                    "name": resource.member("name") ?? "folder", "description": resource.member("description") ?? .null,
                    "variable": Self.variables(resource.member("environment")),
                    "auth": Self.auth(resource.member("authentication")) ?? .null,
                    "item": .array(items(under: resource, path: path.union([id]))),
                ])
            case "request":
                let place = places[resource.member("_id")?.text ?? ""].map(JSONValue.string) ?? .null
                return .object(["name": resource.member("name") ?? "request", "request": Self.request(resource), "apiexplorerSource": place])
            default:
                return nil
            }
        }
    }

    /// `{{ _.name }}` (Nunjucks, Insomnia's templates) → `{{name}}`.
    static func template(_ text: String) -> String {
        guard text.contains("{{") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            result += rest[..<open.lowerBound]
            var name = rest[open.upperBound..<close.lowerBound].trimmed
            if name.hasPrefix("_.") { name.removeFirst(2) }
            result += "{{\(name)}}"
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    /// An environment's `data` (nested objects flattened to `a.b`) as Postman variables.
    static func variables(_ data: JSONValue?) -> JSONValue {
        var list: [JSONValue] = []
        func add(_ value: JSONValue, prefix: String) {
            for (key, member) in value.members {
                if case .object = member { add(member, prefix: "\(prefix)\(key).") } else {
                    list.append(.object(["key": .string(prefix + key), "value": .string(template(PostmanVariable.text(member)))]))
                }
            }
        }
        if let data { add(data, prefix: "") }
        return .array(list)
    }

    /// Insomnia's `[{name, value, disabled, type, fileName}]` lists as Postman's `[{key, value, …}]`.
    static func pairs(_ list: JSONValue?) -> JSONValue {
        .array((list?.elements ?? []).map { item in
            .object([
                "key": .string(template(item.member("name")?.text ?? "")), "value": .string(template(item.member("value").map(PostmanVariable.text) ?? "")),
                "disabled": item.member("disabled") ?? false, "type": item.member("type") ?? "text",
                "src": item.member("fileName") ?? .null,
            ])
        })
    }

    static func request(_ resource: JSONValue) -> JSONValue {
        let url = template(resource.member("url")?.text ?? "")
        let query = pairs(resource.member("parameters"))
        return .object([
            "method": resource.member("method") ?? "GET",
            "description": resource.member("description") ?? .null,
            "header": pairs(resource.member("headers")),
            "url": .object(["raw": .string(url), "query": query.elements.isEmpty ? .null : .array(Self.urlQuery(url) + query.elements)]),
            "auth": auth(resource.member("authentication")) ?? .null,
            "body": body(resource.member("body")),
        ])
    }

    /// Query items written in the URL itself come before the `parameters` list.
    private static func urlQuery(_ url: String) -> [JSONValue] {
        (RequestURL(url)?.query ?? []).map { .object(["key": .string($0.name), "value": $0.value.map(JSONValue.string) ?? .null]) }
    }

    /// Insomnia's `authentication` as a Postman auth block (nil: inherit).
    static func auth(_ authentication: JSONValue?) -> JSONValue? {
        guard let authentication, let type = authentication.member("type")?.text, !type.isEmpty else { return nil }
        if authentication.member("disabled") == .bool(true) || type == "none" { return .object(["type": "noauth"]) }
        func text(_ key: String) -> JSONValue { .string(template(authentication.member(key).map(PostmanVariable.text) ?? "")) }
        func block(_ name: String, _ parameters: [(String, JSONValue)]) -> JSONValue {
            .object(JSONObject([("type", .string(name)), (name, .object(JSONObject(parameters.map { (key: $0.0, value: $0.1) })))]))
        }
        switch type {
        case "bearer":
            let prefix = authentication.member("prefix")?.text ?? ""
            return prefix.isEmpty || prefix == "Bearer"
                ? block("bearer", [("token", text("token"))])
                : block("apikey", [("key", "Authorization"), ("value", .string("\(prefix) " + (text("token").stringValue ?? ""))), ("in", "header")])
        case "basic": return block("basic", [("username", text("username")), ("password", text("password"))])
        case "apikey":
            let place = authentication.member("addTo")?.text == "queryParams" ? "query" : "header"
            return block("apikey", [("key", text("key")), ("value", text("value")), ("in", .string(place))])
        case "oauth2": return block("oauth2", [("accessToken", text("accessToken"))])
        default: return .object(["type": .string(type)])
        }
    }

    /// Insomnia's `body` (by mime type) as a Postman body.
    static func body(_ body: JSONValue?) -> JSONValue {
        guard let body, let mimeType = body.member("mimeType")?.text, !mimeType.isEmpty else {
            guard let text = body?.member("text")?.text, !text.isEmpty else { return .null }
            return .object(["mode": "raw", "raw": .string(template(text))])
        }
        let text = template(body.member("text")?.text ?? "")
        func fields(_ kind: String) -> JSONValue {
            .object(JSONObject([("mode", .string(kind)), (kind, pairs(body.member("params")))]))
        }
        switch mimeType {
        case "application/x-www-form-urlencoded": return fields("urlencoded")
        case "multipart/form-data": return fields("formdata")
        case "application/graphql":
            let graphql = (try? JSONValue.parse(text)) ?? .object([:])
            let variables = graphql["variables"].map { $0.compactText } ?? ""
            return .object(["mode": "graphql", "graphql": .object(["query": graphql["query"] ?? "", "variables": .string(variables)])])
        default:
            let language = mimeType.contains("json") ? "json" : mimeType.contains("xml") ? "xml" : mimeType.contains("html") ? "html" : "text"
            return .object(["mode": "raw", "raw": .string(text), "options": .object(["raw": .object(["language": .string(language)])])])
        }
    }
}
