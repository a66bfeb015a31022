import FoundationEssentials
import JSONSupport

/// Turns a `.http` / `.rest` file (and the JetBrains environment files beside it,
/// `http-client.env.json` and `http-client.private.env.json`) into catalogs: each request an
/// endpoint, `@name = value` variables the service's variables, each named environment an
/// environment, one service per URL base. Values of the private environment file, and
/// variables with secret-like names, become `{{secret.NAME}}` and are never written. The file is
/// read into the shape of a Postman collection and built by the same code.
public enum HTTPFileImporter {
    /// The catalogs for a file's text. `environments` is the JSON of `http-client.env.json`,
    /// `privateEnvironments` of `http-client.private.env.json`; `readFile` reads the files that
    /// `< path` bodies name (relative to the `.http` file). Pure apart from `readFile`.
    public static func catalog(
        text: String, documentName: String, environments: Data? = nil, privateEnvironments: Data? = nil,
        service: String? = nil, readFile: @escaping (String) -> Data? = { _ in nil }
    ) throws(AuthoringError) -> CatalogImport {
        let file = HTTPFile(parsing: text)
        guard !file.requests.isEmpty else { throw .invalidInput("\(documentName) has no request (a line such as GET https://example.com/)") }
        let stem = String(documentName.split(separator: "/").last?.prefix { $0 != "." } ?? "http")
        let items = file.requests.map(item)
        let root = JSONValue.object([
            "info": .object(["name": .string(stem)]),
            "variable": .array(file.variables.map { .object(["key": .string($0.name), "value": .string($0.value)]) }),
            "item": .array(items),
        ])
        var collection = PostmanCollection(
            root: root, name: stem,
            environments: try Self.environments(public: environments, private: privateEnvironments))
        collection.environmentLabel = "HTTP client environment"
        collection.serviceID = service ?? Identifier.make(stem.lowercased(), fallback: "http")
        collection.header = "Imported from \(documentName) by `apiexplorer import http`."
        collection.tool = "HTTP client"
        collection.readFile = readFile
        return collection.build()
    }

    /// A request as a Postman item (its `# @name` kept as the endpoint's id).
    static func item(_ request: HTTPFile.Request) -> JSONValue {
        let lastSegment = RequestURL(request.url)?.path.split(separator: "/").last.map(String.init) ?? "root"
        let title = request.title ?? request.name ?? "\(request.method.lowercased()) \(lastSegment)"
        var body = JSONValue.null
        switch request.body {
        case .text(let text)?:
            let contentType = request.headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
            let language = contentType.contains("json") ? "json" : contentType.contains("xml") ? "xml" : "text"
            body = .object(["mode": "raw", "raw": .string(text), "options": .object(["raw": .object(["language": .string(language)])])])
        case .file(let path)?:
            body = .object(["mode": "file", "file": .object(["src": .string(path)])])
        case nil:
            break
        }
        var item: JSONObject = [
            "name": .string(title),
            "request": .object([
                "method": .string(request.method),
                "header": .array(request.headers.map { .object(["key": .string($0.name), "value": .string($0.value)]) }),
                "url": .object(["raw": .string(request.url)]),
                "body": body,
            ]),
        ]
        if let name = request.name { item["apiexplorerID"] = .string(name) }
        if !request.handlers.isEmpty {
            item["event"] = .array([.object(["listen": "test", "script": .object(["exec": .array(request.handlers.map(JSONValue.string))])])])
        }
        return .object(item)
    }

    /// The named environments of the two JSON files; every private value is a secret.
    static func environments(public publicData: Data?, private privateData: Data?) throws(AuthoringError) -> [PostmanEnvironment] {
        var result: [PostmanEnvironment] = []
        func read(_ data: Data?, secret: Bool, name: String) throws(AuthoringError) {
            guard let data else { return }
            let root = try ImportedDocument.json(data, what: name)
            guard case .object = root else { throw .invalidInput("\(name) is not a JSON object of environments") }
            for (environment, values) in root.members {
                let variables = values.members.map { PostmanVariable(key: $0.key, value: PostmanVariable.text($0.value), isSecret: secret) }
                if let index = result.firstIndex(where: { $0.name == environment }) {
                    result[index].values += variables
                } else {
                    result.append(PostmanEnvironment(name: environment, values: variables))
                }
            }
        }
        try read(publicData, secret: false, name: "http-client.env.json")
        try read(privateData, secret: true, name: "http-client.private.env.json")
        return result
    }
}
