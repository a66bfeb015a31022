import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import Sessions
import TerminalKit
import Testing
import TestTraits

/// Flows run from the palette (Features/Tests): the runtime reports each step; the Tests tab's
/// flow view shows their state and times, and `o` shows a step's response in the Body tab.
@Suite(.offPool) struct FlowRunTests {
    /// The Tests tab's catalog: pets, with flows `adopt` (login, getPet) and `quick`.
    static func state(_ text: String = TestsTabTests.catalog) -> AppState { TestsTabTests.state(text) }

    /// A stub answer of `endpoint`, as a finished step carries it.
    static func outcome(_ endpoint: String, body: String) -> CallOutcome {
        var exchange = TestCatalog.exchange(status: 200, body: body)
        if case .success(var response) = exchange.result {
            response.headers = Headers([("Content-Type", "application/json")], origin: .server)
            exchange.result = .success(response)
        }
        let call = EndpointCall(endpoint: EndpointKey(service: "pets", endpoint: endpoint), catalog: TestCatalog.key("pets", "").catalog, environment: "local", mode: .stub, example: nil, values: [:])
        return CallOutcome(call: call, exchange: exchange, redactor: .standard)
    }

    static func report(_ name: String, _ state: FlowStepState, reason: String? = nil, body: String) -> StepReport {
        StepReport(name: name, state: state, duration: .milliseconds(12), attempts: 1, reason: reason, response: outcome(name == "login" ? "login" : "getPet", body: body))
    }

    @Test func severalFlowsAreListedAndTheChosenOneRunsInTheActiveEnvironmentAndMode() throws {
        var state = Self.state()
        #expect(state.press("F").isEmpty)
        guard case .checks? = state.overlay else { throw Failure("no flow window") }
        #expect(state.screen.contains("Flows of pets"))
        #expect(state.screen.contains("adopt  Sign in and read a pet · 2 steps"))
        let effects = state.press("Enter")
        #expect(state.overlay == nil)
        guard case .checks(.runFlow(let run, "adopt", let environment, .stub))? = effects.first else { throw Failure("no run: \(effects)") }
        #expect(run == 1)
        #expect(environment == TestCatalog.key("pets", "local"))
        #expect(state.tab == .tests)
        #expect(state.checks.run?.steps.map(\.state) == [.pending, .pending])
        #expect(state.screen.contains("Flow adopt"))
        #expect(state.screen.contains("· login  login · pending"))
    }

    @Test func theCommandIsInThePalette() throws {
        var state = Self.state()
        _ = state.press("C-k")
        for character in "run a flow" { _ = state.press(character == " " ? "Space" : String(character)) }
        #expect(state.screen.contains("run a flow of the service"))
        _ = state.press("Enter")
        guard case .checks? = state.overlay else { throw Failure("the palette did not open the flow window") }
    }

