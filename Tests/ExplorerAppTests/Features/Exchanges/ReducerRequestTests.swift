import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import Sessions
import TerminalKit
import Testing
import TestTraits

@Suite(.offPool) struct ReducerRequestTests {
    static let redactor = Redactor.standard.adding(secretValues: ["tok-secret-123"])

    @Test func enterSendsTheSelectedEndpointToTheActiveEnvironmentInTheCurrentMode() {
        var state = TestCatalog.state()
        let effects = state.press("Enter")
        let ticket = RequestTicket(id: 1, call: EndpointCall(endpoint: "shop/listItems", catalog: TestCatalog.key("shop", "").catalog, environment: "local", mode: .stub, example: nil))
        #expect(effects.sent == [ticket])
        #expect(state.inFlight == [1: ticket])
        #expect(effects.contains(.exchanges(.scheduleSpinnerTick(generation: 1, after: ExchangesState.spinnerInterval))))
        #expect(state.screen.contains("Sending to local (STUB)"))
    }

    @Test func aFinishedExchangeIsKeptPerEndpointAndShown() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        state.finish(ticket: 1, TestCatalog.exchange(status: 200, body: #"[{"id":1}]"#), redactor: Self.redactor)
        #expect(state.inFlight.isEmpty)
        #expect(state.responses["shop/listItems"]?.exchange.response?.status == 200)
        #expect(state.screen.contains("200 OK"))
        #expect(state.screen.contains(#""id": 1"#))
        _ = state.press("j")
        #expect(state.selectedResponse == nil)
        #expect(state.screen.contains("Not sent yet"))
    }

    @Test func sTogglesLiveModeForLaterRequests() {
        var state = TestCatalog.state()
        _ = state.press("s")
        #expect(state.mode == .live)
        #expect(state.notice == "LIVE: requests go to http://127.0.0.1:9/shop.")
        #expect(state.press("Enter").sent.first?.call.mode == .live)
        _ = state.press("s")
        #expect(state.mode == .stub)
    }

    @Test func xPicksANamedExampleAndSendsIt() {
        var state = TestCatalog.state()
        _ = state.press("x")
        guard case .exchanges(.examplePicker(let key, _))? = state.overlay else {
            Issue.record("no picker")
            return
        }
        #expect(key == "shop/listItems")
        #expect(state.screen.contains("rateLimited"))
        let effects = state.press("j Enter")
        #expect(effects.sent.first?.call.example == "rateLimited")
        #expect(state.chosenExample["shop/listItems"] == "rateLimited")
        #expect(state.overlay == nil)
        #expect(state.press("Enter").sent.first?.call.example == "rateLimited")
        _ = state.press("x g Enter")
        #expect(state.chosenExample["shop/listItems"] == nil)
    }

    /// An example is a fixture: picked in stub mode it stays for stub sends, and a live send
    /// (after `s`) goes without it, so neither the server nor the history sees one.
    @Test func aPickedExampleNeverGoesWithALiveSend() {
        var state = TestCatalog.state()
        #expect(state.press("x j Enter").sent.first?.call.example == "rateLimited")
        _ = state.press("s")
        let live = state.press("Enter").sent.first?.call
        #expect(live?.mode == .live)
        #expect(live?.example == nil)
        #expect(state.press("x Enter").sent.first?.call.example == nil, "picking in live mode sends live, without it")
        // … and says so (issue 49: it was dropped without a word).
        #expect(state.notice == "Sent live: the example 'rateLimited' answers only in STUB (s switches; it stays picked for STUB).")
        _ = state.press("s")
        #expect(state.press("Enter").sent.first?.call.example == "rateLimited")
    }

    /// Each environment starts as its `fixtures:` say, as `call` decides: production says `never`,
    /// so it starts live; `s` switches the environment it is pressed in only.
    @Test func theStartingModeFollowsEachEnvironmentsFixtures() {
        var state = TestCatalog.state()
        #expect(state.mode == .stub)
        _ = state.press("e e")
        #expect(state.activeEnvironment?.name == "production")
        #expect(state.mode == .live)
        _ = state.press("s")
        #expect(state.mode == .stub)
        _ = state.press("e")
        #expect(state.activeEnvironment?.name == "local")
        #expect(state.mode == .stub)
        _ = state.press("s")
        _ = state.press("e e")
        #expect(state.mode == .stub, "production stays as it was switched")
        _ = state.press("e")
        #expect(state.mode == .live, "local stays live")
    }

    /// After retries the time shown is the request's, waits included, with the attempts beside
    /// it; the last attempt's own time would hide them.
    @Test func afterRetriesTheTimeIsTheRequestsWithTheAttempts() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        var exchange = TestCatalog.exchange(status: 200)
        exchange.attempts = 3
        exchange.trace = [
            TraceEvent(at: .zero, kind: .sent(attempt: 1, stubbed: true)), TraceEvent(at: .milliseconds(30), kind: .received(status: 503, error: nil)),
            TraceEvent(at: .milliseconds(2400), kind: .sent(attempt: 3, stubbed: true)),
            TraceEvent(at: .milliseconds(2450), kind: .received(status: 200, error: nil)),
        ]
        if case .success(var response) = exchange.result {
            response.timing = Timing(total: .milliseconds(50))
            exchange.result = .success(response)
        }
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: exchange, redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(state.screen.contains("200 OK · 2450 ms · 3 attempts"), "\(state.screen)")
        #expect(!state.screen.contains("· 50 ms"))
    }

