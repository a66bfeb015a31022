import DispatcherCore
import Foundation
import Testing
import TestTraits

@Suite(.offPool) struct PipelineOrderTests {
    @Test func hooksRunInTheDocumentedOrder() async throws {
        let log = EventLog()
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            plugins: [RecordingPlugin(name: "A", log: log), RecordingPlugin(name: "B", log: log)],
            interceptor: RecordingInterceptor(log: log))
        let response = try await dispatcher.request(Target(.get, "/pets", sampleResponse: sample(200, "[]")))

        #expect(log.all == [
            "adapt(1)", "A.prepare", "B.prepare", "A.willSend(B)", "B.willSend(B)",
            "A.didReceive", "B.didReceive", "A.process", "B.process",
        ])
        #expect(response.headers.values(for: "X-Processed-By") == ["A", "B"])
    }

    @Test func eachRetryRunsTheHooksAgainAndPairsEveryWillSendWithADidReceive() async throws {
        let log = EventLog()
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            plugins: [RecordingPlugin(name: "A", log: log)],
            interceptor: RecordingInterceptor(log: log, retries: 1))
        let exchange = await dispatcher.send(Target(.get, "/pets", sampleResponse: sample(503)))

        #expect(log.all == [
            "adapt(1)", "A.prepare", "A.willSend(A)", "A.didReceive", "A.process", "retry(1)",
            "adapt(2)", "A.prepare", "A.willSend(A)", "A.didReceive", "A.process", "retry(2)",
        ])
        #expect(exchange.attempts == 2)
        #expect(exchange.error?.kind == .serverError(503))
    }

    @Test func anAdaptFailureSendsNothing() async {
        struct Failing: RequestInterceptor {
            func adapt(_ request: Request) async throws(DispatchError) -> Request {
                throw .invalidRequest("no credentials")
            }
        }
        let log = EventLog()
        let transport = ScriptedTransport(status: 200)
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never), transport: transport,
            plugins: [RecordingPlugin(name: "A", log: log)], interceptor: Failing())
        let exchange = await dispatcher.send(Target(.get, "/pets"))
        #expect(exchange.error?.kind == .invalidRequest)
        #expect(transport.count == 0)
        #expect(log.all.isEmpty)
    }

    @Test func stubAndLiveRequestsLookTheSameToPlugins() async throws {
        let log = EventLog()
        let seen = EventLog()
        struct Capture: Plugin {
            let seen: EventLog
            func willSend(_ request: Request, target: any TargetType) {
                seen.append("\(request.method.rawValue) \(request.url.absoluteString) \(request.headers.map { "\($0.name)=\($0.value)" })")
            }
        }
        let target = Target(.post, "/pets", headers: ["Accept": "application/json"], body: .json(["name": "Rex"]), sampleResponse: sample(201, "{}"))
        let transport = ScriptedTransport(status: 201, body: "{}")
        let dispatcher = Dispatcher<Target>(
            environment: environment(), transport: transport,
            plugins: [RecordingPlugin(name: "A", log: log), Capture(seen: seen)])
        _ = await dispatcher.send(target, options: RequestOptions(stubBehavior: .immediate))
        _ = await dispatcher.send(target, options: RequestOptions(stubBehavior: .never))
        #expect(seen.all.count == 2)
        #expect(seen.all[0] == seen.all[1])
        #expect(transport.requests.first?.body == Data(#"{"name":"Rex"}"#.utf8))
    }
}
