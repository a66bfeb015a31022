import ArgumentParser
import Catalog
import ExplorerApp
import ExplorerRuntime
import FoundationEssentials
import LiveTransport
import NcursesBackend
import StateStore
import SystemSupport
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

        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal(options: .init(enablesMouse: !noMouse))
        } catch {
            Console.error("error: \(error)")
            await mockServer?.stop()
            throw ExitStatus.usage
        }
        let transport = HTTPTransport()
        // Writes a killed explorer or `call` left half done (temporary files) go first.
        let parseCache = ParsedCatalogCache(directoryPath: state)
        for folder in [state, parseCache.folderPath] + (source.directory.map { [$0.path] } ?? []) { AtomicFile.removeLeftovers(inFolder: folder) }
        var services = ExplorerServices(
            loadCatalog: ExplorerServices.catalogs(
                from: source, maximumBodySize: maximumBodySize, trust: trustFile, trustingEverything: trust, cache: parseCache),
            transport: transport,
            history: HistoryStore(directoryPath: state), drift: DriftStore(directoryPath: state), environment: environment,
            drafts: ExplorerStateFiles.drafts(inFolder: state), values: ExplorerStateFiles.values(inFolder: state),
            reloadCatalog: ExplorerServices.reloading(
                from: source, maximumBodySize: maximumBodySize, trust: trustFile, trustingEverything: trust, cache: parseCache),
            captured: ExplorerStateFiles.captured(inFolder: state), tokens: TokenFile(directoryPath: state), cookies: CookieFile(directoryPath: state))
        services.timeZone = { .system(now: Int64(Date().timeIntervalSince1970)) }
        services.trust = trustFile
        services.panes = PanesFile(directoryPath: state)
        var launch = startingPoint
        launch.config = ExplorerConfigFile.read(environment: environment)
        let runtime = ExplorerRuntime(device: terminal, services: services, launch: launch)
        await runtime.run()
        terminal.shutdown()
        try? await transport.shutdown()
        await mockServer?.stop()
        if let signal = terminal.terminationSignal { throw ExitCode(128 + signal) }
        if let error = terminal.startupError {
            Console.error("error: \(error)")
            throw ExitStatus.usage
        }
        if let failure = runtime.currentState.failure {
            Console.error("error: \(failure)")
            throw ExitStatus.usage
        }
    }
}
