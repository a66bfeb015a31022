import Catalog
import DispatcherCore
import FoundationEssentials
import JSONSupport
import TextSupport

/// Turns a `.http` / `.rest` file (and the environments beside it: JetBrains'
/// `http-client.env.json` and `http-client.private.env.json`, VS Code REST Client's
/// `rest-client.environmentVariables` setting) into catalogs: each request an endpoint,
/// `@name = value` variables the service's variables (a variable set again before a request with
/// another value that endpoint's parameter), each named environment an environment (its name
/// kept), one service per URL base. Request references (`{{login.response.body.$.token}}`) become
/// `{{response.login $.token}}`, a JetBrains handler's `client.global.set("token",
/// response.body.token)` a capture; `{{$uuid}}`, `{{$timestamp}}` … are the template language's
/// own generators. Values of the private environment file, and variables with secret-like names,
/// become `{{secret.NAME}}` and are never written. The file is read into the shape of a Postman
/// collection and built by the same code.
package enum HTTPFileImporter {
    /// The catalogs for a file's text. `environments` is the JSON of `http-client.env.json`,
    /// `privateEnvironments` of `http-client.private.env.json`, `settings` a VS Code settings file
    /// (JSON with comments) holding `rest-client.environmentVariables`; `files` gives the files
    /// that `< path` bodies and multipart parts name (only those in the `.http` file's folder).
    /// Pure apart from `files`.
    package static func catalog(
        text: String, documentName: String, environments: Data? = nil, privateEnvironments: Data? = nil, settings: Data? = nil,
        service: String? = nil, files: DocumentFiles = .none
    ) throws(AuthoringError) -> CatalogImport {
        let file = HTTPFile(parsing: text)
        guard !file.requests.isEmpty else { throw .invalidInput("\(documentName) has no request (a line such as GET https://example.com/)") }
        let stem = String(documentName.split(separator: "/").last?.prefix { $0 != "." } ?? "http")
        var named = try Self.environments(public: environments, private: privateEnvironments, settings: settings)
        let shared = named.first { $0.name == "$shared" }?.values ?? []
        named.removeAll { $0.name == "$shared" }

        let ids = Self.ids(file.requests)
        var references: [String: String] = [:]
        for (request, id) in zip(file.requests, ids) {
            for key in [request.name, request.title].compactMap({ $0 }) where references[key] == nil { references[key] = id }
        }
        var notes: [ImportNote] = []
        var serviceVariables: [(String, String)] = shared.map { ($0.key, $0.value) }
        var current: [String: String] = Dictionary(serviceVariables, uniquingKeysWith: { first, _ in first })
        var items: [JSONValue] = []
        var captures: [String: [(String, String)]] = [:]
        var expects: [String: ExpectDraft] = [:]
        for (request, id) in zip(file.requests, ids) {
            let location = DocumentPlace.line(documentName, request.line)
            for variable in request.variables {
                let value = Self.references(in: variable.value, ids: references, location: location, notes: &notes)
                if !serviceVariables.contains(where: { $0.0 == variable.name }) { serviceVariables.append((variable.name, value)) }
                current[variable.name] = value
            }
            // A variable set again with another value applies from there on: the parameter of each
            // endpoint that uses it (in its request, or through another variable).
            var request = request
            let used = Set(Template(([request.url] + request.headers.map(\.value) + [Self.bodyText(request.body)] + current.values).joined(separator: "\n")).placeholders)
            let differing = serviceVariables.compactMap { name, first in
                current[name].flatMap { $0 == first || !used.contains(name) ? nil : (name, $0) }
            }
            request.url = Self.references(in: request.url, ids: references, location: location, notes: &notes)
            request.headers = request.headers.map { .init($0.name, Self.references(in: $0.value, ids: references, location: location, notes: &notes)) }
            if case .text(let body)? = request.body { request.body = .text(Self.references(in: body, ids: references, location: location, notes: &notes)) }
            items.append(item(request, id: id, location: location, parameters: differing, notes: &notes))
            let found = Self.captures(in: request.handlers)
            if !found.isEmpty {
                captures[id] = found
                notes.append(ImportNote(.repaired, at: location, "\(id): its response handler's client.global.set became captures (\(found.map(\.0).joined(separator: ", "))); the script is kept as a comment, not run"))
            }
            let (expect, unknown) = HurlAsserts.read(request.response)
            if !expect.isEmpty { expects[id] = expect }
            for line in unknown {
                let what = line.section == "Asserts" ? "is not an assert expect: can say; it is not checked" : "([\(line.section)]) is not brought in"
                notes.append(ImportNote(.info, at: DocumentPlace.line(documentName, line.line), "\(id): `\(line.text)` \(what)"))
            }
        }
        for variable in file.trailingVariables where !serviceVariables.contains(where: { $0.0 == variable.name }) {
            serviceVariables.append((variable.name, variable.value))
        }
        let root = JSONValue.object([
            "info": .object(["name": .string(stem)]),
            "variable": .array(serviceVariables.map { .object(["key": .string($0.0), "value": .string($0.1)]) }),
            "item": .array(items),
        ])
        var collection = PostmanCollection(root: root, name: stem, environments: named)
        collection.environmentLabel = "HTTP client environment"
        collection.serviceID = service ?? Identifier.make(stem.lowercased(), fallback: "http")
        collection.header = "Imported from \(documentName) by `apiexplorer import http`."
        collection.tool = "HTTP client"
        collection.documentName = documentName
        collection.keepsEnvironmentNames = true
        collection.files = files
        var result = collection.build()
        result.notes = notes + result.notes
        result.drafts = Self.resolvingReferences(in: result.drafts, captures: captures, expects: expects)
        return result
    }

    /// An id for each request, unique in the file: its `# @name` (as written when it is a valid
    /// id), else from its `###` title, else from its method and path.
    static func ids(_ requests: [HTTPFile.Request]) -> [String] {
        var taken = UniqueNames()
        return requests.map { request in
            let words = RequestURL(request.url)?.path.split(separator: "/").filter { !$0.hasPrefix("{{") }.suffix(2).map(String.init) ?? []
            let method = request.method == "GRAPHQL" ? "post" : request.method.lowercased()
            let fallback = Identifier.camelCase([method] + (words.isEmpty ? ["root"] : words), fallback: "request")
            if let name = request.name, Identifier.make(name, fallback: "") == name { return taken.claim(name) }
            // A title written as an id (`REQUEST_ONE`, `Request_one`) is kept: references use it.
            if request.name == nil, let title = request.title, Identifier.make(title, fallback: "") == title, title.contains("_") || title == title.uppercased() {
                return taken.claim(title)
            }
            return taken.claim(Identifier.camelCase([request.name ?? request.title ?? ""], fallback: fallback))
        }
    }

    /// Request references rewritten as response references: `{{login.response.body.$.token}}` →
    /// `{{response.login $.token}}`, `{{login.response.headers.X-Token}}` →
    /// `{{response.login header X-Token}}`, `{{login.response.body.*}}` → `{{response.login body}}`.
    /// References to a request's own request (`.request.`) have no counterpart: noted, kept.
    static func references(in text: String, ids: [String: String], location: String, notes: inout [ImportNote]) -> String {
        guard text.contains(".response.") || text.contains(".request.") else { return text }
        var result = ""
        var rest = Substring(text)
        while let open = rest.firstRange(of: "{{"), let close = rest[open.upperBound...].firstRange(of: "}}") {
            result += rest[..<open.lowerBound]
            let inner = rest[open.upperBound..<close.lowerBound].trimmed
            result += "{{" + reference(String(inner), ids: ids, location: location, notes: &notes) + "}}"
            rest = rest[close.upperBound...]
        }
        return result + rest
    }

    private static func reference(_ inner: String, ids: [String: String], location: String, notes: inout [ImportNote]) -> String {
        for kind in [".response.", ".request."] {
            guard let range = inner.firstRange(of: kind) else { continue }
            let name = String(inner[..<range.lowerBound])
            guard let id = ids[name] else { continue }
            guard kind == ".response." else {
                notes.append(ImportNote(.info, at: location, "{{\(inner)}} reads what request '\(name)' sent, which catalogs do not keep: give it a value"))
                return inner
            }
            let rest = String(inner[range.upperBound...])
            if rest.hasPrefix("body") {
                var path = rest.dropFirst(4).trimmingPrefix(".").description
                if path.isEmpty || path == "*" { return "response.\(id) body" }
                if !path.hasPrefix("$") { path = "$." + path }
                return "response.\(id) \(path)"
            }
            if rest.hasPrefix("headers") {
                var header = rest.dropFirst(7).description
                if header.hasPrefix(".") { header.removeFirst() }
                header = header.trimmingCharacters(in: "[]'\"")
                return "response.\(id) header \(header)"
            }
            notes.append(ImportNote(.info, at: location, "{{\(inner)}} reads a part of a response catalogs do not capture (cookies …): give it a value"))
            return inner
        }
        return inner
    }

    /// Captures from a JetBrains response handler: `client.global.set("token", response.body.token)`
    /// (also `response.body["a"].b`, `response.headers.valueOf("X")`, `response.status`).
    static func captures(in handlers: [String]) -> [(String, String)] {
        var result: [(String, String)] = []
        for handler in handlers {
            var rest = Substring(handler)
            while let call = rest.firstRange(of: "client.global.set(") {
                rest = rest[call.upperBound...]
                guard let end = rest.firstIndex(of: ")") ?? rest.indices.last else { break }
                // `valueOf("X")` holds a parenthesis: take the call up to its balanced end.
                var depth = 1
                var index = rest.startIndex
                while index < rest.endIndex, depth > 0 {
                    if rest[index] == "(" { depth += 1 }
                    if rest[index] == ")" { depth -= 1 }
                    if depth > 0 { index = rest.index(after: index) }
                }
                let arguments = rest[..<(index < rest.endIndex ? index : end)]
                rest = index < rest.endIndex ? rest[rest.index(after: index)...] : ""
                guard let comma = arguments.firstIndex(of: ",") else { continue }
                let name = arguments[..<comma].trimmed.trimmingCharacters(in: "\"'`")
                let expression = arguments[arguments.index(after: comma)...].trimmed.trimmingSuffix { $0 == ";" }.trimmed
                guard Identifier.make(name, fallback: "") == name, let selector = selector(String(expression)) else { continue }
                result.append((name, selector))
            }
        }
        return result
    }

    /// A handler's expression as a capture's selector, nil when it is not a plain read.
    static func selector(_ expression: String) -> String? {
        if expression == "response.status" { return "status" }
        if expression.hasPrefix("response.headers.valueOf(") {
            let name = expression.dropFirst("response.headers.valueOf(".count).prefix { $0 != ")" }.trimmingCharacters(in: "\"'`")
            return name.isEmpty ? nil : "header \(name)"
        }
        guard expression.hasPrefix("response.body") else { return nil }
        let path = expression.dropFirst("response.body".count)
        guard path.allSatisfy({ $0.isLetter || $0.isNumber || "._[]\"'-".contains($0) }) else { return nil }
        return "$" + path.replacing("\"", with: "'")
    }

    /// A body's text, for finding the variables it uses.
    static func bodyText(_ body: HTTPFile.Body?) -> String {
        switch body {
        case .text(let text)?: text
        case .file(let path)?: path
        case nil: ""
        }
    }

    /// A request as a Postman item (its id given): origin-form targets (`GET /path` and a `Host:`
    /// header) made absolute, `GRAPHQL` requests as GraphQL bodies.
    static func item(_ request: HTTPFile.Request, id: String, location: String, parameters: [(String, String)], notes: inout [ImportNote]) -> JSONValue {
        var url = request.url
        var headers = request.headers
        if url.hasPrefix("/"), let host = headers.first(where: { $0.name.lowercased() == "host" })?.value.trimmed, !host.isEmpty {
            let scheme = host.hasSuffix(":443") ? "https" : "http"
            let authority = host.hasSuffix(":443") ? String(host.dropLast(4)) : host
            url = "\(scheme)://\(authority)\(url)"
            headers.removeAll { $0.name.lowercased() == "host" }
            notes.append(ImportNote(.repaired, at: location, "\(id): the request is written as a path with a Host header: its URL is \(scheme)://\(authority)\(request.url)"))
        }
        let title = request.title ?? request.name ?? id
        var method = request.method
        var body = JSONValue.null
        switch request.body {
        case .text(let text)? where method == "GRAPHQL":
            method = "POST"
            let (query, variables) = graphQLParts(text)
            body = .object(["mode": "graphql", "graphql": .object(["query": .string(query), "variables": .string(variables)])])
        case .text(let text)? where HTTPMultipartBody(text, contentType: headers.first { $0.name.lowercased() == "content-type" }?.value ?? "") != nil:
            let multipart = HTTPMultipartBody(text, contentType: headers.first { $0.name.lowercased() == "content-type" }?.value ?? "")
            body = .object(["mode": "formdata", "formdata": .array((multipart?.parts ?? []).map(formDataField))])
        case .text(let text)?:
            let contentType = headers.first { $0.name.lowercased() == "content-type" }?.value.lowercased() ?? ""
            let language = contentType.contains("json") ? "json" : contentType.contains("xml") ? "xml" : "text"
            body = .object(["mode": "raw", "raw": .string(text), "options": .object(["raw": .object(["language": .string(language)])])])
        case .file(let path)?:
            body = .object(["mode": "file", "file": .object(["src": .string(path)])])
        case nil:
            if method == "GRAPHQL" { method = "POST" }
        }
        var urlObject: JSONObject = ["raw": .string(url)]
        if !parameters.isEmpty {
            urlObject["variable"] = .array(parameters.map { .object(["key": .string($0.0), "value": .string($0.1)]) })
        }
        var item: JSONObject = [
            "name": .string(title),
            "apiexplorerID": .string(id),
            "apiexplorerSource": .string(location),
            "request": .object([
                "method": .string(method),
                "header": .array(headers.map { .object(["key": .string($0.name), "value": .string($0.value)]) }),
                "url": .object(urlObject),
                "body": body,
            ]),
        ]
        var events: [JSONValue] = []
        if !request.preRequest.isEmpty {
            events.append(.object(["listen": "prerequest", "script": .object(["exec": .array(request.preRequest.map(JSONValue.string))])]))
        }
        if !request.handlers.isEmpty {
            events.append(.object(["listen": "test", "script": .object(["exec": .array(request.handlers.map(JSONValue.string))])]))
        }
        if !events.isEmpty { item["event"] = .array(events) }
        return .object(item)
    }

    /// A multipart part as a Postman form-data field: a file part names its file (`src`) or
    /// holds its content (a part written inline with a filename).
    static func formDataField(_ part: HTTPMultipartBody.Part) -> JSONValue {
        var field: JSONObject = ["key": .string(part.name)]
        switch part.content {
        case .text(let text) where part.filename == nil:
            field["type"] = "text"
            field["value"] = .string(text)
        case .text(let text):
            field["type"] = "file"
            field["apiexplorerContent"] = .string(text)
        case .file(let path):
            field["type"] = "file"
            field["src"] = .string(path)
        }
        if let filename = part.filename { field["apiexplorerFilename"] = .string(filename) }
        if let contentType = part.contentType { field["contentType"] = .string(contentType) }
        return .object(field)
    }

    /// A `GRAPHQL` request's body: the query, then (after an empty line) its variables as JSON.
    static func graphQLParts(_ text: String) -> (query: String, variables: String) {
        let blocks = text.split(separator: "\n\n", omittingEmptySubsequences: false).map(String.init)
        if blocks.count > 1, let last = blocks.last, (try? JSONValue.parse(last))?.objectValue != nil {
            return (blocks.dropLast().joined(separator: "\n\n").trimmed, last.trimmed)
        }
        return (text.trimmed, "")
    }

    /// The named environments of the JetBrains files and the REST Client setting (`$shared` among
    /// them, the values every environment shares); every value of the private file is a secret.
    static func environments(public publicData: Data?, private privateData: Data?, settings: Data?) throws(AuthoringError) -> [PostmanEnvironment] {
        var result: [PostmanEnvironment] = []
        func read(_ root: JSONValue, secret: Bool, name: String) throws(AuthoringError) {
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
        if let publicData { try read(try ImportedDocument.json(publicData, what: "http-client.env.json"), secret: false, name: "http-client.env.json") }
        if let privateData { try read(try ImportedDocument.json(privateData, what: "http-client.private.env.json"), secret: true, name: "http-client.private.env.json") }
        if let settings {
            let root = try ImportedDocument.json(JSONComments.stripped(settings), what: "the VS Code settings")
            if let variables = root.member("rest-client.environmentVariables") {
                try read(variables, secret: false, name: "rest-client.environmentVariables")
            }
        }
        return result
    }

    /// Drafts with response references to an endpoint of another service written `service/endpoint`,
    /// and the captures found in handlers and the Hurl asserts on their endpoints.
    static func resolvingReferences(
        in drafts: [CatalogDraft], captures: [String: [(String, String)]], expects: [String: ExpectDraft] = [:]
    ) -> [CatalogDraft] {
        var owner: [String: String] = [:]
        for draft in drafts { for endpoint in draft.endpoints { owner[endpoint.id] = draft.service } }
        return drafts.map { draft in
            var draft = draft
            for index in draft.endpoints.indices {
                draft.endpoints[index].captures += captures[draft.endpoints[index].id] ?? []
                if let expect = expects[draft.endpoints[index].id] { draft.endpoints[index].expect = expect }
                draft.endpoints[index].mapTexts { text in
                    guard text.contains("{{response.") else { return text }
                    var result = text
                    for (id, service) in owner where service != draft.service && result.contains("{{response.\(id) ") {
                        result = result.replacing("{{response.\(id) ", with: "{{response.\(service)/\(id) ")
                    }
                    return result
                }
            }
            return draft
        }
    }
}

extension StringProtocol {
    /// The text without the given characters at either end.
    func trimmingCharacters(in set: String) -> String {
        String(trimming { set.contains($0) })
    }
}

/// JSON with `//` and `/* */` comments and trailing commas (VS Code's settings files), made plain JSON.
enum JSONComments {
    static func stripped(_ data: Data) -> Data {
        let bytes = Array(data)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        var inString = false
        while index < bytes.count {
            let byte = bytes[index]
            if inString {
                output.append(byte)
                if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                    output.append(bytes[index + 1])
                    index += 2
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                output.append(byte)
                index += 1
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
                while index < bytes.count, bytes[index] != 0x0A { index += 1 }
            } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
                index += 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) { index += 1 }
                index += 2
            } else if byte == UInt8(ascii: ",") {
                // A comma before a closing bracket (after blanks) is a trailing one.
                var next = index + 1
                while next < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[next]) { next += 1 }
                if next < bytes.count, bytes[next] == UInt8(ascii: "}") || bytes[next] == UInt8(ascii: "]") {
                    index += 1
                } else {
                    output.append(byte)
                    index += 1
                }
            } else {
                output.append(byte)
                index += 1
            }
        }
        return Data(output)
    }
}
