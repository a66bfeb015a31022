import Catalog
import ExplorerApp
import ExplorerRuntime
import ExplorerTestSupport
import Foundation
import StateStore
import Synchronization
import TerminalKit
import TestSupport
import Testing
import TestTraits

/// The launch index: a launch on unchanged catalog files draws the first frame from it before a
/// single endpoint is decoded, the full load then replaces it (keys typed meanwhile kept); a
/// changed file, a damaged, truncated or foreign index, and a catalog with problems load in full.
@Suite(.offPool) struct LaunchIndexTests {
    static let text = """
        service: shop
        title: The Shop
        environments:
          local: { baseURL: "http://127.0.0.1:9", type: dev }
          prod: { baseURL: "https://shop.example.com/v1", type: production }
        groups:
          pets: { title: Pets and more }
          orders: {}
        endpoints:
          listPets:
            title: List the pets
            group: pets
            path: /pets
            headers: { Accept: application/json }
            stub: { body: "[]" }
          addPet:
            method: POST
            group: pets
            path: /pets
            body: { json: { name: rex, password: hunter2 } }
            examples:
              taken: { status: 409, body: "{}" }
          order:
            group: orders
            path: /orders/{{id}}
            parameters: { id: "1" }
          health:
            description: Is it up?
            path: /health
        """

    struct Launch {
        var folder: TemporaryDirectory
        var state: TemporaryDirectory
        var source: CatalogSource
        var index: LaunchIndexFile

        init(text: String = LaunchIndexTests.text, build: String = "test build") throws {
            folder = try TemporaryDirectory()
            state = try TemporaryDirectory()
            try folder.write("shop.yaml", text)
            source = CatalogSource(origin: .option, directory: folder.url, displayPath: folder.url.path)
            index = try #require(LaunchIndexFile(source: source, cacheFolder: state.path, settings: "trust true", build: build))
        }

        func loader() -> @Sendable () -> (CatalogSet, SecretStore) {
            ExplorerServices.catalogs(from: source, trustingEverything: true, cache: ParsedCatalogCache(directoryPath: state.path, build: "test build"))
        }
    }

    /// Runs the explorer once: its frames, and how many were drawn when the full load started.
    static func run(_ launch: Launch) async throws -> (frames: [String], framesBeforeTheLoad: Int) {
        let framesBeforeTheLoad = Atomic<Int>(-1)
        let load = launch.loader()
        let terminal = HeadlessTerminal(size: Size(width: 120, height: 40), frameHistoryLimit: 400)
        var services = ExplorerServices(
            loadCatalog: {
                framesBeforeTheLoad.store(terminal.frames.count, ordering: .releasing)
                return load()
            }, transport: nil, environment: [:])
        services.launchIndex = launch.index
        services.schedule = { _, _ in }
        let runtime = ExplorerRuntime(device: terminal, services: services)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        let frames = terminal.frames.map { $0.buffer.plainText() }
        runtime.post(.terminalClosed)
        await running.value
        return (frames, framesBeforeTheLoad.load(ordering: .acquiring))
    }

    @Test func aLaunchOnUnchangedFilesDrawsTheIndexBeforeDecodingAnyEndpoint() async throws {
        let launch = try Launch()
        #expect(launch.index.currentKey().flatMap(launch.index.read(matching:)) == nil, "nothing kept before the first launch")
        let first = try await Self.run(launch)
        #expect(first.framesBeforeTheLoad == 0, "without an index nothing is drawn before the catalogs")
        let key = try #require(launch.index.currentKey())
        let kept = try #require(launch.index.read(matching: key), "the first launch keeps the index")
        let loaded = launch.loader()().0
        #expect(kept == CatalogLaunchIndex(loaded) && kept.endpointCount == 4)
        let preview = try #require(kept.preview(source: launch.source))
        #expect(!loaded.diagnostics.isEmpty && preview.diagnostics == loaded.diagnostics, "warnings are kept word for word")
        #expect(preview.services.map(\.diagnostics) == loaded.services.map(\.diagnostics))

        let second = try await Self.run(launch)
        #expect(second.framesBeforeTheLoad == 1, "the first frame came from the index: no endpoint was decoded before it")
        #expect(second.frames.first == first.frames.last, "the index draws the frame the full load draws")
        #expect(second.frames.first?.contains("Pets and more") == true)
    }

