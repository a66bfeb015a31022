import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import Foundation
import TerminalKit
import Testing
import TestTraits

/// The activity spinner turns on a real-time timer while a request is in flight, unless the
/// services say not to (a still snapshot must not depend on how long it took to make).
@Suite(.offPool) struct SpinnerRuntimeTests {
    static let catalog = """
        service: slow
        environments:
          local: { baseURL: "http://127.0.0.1:9", retry: none }
        endpoints:
          wait: { path: /wait }

        """

    /// A server that answers only when the request is cancelled.
    struct SilentServer: Transport {
        func send(_ request: Request) async throws(TransportError) -> Response {
            try? await Task.sleep(for: .seconds(30))
            throw TransportError(.cancelled)
        }
    }

    /// Sends a live request that stays in flight, waits until it is, then runs `check` on the runtime.
    func withRequestInFlight(animates: Bool, _ check: (ExplorerRuntime) async throws -> Void) async throws {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["slow.yaml": Self.catalog]), source: .bundled)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        var services = ExplorerServices(
            loadCatalog: { (catalog, SecretStore(processEnvironment: [:])) }, transport: SilentServer(), environment: [:])
        services.animatesSpinner = animates
        let runtime = ExplorerRuntime(device: HeadlessTerminal(size: Size(width: 120, height: 40)), services: services)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        for key in try KeyEvent.parseSequence("s Enter") { runtime.post(.terminal(.key(key))) }
        // waitUntilIdle would wait for the request: poll until it is in flight instead.
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(20)
        while !runtime.currentState.needsSpinner, clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
        #expect(runtime.currentState.needsSpinner, "the request is in flight")
        try await check(runtime)
        runtime.post(.terminalClosed)
        await running.value
    }

    @Test func theSpinnerTurnsWhileARequestIsInFlight() async throws {
        try await withRequestInFlight(animates: true) { runtime in
            // A generous bound: a machine busy with other tests may deliver the first tick late.
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(20)
            while runtime.currentState.spinnerFrame == 0, clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(runtime.currentState.spinnerFrame > 0)
        }
    }

    @Test func aStillPictureKeepsTheSpinnersFirstFrame() async throws {
        try await withRequestInFlight(animates: false) { runtime in
            try await Task.sleep(for: ExchangesState.spinnerInterval * 6)
            #expect(runtime.currentState.spinnerFrame == 0)
        }
    }
}
