import ArgumentParser
import Catalog
import ExplorerApp
import ExplorerRuntime
import FoundationEssentials
import LiveTransport
import NcursesBackend
import StateStore
import SystemSupport
import TerminalKit
import TextSupport

/// `apiexplorer explore`'s options as plain values, and the explorer they open. Plain so that the
/// usual launch, `apiexplorer` with no arguments at all, opens without the argument parser and
/// its reflection over the command tree (`APIExplorerCommand.main`).
/// The defaults are what `ExploreCommand` parses from no arguments; `EarlyAnswerTests` checks it.
struct ExplorerLaunch: Equatable {
    /// `--catalog DIR`.
    var catalog: String? = nil
    /// `--trust`.
    var trust = false
    /// `--max-body-size`.
    var maximumBodySize: Int? = nil
    /// `--env` and `--live`.
    var startingPoint = LaunchOptions()
    /// `--mock`.
    var mock = false
    /// `--no-mouse`.
    var noMouse = false

    /// Runs the explorer until the user quits; exit statuses as `explore` documents them.
    func run() async throws {
        // The copy every default reads too (secrets, state files): ProcessInfo builds a new one per read.
        let environment = ProcessEnvironment.variables
        let source = CatalogSource.resolve(option: catalog, environment: environment)
        // The mock reads its own copy of the catalogs: it must listen before the first key is pressed.
        let state = StateDirectory.path(environment: environment)
        let trustFile = TrustFile(directoryPath: state)
        let mockServer = mock ? try await InProcessMock.start(CatalogLoader.load(source, trust: trust ? .everything : source.trust(in: trustFile))) : nil

        let headless = environment[Self.headlessVariable]?.isEmpty == false
        let terminal: any TerminalDevice
        do {
            terminal = headless ? HeadlessTerminal(size: Self.headlessSize, frameHistoryLimit: 1) : try NcursesTerminal(options: .init(enablesMouse: !noMouse))
        } catch {
            Console.error("error: \(error)")
            await mockServer?.stop()
            throw ExitStatus.usage
        }
        let transport = HTTPTransport()
        // Writes a killed explorer or `call` left half done (temporary files) go first.
        let parseCache = ParsedCatalogCache(directoryPath: state)
        for folder in [state, parseCache.folderPath] + (source.directory.map { [$0.path] } ?? []) { AtomicFile.removeLeftovers(inFolder: folder) }
        HistoryStore(directoryPath: state).removeOrphanedFiles()
        let loadCatalog = ExplorerServices.catalogs(
            from: source, maximumBodySize: maximumBodySize, trust: trustFile, trustingEverything: trust, cache: parseCache)
        var services = ExplorerServices(
            loadCatalog: {
                // State kept by service id alone (an older version's) goes to the catalogs that made
                // it, once; what was dropped is said among the catalog's warnings.
                var (catalog, secrets) = loadCatalog()
                catalog.diagnostics += StateMigration.migrate(into: catalog, stateFolder: state).map {
                    Diagnostic(file: URL.joinedFilePath(state, $0.file), line: 1, column: 1, severity: .warning, message: $0.note)
                }
                return (catalog, secrets)
            },
            transport: transport,
            history: HistoryStore(directoryPath: state), drift: DriftStore(directoryPath: state), environment: environment,
            drafts: ExplorerStateFiles.drafts(inFolder: state), values: ExplorerStateFiles.values(inFolder: state),
            reloadCatalog: ExplorerServices.reloading(
                from: source, maximumBodySize: maximumBodySize, trust: trustFile, trustingEverything: trust, cache: parseCache),
            captured: ExplorerStateFiles.captured(inFolder: state), tokens: TokenFile(directoryPath: state), cookies: CookieFile(directoryPath: state))
        services.loadCatalogCounting = ExplorerServices.countingCatalogs(
            from: source, maximumBodySize: maximumBodySize, trust: trustFile, trustingEverything: trust, cache: parseCache)
        services.timeZone = { .system(now: Int64(Date().timeIntervalSince1970)) }
        services.trust = trustFile
        services.panes = PanesFile(directoryPath: state)
        services.launchIndex = LaunchIndexFile(
            source: source, cacheFolder: parseCache.folderPath, settings: Self.launchIndexSettings(trust: trust, maximumBodySize: maximumBodySize, state: state))
        if headless {
            // What is counted must not depend on the machine's speed: under valgrind the catalogs
            // take longer than the loading screen's grace, which would then be drawn.
            let schedule = services.schedule
            services.schedule = { _, work in schedule(.seconds(3_600), work) }
        }
        var launch = startingPoint
        launch.config = ExplorerConfigFile.read(environment: environment)
        let runtime = ExplorerRuntime(device: terminal, services: services, launch: launch)
        if headless {
            let running = Task { await runtime.run() }
            await runtime.waitUntilIdle()
            runtime.post(.terminalClosed)
            await running.value
        } else {
            await runtime.run()
        }
        terminal.shutdown()
        try? await transport.shutdown()
        await mockServer?.stop()
        if let curses = terminal as? NcursesTerminal {
            if let signal = curses.terminationSignal { throw ExitCode(128 + signal) }
            if let error = curses.startupError {
                Console.error("error: \(error)")
                throw ExitStatus.usage
            }
        }
        if let failure = runtime.currentState.failure {
            Console.error("error: \(failure)")
            throw ExitStatus.usage
        }
        if let frame = (terminal as? HeadlessTerminal)?.lastFrame { StandardStreams.writeOutput(frame.buffer.plainText() + "\n") }
    }

    /// What else the launch index depends on: `--trust`, `--max-body-size` and the trust file as it is.
    static func launchIndexSettings(trust: Bool, maximumBodySize: Int?, state: String) -> String {
        let trustFile = FileIdentity(path: URL.joinedFilePath(state, "trust.json")).map {
            "\($0.size) \($0.modifiedSeconds).\($0.modifiedNanoseconds) \($0.inode) \($0.device)"
        }
        return "trust \(trust) max \(maximumBodySize.map(String.init) ?? "-") trust.json \(trustFile ?? "-")"
    }

    /// `APIEXPLORER_HEADLESS_LAUNCH=1`: the same launch on an in-memory terminal of `headlessSize`
    /// instead of the real one; once everything a launch reads (catalogs, history, drafts, drift
    /// marks, panes) is shown, the explorer quits and prints that frame as text. For counting a
    /// launch's instructions (`scripts/count-launch-instructions`, `LaunchBudgetTests`): read
    /// here rather than as an option, so that the launch measured is `apiexplorer` with no arguments.
    static let headlessVariable = "APIEXPLORER_HEADLESS_LAUNCH"
    static let headlessSize = Size(width: 120, height: 40)
}
