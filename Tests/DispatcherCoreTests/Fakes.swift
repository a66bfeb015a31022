import DispatcherCore
import Foundation
import Synchronization

/// A transport that answers from a script: one closure call per request, in order.
final class ScriptedTransport: Transport {
    private let script: @Sendable (Request, Int) async throws(TransportError) -> Response
    private let calls = Mutex<[Request]>([])

    init(_ script: @escaping @Sendable (Request, Int) async throws(TransportError) -> Response) {
        self.script = script
    }

    /// Always answers `status` with `body`.
    convenience init(status: Int, body: String = "", headers: Headers = Headers()) {
        self.init { request, _ in
            Response(status: status, headers: headers, body: Data(body.utf8), url: request.url)
        }
    }

    var requests: [Request] { calls.withLock { $0 } }
    var count: Int { calls.withLock { $0.count } }

    func send(_ request: Request) async throws(TransportError) -> Response {
        let index = calls.withLock { calls in
            calls.append(request)
            return calls.count
        }
        return try await script(request, index)
    }
}

/// A plugin that writes what it sees into a shared log.
struct RecordingPlugin: Plugin {
    let name: String
    let log: EventLog

    func prepare(_ request: inout Request, target: any TargetType) {
        log.append("\(name).prepare")
        request.headers.set("X-Prepared-By", name, origin: .plugin(name))
    }

    func willSend(_ request: Request, target: any TargetType) {
        log.append("\(name).willSend(\(request.headers["X-Prepared-By"] ?? "-"))")
    }

    func didReceive(_ result: Result<Response, DispatchError>, request: Request, target: any TargetType) {
        log.append("\(name).didReceive")
    }

    func process(_ result: inout Result<Response, DispatchError>, request: Request, target: any TargetType) {
        log.append("\(name).process")
        result = result.map { response in
            var response = response
            response.headers.add("X-Processed-By", name, origin: .plugin(name))
            return response
        }
    }
}

/// A thread-safe list of strings.
final class EventLog: Sendable {
    private let events = Mutex<[String]>([])
    func append(_ event: String) { events.withLock { $0.append(event) } }
    var all: [String] { events.withLock { $0 } }
}

/// An interceptor that logs and retries a fixed number of times.
struct RecordingInterceptor: RequestInterceptor {
    let log: EventLog
    var retries = 0

    func adapt(_ request: Request) async throws(DispatchError) -> Request {
        log.append("adapt(\(request.attempt))")
        var request = request
        request.headers.set("X-Prepared-By", "interceptor", origin: .interceptor("recording"))
        return request
    }

    func retry(_ request: Request, dueTo error: DispatchError, attempt: Int) async -> RetryDecision {
        log.append("retry(\(attempt))")
        return attempt <= retries ? .retry(after: .zero) : .doNotRetry
    }
}

let testBaseURL = URL(string: "https://api.example.test/v1")!

func environment(
    fixtures: StubBehavior = .immediate, retry: RetryPolicy? = nil, headers: Headers = Headers(),
    groupHeaders: [String: Headers] = [:], variables: [String: String] = [:]
) -> Environment {
    Environment(
        name: "dev", type: .development, baseURL: testBaseURL, headers: headers, groupHeaders: groupHeaders,
        variables: variables, fixtures: fixtures, retry: retry)
}

func json(_ text: String) -> Data { Data(text.utf8) }

func sample(_ status: Int, _ body: String = "", headers: [(String, String)] = []) -> SampleResponse {
    .response(status: status, headers: Headers(headers + [("Content-Type", "application/json")], origin: .server), body: json(body))
}
