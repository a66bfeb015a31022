import Catalog
import DispatcherCore
import FoundationEssentials
import HTTPEcho
import JSONSupport
import TextSupport

/// What the server does for one request, decided by a pure function; the channel handler carries
/// it out. Network errors are simulated as faithfully as plain HTTP allows (see `MockPlanner`).
struct MockPlan: Sendable {
    /// What goes on the wire.
    enum Action: Sendable {
        /// A complete response.
        case respond(status: Int, headers: [(String, String)], body: Data)
        /// Say nothing and keep the connection open until the client gives up (`timedOut`).
        case hold
        /// Send the head and part of the body, then close (`networkConnectionLost`).
        case closeMidBody(status: Int, headers: [(String, String)], partialBody: Data)
        /// Send only a head whose Content-Length is over the limit, then wait (`bodyTooLarge`).
        case declareTooLarge(headers: [(String, String)])
        /// Close the connection without a response.
        case close
        /// Send the head, then the body's pieces `interval` apart (chunked), then end: a stream.
        case stream(status: Int, headers: [(String, String)], pieces: [Data], interval: Duration)
    }

    let action: Action
    /// Wait before acting.
    let delay: Duration?
    /// The endpoint that matched, if any.
    let endpoint: EndpointKey?
    /// The example's name, when one was used.
    let example: String?
    /// What the log says the outcome is (`timedOut: holding the connection`); nil for a plain response.
    let outcome: String?
}

/// Decides what the mock server answers.
struct MockPlanner: Sendable {
    /// The query item that picks an example (besides the `X-Mock-Example` header).
    static let exampleQueryItem = "mock-example"

    let router: MockRouter
    let honourDelays: Bool
    let sessions = MockSessions()

    func plan(method: String, uri: String, headers: [(String, String)], body: Data = Data(), bodyTruncated: Bool = false) -> MockPlan {
        let (path, query) = MockPlanner.splitURI(uri)
        switch router.match(method: method, path: path) {
        case .index(let service):
            return json(200, index(service), outcome: nil)
        case .notFound:
            return mockError(404, "no endpoint matches \(method) \(path)", extra: ["services": .array(router.services.map { .string("/\($0.service.id)") })])
        case .methodNotAllowed(let allowed):
            var plan = mockError(405, "\(path) does not answer \(method); it answers \(allowed.map(\.rawValue).joined(separator: ", "))")
            if case .respond(let status, var responseHeaders, let body) = plan.action {
                responseHeaders.append(("Allow", allowed.map(\.rawValue).joined(separator: ", ")))
                plan = MockPlan(action: .respond(status: status, headers: responseHeaders, body: body), delay: nil, endpoint: nil, example: nil, outcome: plan.outcome)
            }
            return plan
        case .endpoint(let route):
            let requested = headers.first { $0.0.lowercased() == MockServer.exampleHeader.lowercased() }?.1
                ?? FormEncoding.decode(query).first { $0.name == MockPlanner.exampleQueryItem }?.value
            let endpoint = route.endpoint
            guard let example = endpoint.example(named: requested) else {
                return mockError(
                    400, "\(endpoint.key) has no example named '\(requested ?? "")'",
                    extra: ["examples": .array(endpoint.exampleNames.map(JSONValue.string))])
            }
            let delay = honourDelays ? (example.delay ?? route.service.fixtureDelay) : nil
            if requested == nil, let expired = expiredSession(route: route, headers: headers, method: method, uri: uri, delay: delay) {
                return expired
            }
            if let notModified = notModified(example, endpoint: endpoint, headers: headers) { return notModified }
            if case .echo(let status, let fixtureHeaders) = example.sample {
                let echoed = RequestEcho.body(method: method, uri: uri, headers: headers, body: body, truncated: bodyTruncated)
                let fields = fixtureHeaders.filter { $0.name.lowercased() != "content-type" }.map { ($0.name, $0.value) }
                    + [("Content-Type", "application/json"), (MockServer.exampleHeader, example.name)]
                return MockPlan(action: .respond(status: status, headers: fields, body: echoed), delay: delay, endpoint: endpoint.key, example: example.name, outcome: "echo")
            }
            let answer = plan(for: example, endpoint: endpoint, service: route.service, method: method, uri: uri, delay: delay)
            return issuingToken(answer, route: route)
        }
    }

