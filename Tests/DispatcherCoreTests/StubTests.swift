import DispatcherCore
import Foundation
import TestSupport
import Testing
import TestTraits

@Suite(.offPool) struct StubTests {
    let target = Target(
        .get, "/pet/7", identifier: "petstore/findPet",
        sampleResponse: sample(200, #"{"id":7}"#),
        examples: [
            NamedSample(name: "notFound", sample: sample(404, #"{"message":"Pet not found"}"#)),
            NamedSample(name: "offline", sample: .networkError(TransportError(.notConnectedToInternet))),
        ])

    @Test func immediateStubsAnswerWithTheSampleAndSaySo() async throws {
        let exchange = await Dispatcher<Target>(environment: environment(fixtures: .immediate)).send(target)
        let response = try exchange.result.get()
        #expect(response.status == 200)
        #expect(response.text == #"{"id":7}"#)
        #expect(response.source == .stub(example: nil))
        #expect(exchange.isStubbed)
        #expect(exchange.environmentName == "dev")
    }

    @Test func delayedStubsWaitOnTheClock() async throws {
        let clock = ManualClock()
        let dispatcher = Dispatcher<Target>(environment: environment(fixtures: .delayed(.seconds(2))), clock: DispatchClock(clock))
        let request = Task { await dispatcher.send(target) }
        try #require(await clock.waitForSleepers(1))
        clock.advance(by: .milliseconds(1999))
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .milliseconds(1))
        let exchange = await request.value
        #expect(exchange.response?.status == 200)
        #expect(exchange.response?.timing.total == .seconds(2))
    }

    @Test func cancellingADelayedStubEndsItAsCancelled() async throws {
        let clock = ManualClock()
        let activity = NetworkActivityPlugin()
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .delayed(.seconds(5))), plugins: [activity], clock: DispatchClock(clock))
        let request = Task { await dispatcher.send(target) }
        try #require(await clock.waitForSleepers(1))
        #expect(activity.inFlight == 1)
        request.cancel()
        let exchange = await request.value
        #expect(exchange.error?.kind == .cancelled)
        #expect(exchange.error?.message == "The request was cancelled.")
        #expect(exchange.trace.last?.kind == .cancelled)
        #expect(activity.inFlight == 0)
    }

    @Test func namedExamplesExploreErrorsOffline() async {
        let dispatcher = Dispatcher<Target>(environment: environment())
        let notFound = await dispatcher.send(target, options: RequestOptions(example: "notFound"))
        #expect(notFound.error?.kind == .notFound)
        #expect(notFound.error?.message == "Pet not found")
        #expect(notFound.response?.source == .stub(example: "notFound"))

        let offline = await dispatcher.send(target, options: RequestOptions(example: "offline"))
        #expect(offline.error?.kind == .notConnected)
        #expect(offline.error?.transportError?.code == .notConnectedToInternet)

        let missing = await dispatcher.send(target, options: RequestOptions(example: "nope"))
        #expect(missing.error?.kind == .invalidRequest)
        #expect(missing.error?.message == "petstore/findPet has no example named 'nope'; it has notFound, offline.")
    }

    @Test func theEnvironmentsFixturesTypeDecidesUnlessTheRequestSays() async {
        let transport = ScriptedTransport(status: 204)
        let dispatcher = Dispatcher<Target>(environment: environment(fixtures: .never), transport: transport)
        let live = await dispatcher.send(target)
        #expect(live.response?.status == 204)
        #expect(live.response?.source == .network)
        #expect(!live.isStubbed)
        let stubbed = await dispatcher.send(target, options: RequestOptions(stubBehavior: .immediate))
        #expect(stubbed.response?.status == 200)
        #expect(transport.count == 1)
    }

    @Test func liveModeWithoutATransportSaysWhy() async {
        let exchange = await Dispatcher<Target>(environment: environment(fixtures: .never)).send(target)
        #expect(exchange.error?.kind == .invalidRequest)
        #expect(exchange.error?.message.contains("needs a transport") == true)
    }

    @Test func switchingTheEnvironmentAffectsLaterRequestsAndLabelsEachExchange() async {
        let dispatcher = Dispatcher<Target>(environment: environment())
        let first = await dispatcher.send(target)
        var staging = environment()
        staging.name = "staging"
        staging.type = .staging
        staging.baseURL = URL(string: "https://staging.example.test")!
        dispatcher.environment = staging
        let second = await dispatcher.send(target)
        #expect(first.environmentName == "dev")
        #expect(second.environmentName == "staging")
        #expect(second.environmentType == .staging)
        #expect(second.request.url.absoluteString == "https://staging.example.test/pet/7")
    }
}

/// An example that repeats answers the attempts a handler resumes too; one that does not leaves
/// them to the default sample.
@Suite(.offPool) struct RepeatingExampleTests {
    struct ResumeOnce: ErrorHandler {
        let name = "resume"
        func handle(_ error: DispatchError, request: Request) async -> ErrorResolution? {
            request.options.isResumed ? nil : .resume(note: "once")
        }
    }

    func exchange(example: String) async -> Exchange {
        let target = Target(
            .get, "/me", sampleResponse: .status(200, Data("{}".utf8)),
            examples: [
                NamedSample(name: "expired", sample: .status(401, Data())),
                NamedSample(name: "revoked", sample: .status(401, Data()), repeats: true),
            ])
        let dispatcher = Dispatcher<Target>(environment: environment(fixtures: .immediate), errorHandlers: [ResumeOnce()])
        return await dispatcher.send(target, options: RequestOptions(example: example))
    }

    @Test func aRepeatingExampleAnswersTheResumedAttemptToo() async {
        let expired = await exchange(example: "expired")
        #expect(expired.response?.status == 200)
        #expect(expired.attempts == 2)
        let revoked = await exchange(example: "revoked")
        #expect(revoked.error?.kind == .unauthorized)
        #expect(revoked.attempts == 2)
    }
}

/// An `.echo` example answers with what the dispatcher's `echo` makes of the request as it would
/// be sent: the core knows no echo format of its own.
@Suite(.offPool) struct EchoSampleTests {
    let target = Target(.post, "/upload", examples: [NamedSample(name: "echo", sample: .echo(status: 201, headers: ["X-Echo": "yes"]))])

    @Test func theEchoBodyIsTheInjectedRenderingOfTheSentRequest() async throws {
        let dispatcher = Dispatcher<Target>(
            environment: environment(fixtures: .immediate), echo: { request in Data("\(request.method.rawValue) \(request.url.path())".utf8) })
        let response = try await dispatcher.send(target, options: RequestOptions(example: "echo")).result.get()
        #expect(response.status == 201)
        #expect(response.text == "POST /v1/upload", "the request as sent, the environment's base path included")
        #expect(response.headers["X-Echo"] == "yes")
        #expect(response.headers["Content-Type"] == "application/json")
        #expect(response.source == .stub(example: "echo"))
    }

    @Test func withoutAnEchoTheBodyIsEmpty() async throws {
        let response = try await Dispatcher<Target>(environment: environment(fixtures: .immediate)).send(target, options: RequestOptions(example: "echo")).result.get()
        #expect(response.status == 201)
        #expect(response.body.isEmpty)
    }
}
