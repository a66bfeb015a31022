import DispatcherCore
import Foundation
import Testing
import TestTraits

/// A stub for a target that declares no fixture says so (`noFixture`), never an invented `200`
/// (issue 34, point 4).
@Suite(.offPool) struct NoFixtureTests {
    /// Declares no sample response at all.
    let bare = Target(.get, "/pets", identifier: "petstore/listPets")

    @Test func aTargetWithoutAFixtureAnswersNoFixtureNotAnEmpty200() async {
        let exchange = await Dispatcher<Target>(environment: environment(fixtures: .immediate)).send(bare)
        #expect(exchange.response == nil)
        #expect(exchange.error?.kind == .noFixture)
        #expect(exchange.error?.message == "petstore/listPets has no fixture: stub mode has nothing to answer with, and nothing was sent.")
        #expect(exchange.error?.status == nil)
        #expect(exchange.isStubbed)
        #expect(ErrorKind(name: "noFixture") == .noFixture && ErrorKind.noFixture.answeredNothing)
    }

    @Test func aNamedExampleStillAnswersWhereTheDefaultHasNoFixture() async throws {
        let target = Target(.get, "/pets", examples: [NamedSample(name: "empty", sample: .status(200, Data("[]".utf8)))])
        let dispatcher = Dispatcher<Target>(environment: environment())
        #expect(await dispatcher.send(target).error?.kind == .noFixture)
        let picked = await dispatcher.send(target, options: RequestOptions(example: "empty"))
        #expect(try picked.result.get().text == "[]")
    }

    /// Nothing failed that a retry or a handler could change: neither runs.
    @Test func noFixtureIsNeitherRetriedNorHandled() async {
        let log = EventLog()
        let dispatcher = Dispatcher<Target>(
            environment: environment(), interceptor: RecordingInterceptor(log: log, retries: 3),
            errorHandlers: [MatchingErrorHandler.fallback(name: "fallback") { error, _ in
                log.append("fallback")
                return .failed(error, note: "handled")
            }])
        let exchange = await dispatcher.send(bare)
        #expect(exchange.error?.kind == .noFixture)
        #expect(exchange.attempts == 1)
        #expect(log.all == ["adapt(1)"])
    }

    @Test func liveModeSendsAsUsual() async throws {
        let transport = ScriptedTransport(status: 200, body: "live")
        let exchange = await Dispatcher<Target>(environment: environment(fixtures: .never), transport: transport).send(bare)
        #expect(try exchange.result.get().text == "live")
    }
}
