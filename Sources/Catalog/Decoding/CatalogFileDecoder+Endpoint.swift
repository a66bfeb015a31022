import DispatcherCore
import Expectations
import FoundationEssentials
import JSONSupport
import SystemSupport
import YAMLSupport

extension CatalogFileDecoder {
    static let endpointKeys = [
        "title", "description", "group", "method", "path", "query", "headers", "omitHeaders", "body", "bodyFile", "form",
        "multipart", "graphql", "parameters", "stub", "examples", "validation", "timeouts", "expectsBody", "captures", "prompts", "stream", "handlers", "showsActivity", "download",
        "websocket", "expect", "grpc", "compare",
    ]
    /// Keys written in an endpoint that belong elsewhere, and where.
    static let movedFromEndpoints = ["status": "'stub'", "networkError": "'stub' or an example", "baseURL": "an environment"]
    static let exampleKeys = ["description", "status", "headers", "body", "bodyFile", "networkError", "message", "delay", "streamInterval", "repeats", "echo"]
    static let namedExampleKeys = exampleKeys + ["expect"]
    static let movedFromStub = ["expect": "the endpoint, beside 'stub' (the stub's expectations are the endpoint's)"]

    func decodeEndpoints(_ node: YAMLNode, serviceID: String, groups: [EndpointGroup], environments: [Environment]) -> [CatalogEndpoint] {
        guard let entries = entries(node, "'endpoints'") else { return [] }
        var endpoints: [CatalogEndpoint] = []
        endpoints.reserveCapacity(entries.count)
        for entry in entries {
            if let endpoint = isolated({ decodeEndpoint(entry, serviceID: serviceID, groups: groups, environments: environments) }) {
                endpoints.append(endpoint)
            }
        }
        return endpoints
    }

