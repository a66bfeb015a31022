import DispatcherCore
import Foundation
import TestSupport
import Testing
import TestTraits

@Suite(.offPool) struct RetryTests {
    /// Answers 503 `failures` times, then 200.
    func flaky(failures: Int, headers: Headers = Headers()) -> ScriptedTransport {
        ScriptedTransport { request, call in
            call <= failures
                ? Response(status: 503, headers: headers, url: request.url)
                : Response(status: 200, body: Data("ok".utf8), url: request.url)
        }
    }

    @Test func backsOffExponentiallyUpToTheLimit() async throws {
        let clock = ManualClock()
        let transport = flaky(failures: 2)
        let policy = RetryPolicy(limit: 3, initialBackoff: .milliseconds(100), multiplier: 2)
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never, retry: policy), transport: transport, clock: DispatchClock(clock))
        let request = Task { await dispatcher.send(Target(.get, "/flaky")) }

        try #require(await clock.waitForSleepers(1))
        #expect(transport.count == 1)
        clock.advance(by: .milliseconds(99))
        #expect(transport.count == 1)
        clock.advance(by: .milliseconds(1))
        try #require(await clock.waitForSleepers(1))
        #expect(transport.count == 2)
        clock.advance(by: .milliseconds(200))
        let exchange = await request.value

        #expect(transport.count == 3)
        #expect(exchange.response?.status == 200)
        #expect(exchange.attempts == 3)
        #expect(exchange.trace.map(\.kind).filter { if case .retryScheduled = $0 { true } else { false } } == [
            .retryScheduled(attempt: 1, after: .milliseconds(100)), .retryScheduled(attempt: 2, after: .milliseconds(200)),
        ])
        #expect(transport.requests.map(\.attempt) == [1, 2, 3])
    }

    @Test func givesUpAfterTheLimit() async {
        let transport = flaky(failures: 10)
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never, retry: RetryPolicy(limit: 2, initialBackoff: .zero)), transport: transport)
        let exchange = await dispatcher.send(Target(.get, "/flaky"))
        #expect(transport.count == 3)
        #expect(exchange.error?.kind == .serverError(503))
    }

    @Test func honoursRetryAfter() async throws {
        let clock = ManualClock()
        let transport = flaky(failures: 1, headers: Headers([("Retry-After", "3")], origin: .server))
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never, retry: RetryPolicy()), transport: transport, clock: DispatchClock(clock))
        let request = Task { await dispatcher.send(Target(.get, "/limited")) }
        try #require(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(2999))
        #expect(transport.count == 1)
        clock.advance(by: .milliseconds(1))
        #expect(await request.value.response?.status == 200)
    }

    @Test func aRetryAfterLongerThanTheMaximumIsNotWaitedFor() {
        let policy = RetryPolicy(maximumRetryAfter: .seconds(10))
        var error = DispatchError(kind: .tooManyRequests, message: "", status: 429, source: "test")
        error.retryAfter = .seconds(3600)
        let request = Request(identifier: "x", method: .get, url: testBaseURL, settings: TransportSettings(environment: environment()))
        #expect(policy.decision(for: request, error: error, attempt: 1) == .doNotRetry)
    }

    @Test func retriesOnlyRetryableMethodsStatusesAndTransportFailures() {
        let policy = RetryPolicy(limit: 2, initialBackoff: .seconds(1))
        func decision(_ method: HTTPMethod, status: Int? = nil, code: TransportError.Code? = nil, attempt: Int = 1) -> RetryDecision {
            let request = Request(identifier: "x", method: method, url: testBaseURL, settings: TransportSettings(environment: environment()))
            let error = code.map { DispatchError(transport: TransportError($0)) }
                ?? DispatchError(kind: ErrorKind(status: status ?? 500), message: "", status: status, source: "test")
            return policy.decision(for: request, error: error, attempt: attempt)
        }
        #expect(decision(.get, status: 503) == .retry(after: .seconds(1)))
        #expect(decision(.get, status: 503, attempt: 2) == .retry(after: .seconds(2)))
        #expect(decision(.get, status: 503, attempt: 3) == .doNotRetry)
        #expect(decision(.post, status: 503) == .doNotRetry)
        #expect(decision(.put, status: 502) == .retry(after: .seconds(1)))
        #expect(decision(.get, status: 404) == .doNotRetry)
        #expect(decision(.get, code: .timedOut) == .retry(after: .seconds(1)))
        #expect(decision(.get, code: .pinningFailed) == .doNotRetry)
        #expect(decision(.get, code: .cancelled) == .doNotRetry)
    }

    @Test func backoffIsCapped() {
        let policy = RetryPolicy(initialBackoff: .seconds(1), multiplier: 10, maximumBackoff: .seconds(30))
        #expect(policy.backoff(beforeRetry: 1) == .seconds(1))
        #expect(policy.backoff(beforeRetry: 2) == .seconds(10))
        #expect(policy.backoff(beforeRetry: 3) == .seconds(30))
    }

    @Test func cancellingDuringBackoffStopsRetrying() async throws {
        let clock = ManualClock()
        let transport = flaky(failures: 5)
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .never, retry: RetryPolicy(limit: 5)), transport: transport, clock: DispatchClock(clock))
        let request = Task { await dispatcher.send(Target(.get, "/flaky")) }
        try #require(await clock.waitForSleepers(1))
        request.cancel()
        let exchange = await request.value
        #expect(exchange.error?.kind == .cancelled)
        #expect(transport.count == 1)
    }
}
