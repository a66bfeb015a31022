import Catalog
import DispatcherCore
import Foundation
import Sessions
import Synchronization
import TestSupport
import Testing

@testable import TestRunner
import TestTraits

/// A transport that answers from a closure and records the paths it was sent.
final class ScriptedTransport: Transport {
    private let sent = Mutex<[String]>([])
    private let answer: @Sendable (Request, Int) async -> Response

    init(answer: @escaping @Sendable (Request, Int) async -> Response) {
        self.answer = answer
    }

    var paths: [String] { sent.withLock { $0 } }

    func send(_ request: Request) async throws(TransportError) -> Response {
        let count = sent.withLock { sent in
            sent.append(request.url.path)
            return sent.count
        }
        return await answer(request, count)
    }
}

func json(_ status: Int, _ text: String) -> Response {
    Response(status: status, headers: Headers([("Content-Type", "application/json")], origin: .server), body: Data(text.utf8))
}

/// Loads one catalog file from text, trusted.
func loadCatalog(_ text: String) throws -> (CatalogSet, TemporaryDirectory) {
    let folder = try TemporaryDirectory(prefix: "runner-tests")
    try folder.write("shop.yaml", text)
    let catalog = CatalogLoader.load(CatalogSource(origin: .option, directory: folder.url, displayPath: "cat"), trust: .everything)
    #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
    return (catalog, folder)
}