    /// A launching explorer (`--env environment`) that got the index of the test catalog, and the full load.
    static func previewed(environment: String) throws -> (AppState, CatalogSet) {
        let launch = try Launch()
        let loaded = launch.loader()().0
        let preview = try #require(CatalogLaunchIndex(loaded)?.preview(source: launch.source))
        var state = AppState(launching: LaunchOptions(environment: environment), size: Size(width: 120, height: 40), timeZone: .utc)
        _ = AppReducer.reduce(&state, .launched)
        #expect(state.holdsFrames)
        _ = AppReducer.reduce(&state, .catalogPreviewed(preview))
        return (state, loaded)
    }

    /// Keys and clicks that come while the index is shown wait for the full catalogs, then act on them.
    @Test func keysTypedOverTheIndexWaitForTheCatalogs() throws {
        var (state, loaded) = try Self.previewed(environment: "prod")
        #expect(!state.holdsFrames && state.isLoadingCatalog && state.showsCatalogPreview)
        #expect(state.activeEnvironmentKey?.environment == "prod", "the launch's --env applies to the index too")
        var direct = state
        for key in ["j", "j", "Enter"] { _ = AppReducer.reduce(&state, .terminal(.key(try KeyEvent(parsing: key)))) }
        #expect(state.pendingEvents.count == 3 && state.inFlight.isEmpty, "nothing acts on the index")
        _ = AppReducer.reduce(&state, .catalogLoaded(loaded, SecretStore(processEnvironment: [:])))
        #expect(!state.showsCatalogPreview && state.pendingEvents.isEmpty)
        _ = AppReducer.reduce(&direct, .catalogLoaded(loaded, SecretStore(processEnvironment: [:])))
        for key in ["j", "j", "Enter"] { _ = AppReducer.reduce(&direct, .terminal(.key(try KeyEvent(parsing: key)))) }
        #expect(AppView.render(state).buffer.plainText() == AppView.render(direct).buffer.plainText(), "the keys acted as if typed after the load")
        #expect(state.inFlight.count == direct.inFlight.count)
    }

    /// An unknown `--env` is reported as without an index, once the catalogs are read.
    @Test func anUnknownEnvironmentFailsAfterTheIndexAsWithoutIt() throws {
        var (state, loaded) = try Self.previewed(environment: "nosuch")
        #expect(state.showsCatalogPreview && !state.holdsFrames && state.failure == nil, "drawn, so the full load that waits for its frame starts")
        let effects = AppReducer.reduce(&state, .catalogLoaded(loaded, SecretStore(processEnvironment: [:])))
        #expect(state.failure?.contains("No environment named 'nosuch'") == true && effects.contains(.quit))
    }

    @Test func aChangedFileOrAnotherBuildIsAMissAndTheLaunchLoadsInFull() async throws {
        let launch = try Launch()
        _ = try await Self.run(launch)
        let before = try #require(launch.index.currentKey())
        #expect(launch.index.read(matching: before) != nil)

        try launch.folder.write("shop.yaml", Self.text.replacingOccurrences(of: "List the pets", with: "List every pet"))
        let after = try #require(launch.index.currentKey())
        #expect(after != before && launch.index.read(matching: after) == nil, "a changed file is a miss")
        let changed = try await Self.run(launch)
        #expect(changed.frames.last?.contains("List every pet") == true || changed.frames.last?.contains("Pets and more") == true)
        #expect(launch.index.read(matching: after) != nil, "the miss writes the index again")

        // A file added beside it (an `.env`, a new catalog file) is a miss too.
        try launch.folder.write(".env", "A=1\n")
        #expect(launch.index.currentKey() != after)

        let otherBuild = try #require(LaunchIndexFile(source: launch.source, cacheFolder: launch.state.path, settings: "trust true", build: "other"))
        #expect(otherBuild.currentKey().flatMap(otherBuild.read(matching:)) == nil, "another build reads no index")
        let otherSettings = try #require(LaunchIndexFile(source: launch.source, cacheFolder: launch.state.path, settings: "trust false", build: "test build"))
        #expect(otherSettings.currentKey().flatMap(otherSettings.read(matching:)) == nil, "other trust reads no index")
    }

