import DispatcherCore
import Expectations
import JSONSupport
import YAMLSupport

extension CatalogFileDecoder {
    static let rpcExampleKeys = ["description", "message", "messages", "status", "headers", "trailers", "delay", "repeats"]
    static let rpcStatusKeys = ["code", "message", "retryDelay", "violations", "reason", "domain"]
    /// Endpoint keys that describe HTTP requests, which a gRPC method does not take.
    static let keysBesideRPC = ["path", "method", "query", "bodyFile", "form", "multipart", "graphql", "websocket", "stream", "download", "validation", "expectsBody"]

    /// `grpc: package.Service/Method`.
    func decodeRPCMethod(_ node: YAMLNode, _ subject: @autoclosure () -> String) -> RPCSettings? {
        guard let text = nonEmptyText(node, "'grpc' of \(subject()) (package.Service/Method)") else { return nil }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        let valid = parts.count == 2 && parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { $0 == "." || $0 == "_" || ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) }
        }
        guard valid, !parts[0].hasPrefix("."), !parts[0].hasSuffix(".") else {
            error("'grpc' of \(subject()) must name a method as package.Service/Method (as grpcurl and `apiexplorer list` write it), not '\(text)'", at: node)
            return nil
        }
        return RPCSettings(method: text)
    }

    /// What a gRPC endpoint is besides its method: a POST of `/package.Service/Method`, marked for
    /// the transports by its content type, whose body is the request message as JSON.
    func checkRPCEndpoint(_ endpoint: inout CatalogEndpoint, fields: Entries, bodyNodes: [Entry], _ subject: String) {
        for field in fields where Self.keysBesideRPC.contains(field.key) {
            error("\(subject) is a gRPC method: '\(field.key)' is for HTTP endpoints (its path and method come from 'grpc')", at: field.keyNode)
        }
        if let body = bodyNodes.first, body.key == "body", case .json = endpoint.body {
        } else if let body = bodyNodes.first, body.key == "body" {
            error("the body of \(subject) is the request message: write it as a mapping (JSON), or a list of them for a client stream", at: body.value)
        }
        guard let rpc = endpoint.rpc else { return }
        endpoint.path = rpc.path
        endpoint.method = .post
        endpoint.headers.set("Content-Type", RPCStatus.contentType, origin: .body)
    }

    /// An RPC's fixture: `message` (one) or `messages` (a list; `{after: 0.5, message: …}` delays
    /// one), `status` (a code name, or a mapping with `code`, `message` and details), `headers`,
    /// `trailers`, `delay`, `repeats`.
    func decodeRPCExample(_ node: YAMLNode, name: String, what: @autoclosure () -> String) -> CatalogExample? {
        let allowed = name == CatalogExample.defaultName ? Self.rpcExampleKeys : Self.rpcExampleKeys + ["expect"]
        guard let fields = entries(node, what(), allowed: allowed, moved: name == CatalogExample.defaultName ? Self.movedFromStub : [:]) else { return nil }
        let before = errorCount
        var fixture = RPCFixture()
        var summary: String?
        var delay: Duration?
        var repeats = false
        var expectations = ResponseExpectations()
        let messageKeys = fields.filter { $0.key == "message" || $0.key == "messages" }
        if messageKeys.count > 1 { error("\(what()) has both 'message' and 'messages': give one", at: messageKeys[1].keyNode) }
        for field in fields {
            let value = field.value
            switch field.key {
            case "description": summary = text(value, "the description of \(what())")
            case "message":
                if let json = json(value, "the message of \(what())") { fixture.messages = [RPCFixture.Message(json: json)] }
            case "messages":
                fixture.isStream = true
                fixture.messages = list(value, "the messages of \(what())").compactMap { rpcMessage($0, "a message of \(what())") }
            case "status": decodeRPCStatus(value, into: &fixture, "the status of \(what())")
            case "headers": fixture.headers = textMap(value, "the headers of \(what())")?.map { ($0.key, $0.value) } ?? []
            case "trailers": fixture.trailers = textMap(value, "the trailers of \(what())")?.map { ($0.key, $0.value) } ?? []
            case "delay": delay = duration(value, "the delay of \(what())")
            case "repeats": repeats = boolean(value, "'repeats' of \(what())") ?? false
            case "expect": expectations = decodeExpectations(value, what())
            default: break
            }
        }
        guard errorCount == before else { return nil }
        var example = CatalogExample(name: name, summary: summary, sample: fixture.sample, delay: delay)
        example.rpc = fixture
        example.repeats = repeats
        example.expectations = expectations
        return example
    }

    /// A message of a stream: the message itself, or `{after: DURATION, message: …}`.
    private func rpcMessage(_ node: YAMLNode, _ what: @autoclosure () -> String) -> RPCFixture.Message? {
        if let pairs = node.mappingPairs, pairs.count == 2, let fields = entries(node, what()),
            Set(fields.map(\.key)) == ["after", "message"], let after = fields.first(where: { $0.key == "after" }),
            let message = fields.first(where: { $0.key == "message" })
        {
            guard let json = json(message.value, what()) else { return nil }
            return RPCFixture.Message(json: json, after: duration(after.value, "'after' of \(what())"))
        }
        return json(node, what()).map { RPCFixture.Message(json: $0) }
    }

    /// `status: NOT_FOUND`, or `{code, message, retryDelay, violations: {field: description}, reason, domain}`.
    private func decodeRPCStatus(_ node: YAMLNode, into fixture: inout RPCFixture, _ what: @autoclosure () -> String) {
        func code(_ node: YAMLNode) -> Int? {
            guard let text = nonEmptyText(node, "the code of \(what())") else { return nil }
            guard let code = RPCStatus.code(named: text) else {
                error("\(what()) must be a gRPC status code (NOT_FOUND, UNAVAILABLE … or 0–16), not '\(text)'"
                    + DidYouMean.hint(for: text.uppercased(), among: RPCStatus.codeNames), at: node)
                return nil
            }
            return code
        }
        guard node.mappingPairs != nil else {
            fixture.code = code(node) ?? 0
            return
        }
        guard let fields = entries(node, what(), allowed: Self.rpcStatusKeys) else { return }
        require(["code"], in: fields, of: node, what())
        for field in fields {
            let value = field.value
            switch field.key {
            case "code": fixture.code = code(value) ?? 0
            case "message": fixture.statusMessage = text(value, "the message of \(what())") ?? ""
            case "retryDelay": fixture.retryDelay = duration(value, "'retryDelay' of \(what()) (google.rpc.RetryInfo)")
            case "violations":
                fixture.violations = textMap(value, "'violations' of \(what()) (google.rpc.BadRequest: field → description)")?.map {
                    RPCFixture.Violation(field: $0.key, description: $0.value)
                } ?? []
            case "reason": fixture.errorReason = text(value, "'reason' of \(what()) (google.rpc.ErrorInfo)")
            case "domain": fixture.errorDomain = text(value, "'domain' of \(what()) (google.rpc.ErrorInfo)")
            default: break
            }
        }
    }
}
