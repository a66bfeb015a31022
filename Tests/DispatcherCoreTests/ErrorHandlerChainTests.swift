import DispatcherCore
import Foundation
import Synchronization
import Testing
import TestTraits

@Suite(.offPool) struct ErrorHandlerChainTests {
    let notFound = Target(.get, "/pet/9", sampleResponse: sample(404, #"{"message":"no pet"}"#))

    @Test func handlersMatchByTransportCodeStatusKindAndFallbackInOrder() async {
        let log = EventLog()
        func recorder(_ name: String, resolve: Bool) -> @Sendable (DispatchError, Request) async -> ErrorResolution? {
            { error, _ in
                log.append(name)
                return resolve ? .failed(error, note: "\(name) handled it") : nil
            }
        }
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            errorHandlers: [
                MatchingErrorHandler.transport([.timedOut], name: "timeouts", action: recorder("timeouts", resolve: true)),
                MatchingErrorHandler.status([404], name: "404 observer", action: recorder("404 observer", resolve: false)),
                MatchingErrorHandler.kind([.notFound], name: "not found", action: recorder("not found", resolve: true)),
                MatchingErrorHandler.fallback(name: "fallback", action: recorder("fallback", resolve: true)),
            ])
        let exchange = await dispatcher.send(notFound)
        #expect(log.all == ["404 observer", "not found"])
        #expect(exchange.trace.contains { $0.kind == .handled(by: "not found", note: "not found handled it") })

        let offline = Target(.get, "/x", sampleResponse: .networkError(TransportError(.timedOut)))
        _ = await dispatcher.send(offline)
        #expect(log.all.suffix(1) == ["timeouts"])

        let teapot = Target(.get, "/x", sampleResponse: .status(418, Data()))
        _ = await dispatcher.send(teapot)
        #expect(log.all.suffix(1) == ["fallback"])
    }

    @Test func aHandlerRetriesUntilItPassesAndTheTraceSaysWhoPassedAndThatNoneHandledIt() async {
        let asked = Mutex<[Int]>([])
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            errorHandlers: [
                MatchingErrorHandler.status([500], name: "never mine") { _, _ in nil },
                MatchingErrorHandler.kind([.notFound], name: "twice more") { _, request in
                    asked.withLock { $0.append(request.attempt) }
                    return request.attempt <= 2 ? .retry(after: .zero, note: "try again") : nil
                },
            ])
        let exchange = await dispatcher.send(notFound)
        #expect(asked.withLock { $0 } == [1, 2, 3])
        #expect(exchange.attempts == 3)
        #expect(exchange.trace.filter { $0.kind == .retriedByHandler(by: "twice more", after: .zero, note: "try again") }.count == 2)
        #expect(exchange.trace.contains { $0.kind == .passed(by: "never mine") })
        #expect(exchange.trace.last?.kind == .unhandled)
        #expect(exchange.error?.kind == .notFound)
    }

    @Test func aHandlerThatNeverStopsRetryingIsStoppedAfterTen() async {
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            errorHandlers: [MatchingErrorHandler.fallback(name: "stubborn") { _, _ in .retry(after: .zero, note: "again") }])
        let exchange = await dispatcher.send(notFound)
        #expect(exchange.attempts == 11)
        #expect(exchange.error?.kind == .notFound)
    }

    @Test func aHandlerCanRecoverWithAResponse() async throws {
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            errorHandlers: [
                MatchingErrorHandler.kind([.notFound], name: "default pet") { _, request in
                    .recovered(Response(status: 200, body: Data("{}".utf8), url: request.url), note: "used a default")
                }
            ])
        let exchange = await dispatcher.send(notFound)
        #expect(try exchange.result.get().status == 200)
    }

    @Test func theInlineHandlerRunsFirstAndStopsTheChain() async {
        let log = EventLog()
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            errorHandlers: [MatchingErrorHandler.fallback(name: "fallback") { error, _ in log.append("chain"); return .failed(error, note: "") }])
        let options = RequestOptions(errorHandler: { error, _ in
            log.append("inline")
            var error = error
            error.message = "handled inline"
            return .failed(error, note: "inline")
        })
        let exchange = await dispatcher.send(notFound, options: options)
        #expect(log.all == ["inline"])
        #expect(exchange.error?.message == "handled inline")

        let passing = RequestOptions(errorHandler: { _, _ in log.append("inline passes"); return nil })
        _ = await dispatcher.send(notFound, options: passing)
        #expect(log.all.suffix(2) == ["inline passes", "chain"])
    }

    @Test func cancelledRequestsDoNotRunHandlers() async {
        let log = EventLog()
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            errorHandlers: [MatchingErrorHandler.fallback(name: "fallback") { _, _ in log.append("chain"); return nil }])
        _ = await dispatcher.send(Target(.get, "/x", sampleResponse: .networkError(TransportError(.cancelled))))
        #expect(log.all.isEmpty)
    }

    @Test func resumesAtMostOnce() async {
        let log = EventLog()
        let dispatcher = Dispatcher<Target>(
            environment: environment(),
            errorHandlers: [MatchingErrorHandler.status([401], name: "always resume") { _, _ in log.append("resume"); return .resume(note: "again") }])
        let exchange = await dispatcher.send(Target(.get, "/me", sampleResponse: .status(401, Data())))
        #expect(log.all == ["resume", "resume"])
        #expect(exchange.attempts == 2)
        #expect(exchange.error?.kind == .unauthorized)
        #expect(exchange.trace.contains { $0.kind == .resumeRefused(by: "always resume") })
    }
}