    /// A protected endpoint asked without a live session: its `expired` example, else a 401 that says so.
    private func expiredSession(route: MockRouter.Route, headers: [(String, String)], method: String, uri: String, delay: Duration?) -> MockPlan? {
        guard let session = route.service.service.mockSession, route.service.protectedEndpoints.contains(route.endpoint.id),
            !sessions.admit(headers.map(\.1), expiresAfter: session.expiresAfter)
        else { return nil }
        let endpoint = route.endpoint
        if let expired = endpoint.example(named: "expired") {
            let plan = plan(for: expired, endpoint: endpoint, service: route.service, method: method, uri: uri, delay: delay)
            return MockPlan(action: plan.action, delay: plan.delay, endpoint: plan.endpoint, example: plan.example, outcome: "session expired")
        }
        let body = Data(#"{"expired":true,"message":"Your session expired, sign in again"}"#.utf8)
        return MockPlan(
            action: .respond(status: 401, headers: [("Content-Type", "application/json")], body: body), delay: delay,
            endpoint: endpoint.key, example: nil, outcome: "session expired")
    }

    /// A successful answer of the service's `auth.refresh` endpoint carries a new token.
    private func issuingToken(_ answer: MockPlan, route: MockRouter.Route) -> MockPlan {
        guard route.service.service.mockSession != nil, let rule = route.service.service.authRefresh, route.endpoint.id == rule.endpoint,
            case .respond(let status, let headers, let body) = answer.action, (200..<300).contains(status)
        else { return answer }
        let token = sessions.issue(for: route.service.service.id)
        return MockPlan(
            action: .respond(status: status, headers: headers, body: MockSessions.body(body, settingToken: token, at: rule.token)),
            delay: answer.delay, endpoint: answer.endpoint, example: answer.example, outcome: "issued \(token)")
    }

    private func plan(
        for example: CatalogExample, endpoint: CatalogEndpoint, service: MockService, method: String, uri: String, delay: Duration?
    ) -> MockPlan {
        let exampleHeader = (MockServer.exampleHeader, example.name)
        func make(_ action: MockPlan.Action, _ outcome: String? = nil) -> MockPlan {
            MockPlan(action: action, delay: delay, endpoint: endpoint.key, example: example.name, outcome: outcome)
        }
        switch example.sample {
        case .noFixture:
            // Like stub mode, the mock never invents an answer the catalog does not give.
            let error = mockError(
                501, "\(endpoint.key) has no fixture: add a 'stub:' to it in the catalog, or send it to the real API",
                extra: ["examples": .array(endpoint.examples.map { JSONValue.string($0.name) })])
            return MockPlan(action: error.action, delay: delay, endpoint: endpoint.key, example: nil, outcome: "no fixture")
        case .status(let status, let body):
            return make(.respond(status: status, headers: [exampleHeader], body: method == "HEAD" ? Data() : body))
        case .response(let status, let headers, let body):
            let fields = headers.map { ($0.name, $0.value) } + [exampleHeader]
            if let interval = example.streamInterval, method != "HEAD" {
                let pieces = MockPlanner.streamPieces(body, eventStream: headers["Content-Type"]?.lowercased().hasPrefix("text/event-stream") ?? false)
                return make(.stream(status: status, headers: fields, pieces: pieces, interval: honourDelays ? interval : .zero))
            }
            return make(.respond(status: status, headers: fields, body: method == "HEAD" ? Data() : body))
        case .echo(let status, let headers):
            // Echoing examples are answered before a plan is made (they need the request's body).
            return make(.respond(status: status, headers: headers.map { ($0.name, $0.value) } + [exampleHeader], body: Data()))
        case .networkError(let failure):
            let code = failure.code
            switch code {
            case .timedOut, .cancelled:
                return make(.hold, "\(code.rawValue): holding the connection until the client gives up")
            case .networkConnectionLost:
                let body = Data(#"{"message":"this body is cut off half-way through","padding":""#.utf8)
                    + Data(repeating: UInt8(ascii: "x"), count: 200)
                return make(
                    .closeMidBody(status: 200, headers: [("Content-Type", "application/json"), ("Content-Length", "4096"), exampleHeader], partialBody: body),
                    "\(code.rawValue): closed after \(body.count) of 4096 body bytes")
            case .bodyTooLarge:
                let declared = service.maximumBodySize + 1
                return make(
                    .declareTooLarge(headers: [("Content-Type", "application/octet-stream"), ("Content-Length", String(declared)), exampleHeader]),
                    "\(code.rawValue): declared \(declared) bytes, over the limit of \(service.maximumBodySize)")
            case .cannotDecodeContentData:
                let garbage = Data("this is not gzip data".utf8)
                return make(
                    .respond(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip"), exampleHeader], body: garbage),
                    "\(code.rawValue): gzip-encoded body that is not gzip")
            case .tooManyRedirects:
                return make(.respond(status: 302, headers: [("Location", uri), exampleHeader], body: Data()), "\(code.rawValue): redirect to itself")
            default:
                return make(.close, "\(code.rawValue): closed without a response")
            }
        }
    }

    /// A `304 Not Modified` when the request's `If-None-Match` names the fixture's `ETag` (or `*`),
    /// as a real server revalidates: the client's cache then serves what it kept (RFC 9110 §13.1.2).
    private func notModified(_ example: CatalogExample, endpoint: CatalogEndpoint, headers: [(String, String)]) -> MockPlan? {
        guard case .response(let status, let fixtureHeaders, _) = example.sample, (200..<300).contains(status),
            let etag = fixtureHeaders["ETag"],
            let asked = headers.first(where: { $0.0.lowercased() == "if-none-match" })?.1
        else { return nil }
        let weak = { (tag: Substring) in tag.hasPrefix("W/") ? tag.dropFirst(2) : tag }
        let tags = asked.split(separator: ",").map { weak($0.trimmedSpaces[...]) }
        guard tags.contains("*") || tags.contains(weak(etag[...])) else { return nil }
        let kept = fixtureHeaders.filter { ["etag", "cache-control", "expires", "last-modified", "vary"].contains($0.name.lowercased()) }
        return MockPlan(
            action: .respond(status: 304, headers: kept.map { ($0.name, $0.value) } + [(MockServer.exampleHeader, example.name)], body: Data()),
            delay: nil, endpoint: endpoint.key, example: example.name, outcome: "not modified: If-None-Match \(asked)")
    }

    private func json(_ status: Int, _ value: JSONValue, outcome: String?) -> MockPlan {
        MockPlan(
            action: .respond(status: status, headers: [("Content-Type", "application/json")], body: Data(value.prettyText().utf8)),
            delay: nil, endpoint: nil, example: nil, outcome: outcome)
    }

    /// A problem of the mock itself (no route, no example), marked `X-Mock-Error` so it is not
    /// mistaken for a fixture.
    private func mockError(_ status: Int, _ message: String, extra: [String: JSONValue] = [:]) -> MockPlan {
        var object = JSONObject([("error", .string(message))])
        for (key, value) in extra.sorted(by: { $0.key < $1.key }) { object[key] = value }
        let body = Data(JSONValue.object(object).prettyText().utf8)
        return MockPlan(
            action: .respond(status: status, headers: [("Content-Type", "application/json"), ("X-Mock-Error", "true")], body: body),
            delay: nil, endpoint: nil, example: nil, outcome: "mock error: \(message)")
    }

    /// The services (at `/`) or one service's endpoints (at `/<service>`), for people trying `curl`.
    private func index(_ service: MockService?) -> JSONValue {
        guard let service else {
            return .object(JSONObject([
                ("services", .array(router.services.map { item in
                    .object(JSONObject([
                        ("id", .string(item.service.id)), ("title", .string(item.service.title)),
                        ("path", .string("/\(item.service.id)")), ("endpoints", .integer(item.service.endpoints.count)),
                    ]))
                })),
                ("pickExample", .string("send the header \(MockServer.exampleHeader): NAME or the query item \(MockPlanner.exampleQueryItem)=NAME")),
            ]))
        }
        return .object(JSONObject([
            ("service", .string(service.service.id)),
            ("endpoints", .array(service.service.endpoints.map { endpoint in
                .object(JSONObject([
                    ("id", .string(endpoint.id)), ("method", .string(endpoint.method.rawValue)),
                    ("path", .string("/\(service.service.id)\(endpoint.path.hasPrefix("/") ? "" : "/")\(endpoint.path)")),
                    ("examples", .array(endpoint.exampleNames.map(JSONValue.string))),
                ]))
            })),
        ]))
    }

    /// A body cut where a stream's reader sees a unit: after each blank line (an event) of an event
    /// stream, after each line otherwise.
    static func streamPieces(_ body: Data, eventStream: Bool) -> [Data] {
        let bytes = [UInt8](body)
        var pieces: [Data] = []
        var start = 0
        var index = 0
        while index < bytes.count {
            let ends: Bool
            if eventStream {
                ends = bytes[index] == 0x0A && index + 1 < bytes.count && bytes[index + 1] == 0x0A
                if ends { index += 1 }
            } else {
                ends = bytes[index] == 0x0A
            }
            index += 1
            if ends {
                pieces.append(Data(bytes[start..<index]))
                start = index
            }
        }
        if start < bytes.count { pieces.append(Data(bytes[start...])) }
        return pieces
    }

    /// `/a/b?x=1` → (`/a/b`, `x=1`).
    static func splitURI(_ uri: String) -> (path: String, query: String) {
        guard let mark = uri.firstIndex(of: "?") else { return (uri, "") }
        return (String(uri[..<mark]), String(uri[uri.index(after: mark)...]))
    }
}
