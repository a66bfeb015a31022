import ArgumentParser
import Catalog
import ExplorerApp
import ExplorerRuntime
import FoundationEssentials
import StateStore
import LiveTransport
import NcursesBackend

/// `apiexplorer` (or `apiexplorer explore`): the interactive explorer.
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Opens the interactive explorer (the default command).",
        discussion: "Keys (? lists them in the app too):\n" + Keymap.plainTextWrittenOut)

    @OptionGroup var catalogOptions: CatalogOptions

    @OptionGroup var bodyLimit: BodyLimitOption

    @OptionGroup var start: StartingPoint

    @Flag(help: InProcessMock.help)
    var mock = false

    @Flag(help: "Leave the mouse to the terminal (selection, scrolling).")
    var noMouse = false

    func run() async throws {
        // Read once: each lookup of the process environment copies all of it into a dictionary.
        let environment = ProcessInfo.processInfo.environment
        let source = catalogOptions.source(environment: environment)
        // The mock reads its own copy of the catalogs: it must listen before the first key is pressed.
        let mockServer = mock ? try await InProcessMock.start(CatalogLoader.load(source)) : nil

        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal(options: .init(enablesMouse: !noMouse))
        } catch {
            Console.error("error: \(error)")
            await mockServer?.stop()
            throw ExitStatus.usage
        }
        let transport = HTTPTransport()
        let state = StateDirectory.url(environment: environment)
        var services = ExplorerServices(
            loadCatalog: ExplorerServices.catalogs(from: source, maximumBodySize: bodyLimit.maximumBodySize), transport: transport,
            history: HistoryStore(directory: state), drift: DriftStore(directory: state), environment: environment,
            drafts: ExplorerStateFiles.drafts(in: state), values: ExplorerStateFiles.values(in: state),
            reloadCatalog: ExplorerServices.reloading(from: source, maximumBodySize: bodyLimit.maximumBodySize),
            captured: ExplorerStateFiles.captured(in: state), tokens: TokenFile(directory: state), cookies: CookieFile(directory: state))
        services.timeZone = { .current }
        let runtime = ExplorerRuntime(device: terminal, services: services, launch: start.launchOptions)
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