    @Test func escCancelsTheRequestInFlightThenClosesNothingElse() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        #expect(state.press("Esc") == [.exchanges(.cancel(ticket: 1))])
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 0, error: .cancelled), redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(state.press("Esc").isEmpty)
    }

    @Test func rResendsTheLastRequestAsItWasSentEvenAfterSwitching() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: .standard, finishedAt: TestCatalog.now))))
        _ = state.press("e s")
        let resent = state.press("r").sent
        #expect(resent.first?.call.environment == "local")
        #expect(resent.first?.call.mode == .stub)
        #expect(resent.first?.id == 2)
        #expect(state.press("Enter").sent.first?.call.environment == "staging")
    }

    @Test func aResponseFromAnotherEnvironmentOrModeIsLabelled() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = state.press("e")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(state.screen.contains("from local · STUB"))
        _ = state.press("E")
        #expect(!state.screen.contains("from local"))
    }

    @Test func changingDataInProductionAsksFirst() {
        var state = TestCatalog.state()
        _ = state.press("E j j")  // production (live: its fixtures are `never`), createItem
        #expect(state.press("Enter").isEmpty)
        guard case .exchanges(.confirmSend(let call))? = state.overlay else {
            Issue.record("no confirmation")
            return
        }
        #expect(call.endpoint.endpoint == "createItem")
        #expect(state.press("n").isEmpty)
        #expect(state.notice == "Not sent.")
        _ = state.press("Enter")
        #expect(state.press("y").sent.first?.call.environment == "production")
        _ = state.press("k k")
        #expect(state.press("Enter").sent.count == 1, "GET needs no confirmation")
    }

    @Test func cCopiesTheRequestAsCurlWithSecretsMaskedUnlessRevealed() {
        var state = TestCatalog.state()
        #expect(state.press("c").isEmpty)
        #expect(state.notice?.contains("Send the request first") == true)
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: Self.redactor, finishedAt: TestCatalog.now))))
        guard case .copyToClipboard(let masked, _) = state.press("c").first else {
            Issue.record("nothing copied")
            return
        }
        #expect(masked.contains("Authorization: Bearer ••••"))
        #expect(!masked.contains("tok-secret-123"))
        _ = state.press("v")
        guard case .copyToClipboard(let clear, _) = state.press("c").first else {
            Issue.record("nothing copied")
            return
        }
        #expect(clear.contains("Bearer tok-secret-123"))
        _ = AppReducer.reduce(&state, .copied(description: "the curl command"))
        #expect(state.notice == "Copied the curl command to the clipboard.")
    }

    @Test func capitalCCopiesTheRequestAsCodeInTheChosenFormat() {
        var state = TestCatalog.state()
        _ = state.press("C")
        #expect(state.overlay == nil && state.notice?.contains("then C copies it as code") == true)
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: Self.redactor, finishedAt: TestCatalog.now))))
        _ = state.press("C")
        #expect(state.screen.contains("Copy the request as") && state.screen.contains("Python requests"))
        guard case .copyToClipboard(let python, let description) = state.press("j Enter").first else {
            Issue.record("nothing copied")
            return
        }
        #expect(python.hasPrefix("import requests"))
        #expect(!python.contains("tok-secret-123"))
        #expect(description.contains("Python requests") && description.contains("secrets masked"))
        #expect(state.overlay == nil)
        guard case .copyToClipboard(let httpie, _) = state.press("C Enter").first else {
            Issue.record("nothing copied")
            return
        }
        #expect(httpie.hasPrefix("http --ignore-stdin GET"))
    }

    @Test func theRequestTabMasksSecretsUntilRevealed() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: Self.redactor, finishedAt: TestCatalog.now))))
        _ = state.press("4")
        #expect(state.screen.contains("Bearer ••••"))
        #expect(state.screen.contains("← group signedIn"))
        #expect(!state.screen.contains("tok-secret-123"))
        _ = state.press("v")
        #expect(state.screen.contains("tok-secret-123"))
        #expect(state.screen.contains("SECRETS SHOWN"))
    }

    @Test func theErrorsTabExplainsAMappedError() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        var error = DispatchError(kind: .tooManyRequests, message: "slow down", status: 429, retryAfter: .seconds(2), source: "status 429")
        error.response = Response(status: 429)
        var exchange = TestCatalog.exchange(status: 429, error: error)
        exchange.notes = ["session expired: signed out"]
        exchange.trace = [TraceEvent(at: .zero, kind: .retryScheduled(attempt: 1, after: .seconds(2)))]
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: exchange, redactor: .standard, finishedAt: TestCatalog.now))))
        _ = state.press("3")
        let screen = state.screen
        #expect(screen.contains("✗ tooManyRequests"))
        #expect(screen.contains("slow down"))
        #expect(screen.contains("429 Too Many Requests"))
        #expect(screen.contains("Mapped by      status 429"))
        #expect(screen.contains("Retry-After    2 s"))
        #expect(screen.contains("Retries        1"))
        #expect(screen.contains("Result handler session expired: signed out"))
        #expect(screen.contains("retry 1 in 2 s"))
    }

    @Test func theErrorsTabShowsEachGraphQLErrorWithItsPath() throws {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        let body = #"{"data": null, "errors": [{"message": "Cannot query field \"x\"", "path": ["pet", "owner"]}, {"message": "Not allowed"}]}"#
        let response = Response(status: 200, headers: ["Content-Type": "application/json"], body: Data(body.utf8))
        let request = TestCatalog.exchange(status: 200).request
        let filter = ErrorFilter(rules: [.graphQL(targets: [request.identifier])])
        let error = try #require(filter.error(for: response, request: request))
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200, body: body, error: error), redactor: .standard, finishedAt: TestCatalog.now))))
        _ = state.press("3")
        let screen = state.screen
        #expect(screen.contains("✗ graphQLError"))
        #expect(screen.contains("200 OK"))
        #expect(screen.contains("Mapped by      rule graphQL errors (built in)"))
        #expect(screen.contains(#"Message        Cannot query field "x" (at pet.owner)"#))
        #expect(screen.contains("Message        Not allowed"))
    }

    @Test func theSpinnerTicksOnlyWhileRequestsAreInFlightAndIgnoresStaleTicks() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        #expect(state.exchanges.spinner.isScheduled)
        #expect(AppReducer.reduce(&state, .exchanges(.activityChanged(1))).isEmpty)
        #expect(AppReducer.reduce(&state, .exchanges(.spinnerTick(generation: 0))).isEmpty, "stale")
        #expect(state.spinnerFrame == 0)
        let next = AppReducer.reduce(&state, .exchanges(.spinnerTick(generation: 1)))
        #expect(state.spinnerFrame == 1)
        #expect(next == [.exchanges(.scheduleSpinnerTick(generation: 2, after: ExchangesState.spinnerInterval))])
        _ = AppReducer.reduce(&state, .exchanges(.activityChanged(0)))
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: .standard, finishedAt: TestCatalog.now))))
        #expect(AppReducer.reduce(&state, .exchanges(.spinnerTick(generation: 2))).isEmpty)
        #expect(!state.exchanges.spinner.isScheduled)
        #expect(state.spinnerFrame == 1)
    }

    @Test func theTerminalGoingAwayQuits() {
        var state = TestCatalog.state()
        #expect(AppReducer.reduce(&state, .terminalClosed) == [.quit])
    }
}

@Suite(.offPool) struct EarlierRunsTests {
    @Test func theHistoryFileJoinsBehindThisRunsRequestsAndTheDriftMarksArrive() {
        var state = TestCatalog.state()
        _ = state.press("Enter")
        _ = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: 1, exchange: TestCatalog.exchange(status: 200), redactor: .standard, finishedAt: TestCatalog.now))))
        let earlier = HistoryItem(
            call: EndpointCall(endpoint: "echo/echo", catalog: TestCatalog.key("echo", "").catalog, environment: "local", mode: .stub, example: nil),
            requestLine: "GET http://127.0.0.1:9/echo", outcome: "200 OK", failed: false, date: Date(timeIntervalSince1970: 0))
        let effects = AppReducer.reduce(&state, .history(.loaded([earlier])))
        #expect(effects.isEmpty)
        #expect(state.history.items.map(\.call.endpoint) == ["shop/listItems", "echo/echo"])

        let marks = [TestCatalog.key("shop", "local"): ["listItems": DriftMark.drifted]]
        _ = AppReducer.reduce(&state, .drift(.loaded(marks)))
        #expect(state.drift.marks == marks)
        #expect(state.screen.contains("/items ≠drift"))
    }
}