    private func decodeEndpoint(_ entry: Entry, serviceID: String, groups: [EndpointGroup], environments: [Environment]) -> CatalogEndpoint? {
        let id = entry.key
        guard identifier(id, at: entry.keyNode, "endpoint") else { return nil }
        // Only messages read it: made when one is written, not for every endpoint.
        var subject: String { "endpoint '\(id)'" }
        guard let fields = entries(entry.value, subject, allowed: Self.endpointKeys, moved: Self.movedFromEndpoints) else { return nil }
        let isRPC = fields.contains { $0.key == "grpc" }
        if !isRPC { require(["path"], in: fields, of: entry.keyNode, subject) }
        var endpoint = CatalogEndpoint(
            id: id, serviceID: serviceID, path: "",
            location: SourceLocation(file: file, line: entry.keyNode.line, column: entry.keyNode.column))
        var bodyNodes: [Entry] = []
        var omitNode: YAMLNode?
        var methodGiven = false
        var webSocketNode: YAMLNode?
        for field in fields {
            let value = field.value
            switch field.key {
            case "title": endpoint.title = text(value, "the title of \(subject)") ?? id
            case "description": endpoint.summary = text(value, "the description of \(subject)")
            case "group":
                guard let group = nonEmptyText(value, "the group of \(subject)") else { continue }
                if groups.contains(where: { $0.id == group }) {
                    endpoint.group = group
                } else {
                    let hint = DidYouMean.hint(for: group, among: groups.map(\.id))
                    error("unknown group '\(group)' in \(subject)\(hint.isEmpty ? " (declare it under 'groups')" : hint)", at: value)
                }
            case "method":
                endpoint.method = method(value, "the method of \(subject)") ?? .get
                methodGiven = true
            case "path": endpoint.path = decodePath(value, subject) ?? ""
            case "query":
                endpoint.query = decodeQuery(value, subject) ?? []
                warnAboutLiteralCredentials(in: value, "the query of \(subject)")
            case "headers":
                endpoint.headers = headers(value, "the headers of \(subject)", origin: .endpoint) ?? Headers()
                warnAboutLiteralCredentials(in: value, "the headers of \(subject)")
            case "omitHeaders": omitNode = value
            case "body", "bodyFile", "form", "multipart", "graphql":
                bodyNodes.append(field)
                if field.key == "body" || field.key == "form" { warnAboutLiteralCredentials(in: value, "the \(field.key) of \(subject)") }
            case "parameters": endpoint.parameters = textDictionary(value, "the parameters of \(subject)") ?? [:]
            case "stub":
                let stub = isRPC
                    ? decodeRPCExample(value, name: CatalogExample.defaultName, what: "the stub of \(subject)")
                    : decodeExample(value, name: CatalogExample.defaultName, endpointID: id, what: "the stub of \(subject)")
                if let stub { endpoint.stub = stub }
            case "examples": endpoint.examples = decodeExamples(value, endpointID: id, rpc: isRPC, subject)
            case "grpc": endpoint.rpc = decodeRPCMethod(value, subject)
            case "validation": endpoint.validation = decodeValidation(value, subject) ?? .successCodes
            case "timeouts": endpoint.timeouts = decodeTimeouts(value, "the timeouts of \(subject)", base: Timeouts(connect: nil, read: nil, total: nil))
            case "expectsBody": endpoint.expectsResponseBody = boolean(value, "'expectsBody' of \(subject)")
            case "captures": endpoint.captures = decodeCaptures(value, subject)
            case "prompts": endpoint.declaredPrompts = decodePrompts(value, subject)
            case "stream": endpoint.stream = decodeStream(value, subject)
            case "websocket": webSocketNode = field.keyNode; endpoint.webSocket = decodeWebSocket(value, subject)
            case "download":
                endpoint.download = nonEmptyText(value, "'download' of \(subject) (a file to write the body to)")
                if let name = endpoint.download, let problem = DownloadsFolder.nameProblem(name) {
                    if name.contains("{{") || name.contains("}}") {
                        error("'download' of \(subject): '\(name)' \(problem)", at: value)
                    } else {
                        warning("'download' of \(subject): '\(name)' \(problem): it is refused when sent", at: value)
                    }
                }
            case "showsActivity": endpoint.showsActivity = boolean(value, "'showsActivity' of \(subject)") ?? true
            case "handlers": endpoint.handlers = decodeHandlerRules(value, "handler of \(subject)")
            case "expect": endpoint.expectations = decodeExpectations(value, subject)
            case "compare": endpoint.compare = decodeCompare(value, subject) ?? CompareSettings()
            default: break
            }
        }
        if bodyNodes.count > 1 {
            error("\(subject) has \(bodyNodes.map { "'\($0.key)'" }.joined(separator: " and ")): give one body only", at: bodyNodes[1].keyNode)
        } else if let body = bodyNodes.first, body.key == "graphql" {
            endpoint.graphQL = decodeGraphQL(body.value, subject)
            endpoint.body = endpoint.graphQL.map { .json($0.requestBody) } ?? .none
            // GraphQL servers take operations by POST; a GET would need the query in the URL.
            if !methodGiven { endpoint.method = .post }
        } else if let body = bodyNodes.first {
            endpoint.body = decodeRequestBody(body, subject) ?? .none
        }
        if endpoint.webSocket != nil, let webSocketNode {
            // RFC 6455 §4.1: the opening handshake is a GET without a body.
            if endpoint.method != .get { error("\(subject) is a WebSocket: its opening handshake is a GET, not \(endpoint.method.rawValue)", at: webSocketNode) }
            if let body = bodyNodes.first { error("\(subject) is a WebSocket: it sends messages, not a '\(body.key)'", at: body.keyNode) }
            if endpoint.stream != nil { error("\(subject) is a WebSocket: 'stream' is for HTTP responses read as they arrive", at: webSocketNode) }
        }
        if isRPC { checkRPCEndpoint(&endpoint, fields: fields, bodyNodes: bodyNodes, subject) }
        // After the loop: the group and the endpoint's own headers decide which names are known.
        if let omitNode {
            endpoint.omittedHeaders = decodeOmittedHeaders(omitNode, endpoint: endpoint, environments: environments, subject)
        }
        return endpoint
    }