    @Test func aDamagedTruncatedOrForeignIndexIsIgnored() async throws {
        let launch = try Launch()
        _ = try await Self.run(launch)
        let key = try #require(launch.index.currentKey())
        let good = try Data(contentsOf: URL(fileURLWithPath: launch.index.filePath))
        #expect(launch.index.read(matching: key) != nil)

        func reads(_ bytes: Data) throws -> Bool {
            try bytes.write(to: URL(fileURLWithPath: launch.index.filePath))
            return launch.index.read(matching: key) != nil
        }
        for length in stride(from: 0, to: good.count, by: max(1, good.count / 200)) {
            #expect(try !reads(good.prefix(length)), "truncated to \(length) bytes")
        }
        for offset in stride(from: 0, to: good.count, by: max(1, good.count / 200)) {
            var damaged = good
            damaged[offset] ^= 0x20
            #expect(try !reads(damaged), "a byte changed at \(offset)")
        }
        #expect(try !reads(good + Data([0])))
        #expect(try !reads(Data(repeating: 0xFF, count: 4096)))
        // A launch on a damaged index loads in full, draws the catalogs and mends the index.
        try Data(good.prefix(good.count / 2)).write(to: URL(fileURLWithPath: launch.index.filePath))
        let run = try await Self.run(launch)
        #expect(run.frames.last?.contains("shop") == true)
        #expect(launch.index.read(matching: key) != nil)
    }

    @Test func theIndexHasItsOwnBoundsWhateverItsBytesSay() {
        // Counts larger than the bytes could hold are refused before memory is reserved for them.
        var bytes: [UInt8] = [0xFF, 0xFF, 0xFF, 0x7F]
        #expect(bytes.withUnsafeBytes { CatalogLaunchIndex(decoding: $0) } == nil)
        bytes = [1, 0, 0, 0] + [0xFF, 0xFF, 0xFF, 0x7F] + Array(repeating: 0x41, count: 64)
        #expect(bytes.withUnsafeBytes { CatalogLaunchIndex(decoding: $0) } == nil)
        bytes = [0, 0, 0, 0, 0, 0, 0, 0]
        #expect(bytes.withUnsafeBytes { CatalogLaunchIndex(decoding: $0) }?.services.isEmpty == true)
    }

    /// Found by FuzzLaunchIndex: a warning at column 0 read back as column 1 (a diagnostic's
    /// positions start at 1), so the index read was not the one written. 0 is never written: it is
    /// damage, and the index is refused.
    @Test func aLineOrColumnOfZeroIsDamage() {
        func warning(line: UInt8, column: UInt8) -> [UInt8] {
            let file = Array("a.yaml".utf8), message = Array("unknown key".utf8)
            return [1, 0, 0, 0, UInt8(file.count), 0, 0, 0] + file + [line, 0, 0, 0, column, 0, 0, 0, 0]
                + [UInt8(message.count), 0, 0, 0] + message + [0, 0, 0, 0]
        }
        let good = warning(line: 3, column: 5)
        #expect(good.withUnsafeBytes { CatalogLaunchIndex(decoding: $0) }?.encoded() == good)
        #expect(warning(line: 3, column: 0).withUnsafeBytes { CatalogLaunchIndex(decoding: $0) } == nil)
        #expect(warning(line: 0, column: 5).withUnsafeBytes { CatalogLaunchIndex(decoding: $0) } == nil)
    }

    @Test func aCatalogWithProblemsIsNeverIndexedAndShowsThemAtLaunch() async throws {
        let broken = Self.text.replacingOccurrences(of: "headers: { Accept: application/json }", with: "heders: { Accept: application/json }")
        let launch = try Launch(text: broken)
        let loaded = launch.loader()().0
        #expect(!loaded.diagnostics.isEmpty && CatalogLaunchIndex(loaded) == nil)
        let run = try await Self.run(launch)
        #expect(launch.index.currentKey().flatMap(launch.index.read(matching:)) == nil, "no index written")
        let frame = try #require(run.frames.last)
        #expect(frame.contains("The Shop  ⚠") && !frame.contains("List the pets"), "the launch marks the file's problem and leaves the broken endpoint out, as without an index")
    }

    @Test func twoWritersLeaveOneWholeIndex() async throws {
        let launch = try Launch()
        let key = try #require(launch.index.currentKey())
        let index = try #require(CatalogLaunchIndex(launch.loader()().0))
        let file = launch.index
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 { group.addTask { for _ in 0..<20 { file.write(index, key: key) } } }
            group.addTask {
                for _ in 0..<100 {
                    // A reader at any moment sees a whole index or none.
                    if let read = file.read(matching: key) { #expect(read == index) }
                }
            }
        }
        #expect(file.read(matching: key) == index)
    }
}
