import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import ExplorerTestSupport
import Foundation
import Synchronization
import TerminalKit
import Testing
import TextSupport
import TestTraits

/// The first frame at launch: catalogs read within the grace are the first thing drawn (no
/// loading screen flashing before them); slower ones show the loading screen when it ends.
@Suite(.offPool) struct LaunchRuntimeTests {
    static let loading = "Loading catalogs…"
    /// What the first complete frame shows (the marker `apiexplorer-bench tui` waits for).
    static let loaded = "Not sent yet"

    static func catalog() -> CatalogSet {
        CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["shop.yaml": TestCatalog.shop]), source: .bundled)
    }

    @Test func theLaunchHoldsFramesUntilTheCatalogsOrTheGraceEnd() {
        var state = AppState(launching: LaunchOptions(), size: Size(width: 120, height: 40), timeZone: .utc)
        #expect(state.holdsFrames, "a launching explorer draws nothing before it starts reading")
        let effects = AppReducer.reduce(&state, .launched)
        #expect(effects.contains(.scheduleLoadingScreen(after: AppState.loadingScreenGrace)))
        #expect(state.holdsFrames)

        var graceEnded = state
        _ = AppReducer.reduce(&graceEnded, .launch(.loadingScreenDue))
        #expect(!graceEnded.holdsFrames && graceEnded.isLoadingCatalog, "the loading screen is drawn")

        _ = AppReducer.reduce(&state, .catalogLoaded(Self.catalog(), SecretStore(processEnvironment: [:])))
        #expect(!state.holdsFrames)
        _ = AppReducer.reduce(&state, .launch(.loadingScreenDue))
        #expect(!state.holdsFrames, "a grace ending after the catalogs changes nothing")

        var loaded = AppState(catalog: Self.catalog(), size: Size(width: 120, height: 40))
        let loadedEffects = AppReducer.reduce(&loaded, .launched)
        #expect(!loaded.holdsFrames && !loadedEffects.contains(.scheduleLoadingScreen(after: AppState.loadingScreenGrace)))
    }

    @Test func theTimeZoneIsReadByALaunchEffectAfterTheCatalogsStart() async throws {
        var state = AppState(launching: LaunchOptions(), size: Size(width: 120, height: 40), timeZone: .utc)
        let effects = AppReducer.reduce(&state, .launched)
        #expect(effects.prefix(2) == [.loadCatalog, .loadTimeZone], "the catalogs, which the first frame waits for, first")
        #expect(state.isLoading && state.pendingLoads.contains(.loadTimeZone))
        let tokyo = LocalTimeZone(secondsFromGMT: 9 * 3600)
        _ = AppReducer.reduce(&state, .timeZoneLoaded(tokyo))
        #expect(state.timeZone == tokyo && !state.pendingLoads.contains(.loadTimeZone))

        let catalog = Self.catalog()
        var services = ExplorerServices(loadCatalog: { (catalog, SecretStore(processEnvironment: [:])) }, transport: nil, environment: [:])
        services.timeZone = { tokyo }
        let runtime = ExplorerRuntime(device: HeadlessTerminal(size: Size(width: 120, height: 40)), services: services)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        #expect(runtime.currentState.timeZone == tokyo)
        runtime.post(.terminalClosed)
        await running.value
    }

    @Test func catalogsReadWithinTheGraceAreTheFirstFrame() async throws {
        let catalog = Self.catalog()
        var services = ExplorerServices(loadCatalog: { (catalog, SecretStore(processEnvironment: [:])) }, transport: nil, environment: [:])
        // The grace never ends here: however long a busy machine takes to read the catalogs, they
        // were read within it.
        services.schedule = { _, _ in }
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40))
        let runtime = ExplorerRuntime(device: terminal, services: services)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        let frames = terminal.frames.map { $0.buffer.plainText() }
        #expect(frames.first?.contains(Self.loaded) == true, "the first frame drawn lists the endpoints")
        #expect(!frames.contains { $0.contains(Self.loading) }, "no loading screen was drawn")
        runtime.post(.terminalClosed)
        await running.value
    }

    @Test func slowCatalogsShowTheLoadingScreenWhenTheGraceEnds() async throws {
        let catalog = Self.catalog()
        let loadingSeen = Atomic<Bool>(false)
        // The catalogs arrive only once the test has seen the loading screen (at most 60 s).
        let services = ExplorerServices(
            loadCatalog: {
                let deadline = ContinuousClock.now + .seconds(60)
                while !loadingSeen.load(ordering: .acquiring), ContinuousClock.now < deadline { usleep(1000) }
                return (catalog, SecretStore(processEnvironment: [:]))
            }, transport: nil, environment: [:])
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40), frameHistoryLimit: 400)
        let runtime = ExplorerRuntime(device: terminal, services: services)
        let started = ContinuousClock.now
        let running = Task { await runtime.run() }
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains(Self.loading) }
        #expect(ContinuousClock.now - started >= AppState.loadingScreenGrace, "not before the grace ends")
        loadingSeen.store(true, ordering: .releasing)
        _ = try await BodyRuntimeTests.waitForFrame(terminal) { $0.contains(Self.loaded) }
        #expect(terminal.frames.first?.buffer.plainText().contains(Self.loading) == true, "the loading screen was the first frame")
        runtime.post(.terminalClosed)
        await running.value
    }
}