    /// `omitHeaders: [Accept, Authorization]`: inherited headers the endpoint does not send. A name
    /// no environment or group of the endpoint sends is a warning (a typo would send the header).
    private func decodeOmittedHeaders(
        _ node: YAMLNode, endpoint: CatalogEndpoint, environments: [Environment], _ what: @autoclosure () -> String
    ) -> Set<String> {
        var inherited: [String] = []
        for environment in environments {
            for field in environment.headers where !inherited.contains(where: { Headers.sameName($0, field.name) }) {
                inherited.append(field.name)
            }
            guard let group = endpoint.group else { continue }
            for field in environment.groupHeaders[group] ?? Headers() where !inherited.contains(where: { Headers.sameName($0, field.name) }) {
                inherited.append(field.name)
            }
        }
        var names = Set<String>()
        for item in list(node, "'omitHeaders' of \(what())") {
            guard let name = nonEmptyText(item, "a name in 'omitHeaders' of \(what())") else { continue }
            guard CatalogFileDecoder.isHeaderName(name) else {
                error("'\(name)' is not a valid header name in 'omitHeaders' of \(what())", at: item)
                continue
            }
            names.insert(name)
            guard !inherited.contains(where: { Headers.sameName($0, name) }) else { continue }
            if endpoint.headers.contains(name) {
                warning("'omitHeaders' of \(what()) names '\(name)', one of its own headers, which is always sent: "
                    + "omitHeaders leaves out inherited headers only", at: item)
            } else {
                let known = inherited.isEmpty ? " (its environments and group send none)" : DidYouMean.hint(for: name, among: inherited)
                let list = known.isEmpty ? " (inherited: \(inherited.joined(separator: ", ")))" : known
                warning("'omitHeaders' of \(what()) names '\(name)', which no environment or group of it sends\(list)", at: item)
            }
        }
        return names
    }