    @Test func stepsMoveFromPendingToRunningToPassedOrFailedAndTheFailingOneIsSelected() throws {
        var state = Self.state()
        _ = state.press("F j Enter")  // quick, then adopt
        _ = state.press("F Enter")
        let run = try #require(state.checks.run?.id)
        #expect(run == 2)
        _ = AppReducer.reduce(&state, .checks(.stepStarted(run: run, name: "login")))
        #expect(state.checks.run?.steps.map(\.state) == [.running, .pending])
        #expect(state.screen.contains("running"))
        _ = AppReducer.reduce(&state, .checks(.stepFinished(run: run, Self.report("login", .passed, body: #"{"token":"abc"}"#))))
        _ = AppReducer.reduce(&state, .checks(.stepStarted(run: run, name: "getPet")))
        // A report of an earlier run is stale.
        _ = AppReducer.reduce(&state, .checks(.stepFinished(run: 1, Self.report("getPet", .passed, body: "{}"))))
        #expect(state.checks.run?.steps[1].state == .running)
        let reason = #"$.name: expected equals "Max", got "Rex""#
        _ = AppReducer.reduce(&state, .checks(.stepFinished(run: run, Self.report("getPet", .failed, reason: reason, body: #"{"id":1,"name":"Rex"}"#))))
        _ = AppReducer.reduce(&state, .checks(.runFinished(run: run, problem: nil)))
        #expect(state.checks.run?.steps.map(\.state) == [.passed, .failed])
        #expect(state.checks.run?.selected == 1)
        #expect(state.notice == "Flow adopt failed at step 'getPet': o shows its response.")
        let screen = state.screen
        #expect(screen.contains("Flow adopt ✗ failed · 1/2 steps passed · local STUB"))
        #expect(screen.contains("✓ login  login · passed · 12 ms · 200"))
        #expect(screen.contains("› ✗ getPet  getPet · failed · 12 ms · 200"))
        #expect(screen.contains(reason))
    }

    @Test func oShowsTheSelectedStepsResponseInTheBodyTab() throws {
        var state = Self.state()
        _ = state.press("F Enter")
        let run = try #require(state.checks.run?.id)
        _ = AppReducer.reduce(&state, .checks(.stepFinished(run: run, Self.report("login", .passed, body: #"{"token":"abc"}"#))))
        _ = AppReducer.reduce(&state, .checks(.stepFinished(run: run, Self.report("getPet", .failed, reason: "no", body: #"{"id":1,"name":"Rex"}"#))))
        _ = AppReducer.reduce(&state, .checks(.runFinished(run: run, problem: nil)))
        _ = state.pressAndPerform("o")
        #expect(state.tab == .body)
        #expect(state.focus == .response)
        #expect(state.selectedEndpoint?.id == "getPet")
        #expect(state.screen.contains(#""name": "Rex""#))
        // Back in the Tests tab, N selects the step before it.
        _ = state.pressAndPerform("8 N o")
        #expect(state.selectedEndpoint?.id == "login")
        #expect(state.screen.contains(#""token": "abc""#))
    }

    @Test func fSwitchesBetweenTheFlowAndTheEndpointsChecks() throws {
        var state = Self.state()
        _ = state.press("F Enter")
        #expect(state.screen.contains("Flow adopt"))
        _ = state.press("f")
        #expect(!state.screen.contains("Flow adopt"))
        #expect(state.screen.contains("its 4 assertions are checked as it arrives"))
        _ = state.press("f")
        #expect(state.screen.contains("Flow adopt"))
    }

    @Test func aServiceWithOneFlowRunsItAtOnceAndOneWithoutSaysHowToAddOne() {
        var one = Self.state(TestsTabTests.catalog.replacingOccurrences(of: "  quick:\n    steps:\n      - endpoint: getPet", with: ""))
        let effects = one.press("F")
        #expect(effects.count == 1)
        #expect(one.checks.run?.flow == "adopt")
        var none = TestCatalog.state()
        #expect(none.press("F").isEmpty)
        #expect(none.notice?.contains("shop has no flows") == true)
    }

    @Test func everyTestOfTheServiceRunsAsRowsListedByTheRuntime() throws {
        var state = Self.state()
        let effects = state.press("V")
        guard case .checks(.runService(let run, let environment, .stub))? = effects.first else { throw Failure("no run: \(effects)") }
        #expect(environment == TestCatalog.key("pets", "local"))
        #expect(state.tab == .tests)
        _ = AppReducer.reduce(&state, .checks(.runListed(run: run, tests: [
            ("getPet", EndpointKey(service: "pets", endpoint: "getPet")), ("flow:adopt", EndpointKey(service: "pets", endpoint: "flow:adopt")),
        ])))
        #expect(state.screen.contains("Tests of pets"))
        #expect(state.screen.contains("0/2 tests passed"))
        _ = AppReducer.reduce(&state, .checks(.stepFinished(run: run, Self.report("getPet", .passed, body: "{}"))))
        var failed = Self.report("login", .failed, reason: "step 'getPet': no", body: "{}")
        failed.name = "flow:adopt"
        _ = AppReducer.reduce(&state, .checks(.stepFinished(run: run, failed)))
        _ = AppReducer.reduce(&state, .checks(.runFinished(run: run, problem: nil)))
        #expect(state.notice == "Tests of pets failed at test 'flow:adopt': o shows its response.")
        #expect(state.screen.contains("Tests of pets ✗ failed · 1/2 tests passed · local STUB"))
        #expect(state.screen.contains("step 'getPet': no"))
    }

    struct Failure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
