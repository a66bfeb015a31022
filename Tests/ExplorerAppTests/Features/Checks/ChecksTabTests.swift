import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import Foundation
import Sessions
import TerminalKit
import Testing
import TestTraits

/// The Tests tab (Features/Tests): each `expect:` assertion checked on the selected endpoint's
/// last response, as it arrives; failures with expected, actual and where; secrets masked.
@Suite(.offPool) struct TestsTabTests {
    static let catalog = """
        service: pets
        environments:
          local:
            baseURL: http://127.0.0.1:9/pets
            fixtures: immediate
            secretDefaults:
              PET_TOKEN: tok-secret-777
        endpoints:
          getPet:
            path: /pet/1
            stub:
              headers: { Content-Type: application/json }
              body: { id: 1, name: Rex, token: tok-secret-777 }
            expect:
              status: 200
              headers: { Content-Type: { matches: json } }
              body: { $.id: { type: integer }, $.name: Rex }
            examples:
              renamed:
                body: { id: 1, name: Max, token: tok-secret-777 }
              gone:
                status: 404
                body: { message: Pet not found }
                expect: { status: 404 }
          login:
            path: /login
            headers: { Authorization: "Bearer {{secret.PET_TOKEN}}" }
            stub:
              body: { token: tok-secret-777 }
            expect:
              body: { $.token: nope }
          ping:
            path: /ping
            stub:
              body: { pong: true }
        flows:
          adopt:
            title: Sign in and read a pet
            steps:
              - endpoint: login
              - endpoint: getPet
                expect: { body: { $.name: Max } }
          quick:
            steps:
              - endpoint: getPet
        """

    static func state(_ text: String = catalog, size: Size = Size(width: 120, height: 40)) -> AppState {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["pets.yaml": text]), source: .bundled)
        return AppState(catalog: catalog, size: size)
    }

    /// Sends the selected endpoint (keys first, e.g. `x j Enter` for an example) and answers it
    /// from the stub, as the runtime would.
    static func send(_ keys: String = "Enter", in state: inout AppState) async {
        let effects = state.press(keys)
        guard let ticket = effects.sent.first else {
            Issue.record("nothing was sent")
            return
        }
        let selection = try! EndpointSelection.resolve(ticket.call.endpoint, environment: ticket.call.environment, in: state.catalog)
        let outcome = await EndpointCaller(catalog: state.catalog, transport: nil).call(
            selection, mode: ticket.call.mode, example: ticket.call.example, values: ticket.call.values)
        // A fixed time, so the summary line is the same on any machine.
        var exchange = outcome.exchange
        if case .success(var response) = exchange.result {
            response.timing = Timing(firstByte: .milliseconds(3), total: .milliseconds(4))
            exchange.result = .success(response)
        }
        state.finish(ticket: ticket.id, exchange, redactor: outcome.redactor)
    }

    @Test func everyAssertionPassesOnTheStub() async throws {
        var state = Self.state()
        _ = state.press("Tab 8")
        #expect(state.screen.contains("Not sent yet: Enter sends it; its 4 assertions are checked as it arrives."))
        let effects = state.press("Enter")
        #expect(state.screen.contains("Waiting for the response"))
        let ticket = try #require(effects.sent.first)
        let selection = try EndpointSelection.resolve(ticket.call.endpoint, environment: "local", in: state.catalog)
        let outcome = await EndpointCaller(catalog: state.catalog, transport: nil).call(selection, mode: .stub)
        state.finish(ticket: ticket.id, outcome.exchange, redactor: outcome.redactor)
        let checks = try #require(state.checks.results[EndpointKey(service: "pets", endpoint: "getPet")])
        #expect(checks.outcomes.count == 4)
        #expect(checks.failures.isEmpty)
        let screen = state.screen
        #expect(screen.contains("✓ all 4 passed · the endpoint's expect: · local STUB"))
        #expect(screen.contains("✓ status is 200"))
        #expect(screen.contains("✓ $.name equals \"Rex\""))
    }

    @Test func aFailureShowsExpectedActualAndWhere() async throws {
        var state = Self.state()
        _ = state.press("Tab 8")
        // The example `renamed` has no expect: of its own, so the endpoint's applies.
        await Self.send("x j Enter", in: &state)
        let checks = try #require(state.checks.results[EndpointKey(service: "pets", endpoint: "getPet")])
        #expect(checks.source == .endpoint)
        #expect(checks.failures.map(\.message) == [#"$.name: expected equals "Rex", got "Max""#])
        let screen = state.screen
        #expect(screen.contains("✗ 1 failed, 3 passed"))
        #expect(screen.contains("✗ $.name equals \"Rex\""))
        #expect(screen.contains("expected equals \"Rex\""))
        #expect(screen.contains("actual   \"Max\""))
        #expect(screen.contains("at <bundled>/pets.yaml:17:40"))
    }

    @Test func anExampleWithItsOwnExpectIsCheckedAgainstIt() async throws {
        var state = Self.state()
        await Self.send("x j j Enter", in: &state)
        let checks = try #require(state.checks.results[EndpointKey(service: "pets", endpoint: "getPet")])
        #expect(checks.source == .example("gone"))
        #expect(checks.outcomes.count == 1 && checks.failures.isEmpty)
        _ = state.press("Tab 8")
        #expect(state.screen.contains("✓ all 1 passed · the example 'gone''s expect:"))
    }

    @Test func secretsStayMaskedInFailures() async throws {
        var state = Self.state()
        _ = state.press("j")
        await Self.send(in: &state)
        let checks = try #require(state.checks.results[EndpointKey(service: "pets", endpoint: "login")])
        #expect(checks.failures.count == 1)
        _ = state.press("Tab 8")
        let screen = state.screen
        #expect(screen.contains("✗ $.token equals \"nope\""))
        #expect(!screen.contains("tok-secret-777"))
        #expect(screen.contains("actual   \"" + Redactor.mask))
    }

    @Test func anEndpointWithoutExpectSaysHowToAddOne() async {
        var state = Self.state()
        _ = state.press("j j Tab 8")
        #expect(state.screen.contains("ping has no expect: nothing is checked."))
        await Self.send(in: &state)
        #expect(state.screen.contains("ping has no expect: nothing is checked."))
        #expect(state.screen.contains("expect:"))
    }

    @Test func theTabsKeysAndTheNextTabReachIt() {
        var state = Self.state()
        _ = state.press("Tab 7 ]")
        #expect(state.tab == .tests)
        _ = state.press("]")
        #expect(state.tab == .body)
    }

    @Test(arguments: [Size(width: 120, height: 40), Size(width: 80, height: 24)])
    func snapshot(size: Size) async {
        var state = Self.state(size: size)
        _ = state.press("Tab 8")
        await Self.send("x j Enter", in: &state)
        assertSnapshot(state.screen, named: "tests-tab-\(size)")
    }
}