    private func decodePath(_ node: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        guard var path = nonEmptyText(node, "the path of \(what())") else { return nil }
        // One pass over the bytes: the marks are ASCII, and no byte of a longer UTF-8 character is.
        // Inside {{ }} a space is part of the placeholder ({{response.addPet $.id}}), not of the path.
        let (hasQuery, isURL, spaceOutside) = path.withUTF8 { bytes in
            var depth = 0
            var previous: UInt8 = 0
            var hasQuery = false
            var isURL = false
            var spaceOutside = false
            for (index, byte) in bytes.enumerated() {
                if byte == UInt8(ascii: "?") { hasQuery = true }
                if byte == UInt8(ascii: ":"), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "/"), bytes[index + 2] == UInt8(ascii: "/") {
                    isURL = true
                }
                if byte == UInt8(ascii: "{"), previous == UInt8(ascii: "{") { depth += 1; previous = 0; continue }
                if byte == UInt8(ascii: "}"), previous == UInt8(ascii: "}"), depth > 0 { depth -= 1; previous = 0; continue }
                if depth == 0, byte == UInt8(ascii: " ") || byte == UInt8(ascii: "#") { spaceOutside = true }
                previous = byte
            }
            return (hasQuery, isURL, spaceOutside)
        }
        if hasQuery {
            error("the path of \(what()) holds a query ('?'): put query items under 'query'", at: node)
            return nil
        }
        if isURL {
            error("the path of \(what()) must be a path (/pet/{{petId}}), not a full URL: the base URL comes from the environment", at: node)
            return nil
        }
        if spaceOutside {
            error("the path of \(what()) holds a space or '#': write them percent-encoded", at: node)
            return nil
        }
        if !path.hasPrefix("/") {
            warning("the path of \(what()) does not start with '/': write it from the base URL on, like /pet/{{petId}}", at: node)
        }
        return path
    }

    /// Query items: `name: value`, `name: [a, b]` for a repeated name, `name: null` for a bare name.
    private func decodeQuery(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [QueryItem]? {
        guard let entries = entries(node, "the query of \(what())") else { return nil }
        var items: [QueryItem] = []
        items.reserveCapacity(entries.count)
        for entry in entries {
            if isNull(entry.value) {
                items.append(QueryItem(name: entry.key, value: nil))
                continue
            }
            if case .sequence(let values) = entry.value.content {
                items += values.compactMap { text($0, "query item '\(entry.key)' of \(what())").map { QueryItem(name: entry.key, value: $0) } }
            } else if let value = text(entry.value, "query item '\(entry.key)' of \(what())") {
                items.append(QueryItem(name: entry.key, value: value))
            }
        }
        return items
    }

    private func decodeRequestBody(_ entry: Entry, _ what: @autoclosure () -> String) -> RequestBody? {
        switch entry.key {
        case "bodyFile":
            return decodeBodyFile(entry.value, "the body file of \(what())")
        case "multipart":
            return decodeMultipart(entry.value, what())
        case "form":
            return decodeForm(entry.value, what())
        default:
            if case .scalar(let scalar) = entry.value.content, case .string(let text) = YAMLScalar(scalar) {
                warnIfFileName(text, at: entry.value, key: "bodyFile")
                return .text(text, contentType: nil)
            }
            return json(entry.value, "the body of \(what())").map(RequestBody.json)
        }
    }

    /// Form fields: `name: value`, or `name: [a, b]` for a repeated name (`tags=a&tags=b`).
    private func decodeForm(_ node: YAMLNode, _ what: @autoclosure () -> String) -> RequestBody? {
        guard let entries = entries(node, "the form of \(what())") else { return nil }
        var items: [QueryItem] = []
        var failed = false
        for entry in entries {
            if case .sequence(let values) = entry.value.content {
                for value in values {
                    if let text = text(value, "form field '\(entry.key)' of \(what())") { items.append(QueryItem(name: entry.key, value: text)) } else { failed = true }
                }
            } else if let text = text(entry.value, "form field '\(entry.key)' of \(what())") {
                items.append(QueryItem(name: entry.key, value: text))
            } else {
                failed = true
            }
        }
        return failed ? nil : .form(items)
    }

    /// `body: fixtures/pet.json` is text, not the file: say so when such a file exists.
    private func warnIfFileName(_ text: String, at node: YAMLNode, key: String) {
        guard !text.contains("\n"), !text.contains(" "), text.contains("."), text.count < 256, fileSystem.fileExists(text) else { return }
        warning("'body: \(text)' sends this text; to send the file's contents write '\(key): \(text)'", at: node)
    }

    // MARK: Examples

    private func decodeExamples(_ node: YAMLNode, endpointID: String, rpc: Bool, _ what: @autoclosure () -> String) -> [CatalogExample] {
        guard let entries = entries(node, "the examples of \(what())") else { return [] }
        var examples: [CatalogExample] = []
        for entry in entries {
            guard identifier(entry.key, at: entry.keyNode, "example") else { continue }
            guard entry.key != CatalogExample.defaultName else {
                error("'\(CatalogExample.defaultName)' names the stub: give this example another name, or make it the 'stub'", at: entry.keyNode)
                continue
            }
            let example = rpc
                ? decodeRPCExample(entry.value, name: entry.key, what: "example '\(entry.key)' of \(what())")
                : decodeExample(entry.value, name: entry.key, endpointID: endpointID, what: "example '\(entry.key)' of \(what())")
            if let example {
                examples.append(example)
            }
        }
        return examples
    }

    /// A fixture: a response (`status`, `headers`, `body` or `bodyFile`) or a `networkError`.
    func decodeExample(_ node: YAMLNode, name: String, endpointID: String, what: @autoclosure () -> String) -> CatalogExample? {
        // The stub's expectations are the endpoint's; a named example has its own.
        let isStub = name == CatalogExample.defaultName
        let allowed = isStub ? Self.exampleKeys : Self.namedExampleKeys
        let moved = isStub ? Self.movedFromStub : [:]
        guard let fields = entries(node, what(), allowed: allowed, moved: moved) else { return nil }
        let before = errorCount
        var status = 200
        var headers = Headers()
        var body = Data()
        var bodyFile: FixtureFile?
        var bodyKeys: [Entry] = []
        var networkError: (code: TransportError.Code, node: YAMLNode)?
        var message: String?
        var summary: String?
        var delay: Duration?
        var streamInterval: Duration?
        var repeats = false
        var echoes = false
        var impliedContentType: String?
        var expectations = ResponseExpectations()
        for field in fields {
            let value = field.value
            switch field.key {
            case "description": summary = text(value, "the description of \(what())")
            case "status": status = integer(value, "the status of \(what())", in: 100...599) ?? status
            case "headers": headers = self.headers(value, "the headers of \(what())", origin: .server) ?? headers
            case "body", "bodyFile": bodyKeys.append(field)
            case "networkError":
                if let code = transportCode(value, "the networkError of \(what())") { networkError = (code, value) }
            case "message": message = text(value, "the message of \(what())")
            case "delay": delay = duration(value, "the delay of \(what())")
            case "streamInterval": streamInterval = duration(value, "the stream interval of \(what())")
            case "repeats": repeats = boolean(value, "'repeats' of \(what())") ?? false
            case "echo": echoes = boolean(value, "'echo' of \(what())") ?? false
            case "expect": expectations = decodeExpectations(value, what())
            default: break
            }
        }
        if bodyKeys.count > 1 {
            error("\(what()) has both 'body' and 'bodyFile': give one body only", at: bodyKeys[1].keyNode)
        } else if let field = bodyKeys.first {
            if field.key == "bodyFile" {
                if let file = fixtureFile(field.value, example: name, endpointID: endpointID) {
                    switch fixtureReading {
                    case .atLoad:
                        switch file.read() {
                        case .success(let data): body = data
                        case .failure(let problem): report(.error, problem.diagnostic.message, line: problem.diagnostic.line, column: problem.diagnostic.column)
                        }
                    case .whenNeeded: bodyFile = file
                    }
                    impliedContentType = CatalogFileDecoder.contentType(forFile: file.path)
                }
            } else if case .scalar(let scalar) = field.value.content, case .string(let text) = YAMLScalar(scalar) {
                warnIfFileName(text, at: field.value, key: "bodyFile")
                body = Data(utf8: text)
            } else if let data = compactJSONData(field.value, "the body of \(what())") {
                body = data
                impliedContentType = "application/json"
            }
        }
        if let networkError {
            let conflicting = fields.filter { ["status", "headers", "body", "bodyFile"].contains($0.key) }
            if let first = conflicting.first {
                error("\(what()) is a network error, so it has no \(conflicting.map { "'\($0.key)'" }.joined(separator: ", ")): a failure below HTTP has no response", at: first.keyNode)
            }
            guard errorCount == before else { return nil }
            var example = CatalogExample(
                name: name, summary: summary, sample: .networkError(TransportError(networkError.code, message: message)), delay: delay)
            example.repeats = repeats
            example.expectations = expectations
            return example
        }
        if message != nil, let node = fields.first(where: { $0.key == "message" })?.keyNode {
            error("'message' goes with 'networkError'; a response's message belongs in its body", at: node)
        }
        guard errorCount == before else { return nil }
        if echoes {
            // The mock and stub mode answer with the request itself (`SampleResponse.echo`).
            if let body = bodyKeys.first { warning("\(what()) echoes the request, so its '\(body.key)' is never sent", at: body.keyNode) }
            var example = CatalogExample(name: name, summary: summary, sample: .echo(status: status, headers: headers), delay: delay)
            example.repeats = repeats
            example.expectations = expectations
            return example
        }
        if let impliedContentType, !headers.contains("Content-Type") {
            headers.add("Content-Type", impliedContentType, origin: .server)
        }
        var example = CatalogExample(
            name: name, summary: summary, sample: .response(status: status, headers: headers, body: body), delay: delay, streamInterval: streamInterval)
        example.bodyFile = bodyFile
        example.repeats = repeats
        example.expectations = expectations
        return example
    }

    private func decodeValidation(_ node: YAMLNode, _ what: @autoclosure () -> String) -> ValidationType? {
        if case .sequence = node.content {
            let codes = list(node, "the validation of \(what())").compactMap { integer($0, "a status in the validation of \(what())", in: 100...599) }
            return .customCodes(Set(codes))
        }
        guard let text = nonEmptyText(node, "the validation of \(what())") else { return nil }
        let names: [String: ValidationType] = [
            "successCodes": .successCodes, "successAndRedirectCodes": .successAndRedirectCodes, "none": .none,
        ]
        if let validation = names[text] { return validation }
        error("the validation of \(what()) must be successCodes, successAndRedirectCodes, none or a list of statuses, not '\(text)'"
            + DidYouMean.hint(for: text, among: names.keys.sorted()), at: node)
        return nil
    }

    /// The media type a file's extension implies, for fixtures without a Content-Type.
    static func contentType(forFile path: String) -> String? {
        // Most fixtures are JSON: their type without lowercasing and hashing the extension.
        let tail = path.utf8.suffix(6)
        if tail.count == 6, tail.dropFirst().elementsEqual(".json".utf8), tail.first != UInt8(ascii: "/") { return "application/json" }
        return MediaType.forFile(path)
    }
}