@Suite(.offPool) struct TestRunnerTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:9
        endpoints:
          addPet:
            method: POST
            path: /pet
            captures: { petId: $.id }
            stub: { status: 201, body: { id: 42, name: Rex } }
            expect: { status: 201, body: { $.name: Rex } }
          getPet:
            path: /pet/{{petId}}
            parameters: { petId: "0" }
            stub: { body: { id: 42, status: pending } }
            expect: { status: 200, body: { $.id: { type: integer } } }
            examples:
              missing:
                status: 404
                body: { code: notFound }
                expect: { status: 404, body: { $.code: notFound } }
          broken:
            path: /broken
            stub: { body: { id: 1 } }
            expect: { body: { $.id: 2 } }
          plain:
            path: /plain
            stub: { status: 500 }
          list:
            path: /pets
            stub: { body: [] }
          needsValue:
            path: /x/{{nothing}}
        flows:
          adopt:
            steps:
              - endpoint: addPet
              - endpoint: getPet
                captures: { status: $.status }
              - endpoint: getPet
                name: again
                variables: { petId: "7" }
          stops:
            steps:
              - endpoint: broken
              - endpoint: list
          together:
            steps:
              - parallel:
                  - endpoint: getPet
                    variables: { petId: "1" }
                  - endpoint: list
          poll:
            steps:
              - endpoint: getPet
                variables: { petId: "1" }
                until: '$.status == "done"'
                every: 1s
                atMost: 3s
        """

    func runner(_ catalog: CatalogSet, transport: (any Transport)? = nil, mode: RequestMode = .stub, clock: DispatchClock = .continuous, jobs: Int = 1, failFast: Bool = false) -> TestRunner {
        TestRunner(caller: EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: transport), mode: mode, clock: clock, jobs: jobs, failFast: failFast)
    }

    @Test func selectionNamesCasesInCatalogOrder() throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let all = try TestSelection.cases([], environment: nil, in: catalog)
        #expect(all.map(\.id) == [
            "shop/addPet", "shop/getPet", "shop/getPet#missing", "shop/broken", "shop/flow:adopt", "shop/flow:stops", "shop/flow:together", "shop/flow:poll",
        ])
        #expect(try TestSelection.cases(["shop/plain"], environment: nil, in: catalog).map(\.id) == ["shop/plain"])
        #expect(try TestSelection.cases(["shop/flow:adopt"], environment: nil, in: catalog).map(\.id) == ["shop/flow:adopt"])
        #expect(try TestSelection.cases(["all"], environment: nil, grep: "getPet", in: catalog).map(\.id) == ["shop/getPet", "shop/getPet#missing"])
        #expect(throws: CatalogLookupError.self) { try TestSelection.cases(["shop/flow:adoptt"], environment: nil, in: catalog) }
        #expect(throws: CatalogLookupError.self) { try TestSelection.cases(["shop/getPet#gone"], environment: nil, in: catalog) }
    }

    @Test func endpointsExamplesAndTheirChecks() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let cases = try TestSelection.cases(["shop/addPet", "shop/getPet", "shop/broken", "shop/plain", "shop/needsValue"], environment: nil, in: catalog)
        let results = await runner(catalog).run(cases)
        #expect(results.map(\.testCase.name) == ["addPet", "getPet", "getPet#missing", "broken", "plain", "needsValue"])
        #expect(results.map(\.status) == [.passed, .passed, .passed, .failed, .failed, .errored])
        #expect(results[3].summary == "$.id: expected equals 2, got 1")
        #expect(results[3].steps.first?.curl?.contains("http://127.0.0.1:9/broken") == true)
        // Nothing expected: a mapped error fails it.
        #expect(results[4].summary?.contains("status 500") == true)
        // A request that cannot be built is an error, not a failure.
        #expect(results[5].summary?.contains("nothing") == true)
        #expect(TestTally(results).exitStatus == 1)
    }

    @Test func capturesFeedLaterStepsInOrder() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let result = await runner(catalog).run(try #require(TestSelection.cases(["shop/flow:adopt"], environment: nil, in: catalog).first))
        #expect(result.status == .passed, "\(result.summary ?? "")")
        #expect(result.steps.map(\.name) == ["addPet", "getPet", "again"])
        #expect(result.steps[1].curl?.contains("/pet/42") == true)
        // A step's own variables win over captured values.
        #expect(result.steps[2].curl?.contains("/pet/7") == true)
    }

    @Test func aFailingStepSkipsTheRest() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let result = await runner(catalog).run(try #require(TestSelection.cases(["shop/flow:stops"], environment: nil, in: catalog).first))
        #expect(result.status == .failed)
        #expect(result.steps.map(\.status) == [.failed, .skipped])
        #expect(result.summary == "step 'broken': $.id: expected equals 2, got 1")
    }

    @Test func progressReportsEachStepStartingAndEndingWithItsResponse() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let seen = Mutex<[String]>([])
        var runner = runner(catalog)
        runner.onStep = { progress in
            let text = switch progress {
            case .started(let name): "started \(name)"
            case .finished(let step, let outcome): "finished \(step.name) \(step.status) \(outcome?.exchange.response?.status ?? 0)"
            }
            seen.withLock { $0.append(text) }
        }
        _ = await runner.run(try #require(TestSelection.cases(["shop/flow:stops"], environment: nil, in: catalog).first))
        // The skipped step is never sent, so it is not reported.
        #expect(seen.withLock { $0 } == ["started broken", "finished broken failed 200"])
        seen.withLock { $0 = [] }
        _ = await runner.run(try #require(TestSelection.cases(["shop/flow:adopt"], environment: nil, in: catalog).first))
        #expect(seen.withLock { $0 } == [
            "started addPet", "finished addPet passed 201", "started getPet", "finished getPet passed 200", "started again", "finished again passed 200",
        ])
    }

    @Test func parallelStepsAreInFlightTogether() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let arrived = Mutex(0)
        // Each request waits until both have arrived: run one after the other, the first would wait out its deadline and fail.
        let transport = ScriptedTransport { request, _ in
            arrived.withLock { $0 += 1 }
            let deadline = ContinuousClock.now + .seconds(600)
            while arrived.withLock({ $0 }) < 2, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(5)) }
            guard arrived.withLock({ $0 }) >= 2 else { return json(500, "{}") }
            return request.url.path == "/pets" ? json(200, "[]") : json(200, #"{"id":1}"#)
        }
        let result = await runner(catalog, transport: transport, mode: .live).run(try #require(TestSelection.cases(["shop/flow:together"], environment: nil, in: catalog).first))
        #expect(result.status == .passed, "\(result.summary ?? "")")
        #expect(result.steps.map(\.name) == ["getPet", "list"])
        #expect(Set(transport.paths) == ["/pet/1", "/pets"])
    }

    @Test func pollingRetriesUntilTheConditionHoldsOnTheInjectedClock() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let clock = ManualClock()
        let transport = ScriptedTransport { _, count in json(200, count < 3 ? #"{"id":1,"status":"pending"}"# : #"{"id":1,"status":"done"}"#) }
        let testCase = try #require(TestSelection.cases(["shop/flow:poll"], environment: nil, in: catalog).first)
        let running = Task { await runner(catalog, transport: transport, mode: .live, clock: DispatchClock(clock)).run(testCase) }
        for _ in 0..<2 {
            try #require(await clock.waitForSleepers(1, timeout: .seconds(600)))
            clock.advance(by: .seconds(1))
        }
        let result = await running.value
        #expect(result.status == .passed, "\(result.summary ?? "")")
        #expect(result.steps.first?.attempts == 3)
        #expect(result.steps.first?.duration == .seconds(2))
    }

    @Test func pollingGivesUpAfterAtMost() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let clock = ManualClock()
        let transport = ScriptedTransport { _, _ in json(200, #"{"id":1,"status":"pending"}"#) }
        let testCase = try #require(TestSelection.cases(["shop/flow:poll"], environment: nil, in: catalog).first)
        let running = Task { await runner(catalog, transport: transport, mode: .live, clock: DispatchClock(clock)).run(testCase) }
        for _ in 0..<3 {
            try #require(await clock.waitForSleepers(1, timeout: .seconds(600)))
            clock.advance(by: .seconds(1))
        }
        let result = await running.value
        #expect(result.status == .failed)
        #expect(result.steps.first?.attempts == 4)
        // The summary (a JUnit failure's message, TAP's) says the poll gave up before what it saw last.
        #expect(result.summary == "step 'getPet': 'until' did not hold within 3 s (4 attempts): $.status: expected equals \"done\", got \"pending\"")
        #expect(result.steps.first?.problem == "'until' did not hold within 3 s (4 attempts)")
    }

    @Test func failFastSkipsWhatHasNotStarted() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let cases = try TestSelection.cases(["shop/broken", "shop/addPet", "shop/list"], environment: nil, in: catalog)
        let seen = Mutex<[String]>([])
        let results = await runner(catalog, failFast: true).run(cases) { result in seen.withLock { $0.append(result.testCase.name) } }
        #expect(results.map(\.status) == [.failed, .skipped, .skipped])
        #expect(seen.withLock { $0 } == ["broken", "addPet", "list"])
        let all = await runner(catalog).run(cases)
        #expect(all.map(\.status) == [.failed, .passed, .passed])
    }

    @Test func jobsKeepTheOrderOfResults() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let cases = try TestSelection.cases(["all"], environment: nil, in: catalog)
        let one = await runner(catalog, jobs: 1).run(cases)
        let four = await runner(catalog, jobs: 4).run(cases)
        #expect(one.map(\.testCase.id) == four.map(\.testCase.id))
        #expect(one.map(\.status) == four.map(\.status))
    }

    @Test func examplesAreSkippedLive() async throws {
        let (catalog, _) = try loadCatalog(Self.catalog)
        let testCase = try #require(TestSelection.cases(["shop/getPet#missing"], environment: nil, in: catalog).first)
        let stub = await runner(catalog).run(testCase)
        #expect(stub.status == .passed, "\(stub.summary ?? "")")
        let live = await runner(catalog, transport: ScriptedTransport { _, _ in json(200, "{}") }, mode: .live).run(testCase)
        #expect(live.status == .skipped)
    }

    @Test func exitStatuses() {
        func tally(_ statuses: [TestStatus]) -> Int32 {
            let service = Service(id: "s")
            let environment = Environment(name: "e", baseURL: URL(string: "http://127.0.0.1:1")!)
            return TestTally(statuses.map { TestResult(testCase: TestCase(service: service, environment: environment, kind: .endpoint("x")), status: $0) }).exitStatus
        }
        #expect(tally([.passed, .passed, .skipped]) == 0)
        #expect(tally([.passed, .failed, .errored]) == 1)
        #expect(tally([.passed, .errored]) == 3)
        #expect(tally([]) == 4)
        #expect(tally([.skipped]) == 4)
    }
}
