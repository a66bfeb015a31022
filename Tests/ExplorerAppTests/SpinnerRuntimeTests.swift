import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import Foundation
import TerminalKit
import Testing

/// The activity spinner turns on a real-time timer while a request is in flight, unless the
/// services say not to (a still snapshot must not depend on how long it took to make).
@Suite struct SpinnerRuntimeTests {
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

    /// The spinner frame once a live request has been in flight for several spinner intervals.
    func spinnerFrame(animates: Bool) async throws -> Int {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["slow.yaml": Self.catalog]), source: .bundled)
        #expect(!catalog.hasErrors, "\(catalog.diagnostics)")
        var services = ExplorerServices(
            loadCatalog: { (catalog, SecretStore(processEnvironment: [:])) }, transport: SilentServer(), environment: [:])
        services.animatesSpinner = animates
        let runtime = ExplorerRuntime(device: HeadlessTerminal(size: Size(width: 120, height: 40)), services: services, timeZone: .gmt)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        for key in try KeyEvent.parseSequence("s Enter") { runtime.post(.terminal(.key(key))) }
        // Long enough for several ticks on a busy machine; waitUntilIdle would wait for the request.
        try await Task.sleep(for: AppReducer.spinnerInterval * 6)
        #expect(runtime.currentState.needsSpinner, "the request is in flight")
        let frame = runtime.currentState.spinnerFrame
        runtime.post(.terminalClosed)
        await running.value
        return frame
    }

    @Test func theSpinnerTurnsWhileARequestIsInFlight() async throws {
        #expect(try await spinnerFrame(animates: true) > 0)
    }

    @Test func aStillPictureKeepsTheSpinnersFirstFrame() async throws {
        #expect(try await spinnerFrame(animates: false) == 0)
    }
}
