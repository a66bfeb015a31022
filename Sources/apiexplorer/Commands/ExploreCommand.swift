import ArgumentParser
import Catalog
import ExplorerApp
import ExplorerRuntime
import Foundation
import Interop
import LiveTransport
import NcursesBackend

/// `apiexplorer` (or `apiexplorer explore`): the interactive explorer.
struct ExploreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Opens the interactive explorer (the default command).",
        discussion: """
            Keys: Enter sends, s switches stub/live, e/E switches environment, 1–5 pick a response tab, \
            ? lists every key, q quits.
            """)

    @OptionGroup var catalogOptions: CatalogOptions

    @Option(help: ArgumentHelp("Start in this environment (NAME or SERVICE/NAME).", valueName: "NAME"))
    var env: String?

    @Flag(help: "Start in live mode (real HTTP) instead of stub mode.")
    var live = false

    @Flag(help: InProcessMock.help)
    var mock = false

    @Flag(help: "Leave the mouse to the terminal (selection, scrolling).")
    var noMouse = false

    func run() async throws {
        let source = catalogOptions.source()
        let catalog = CatalogLoader.load(source)
        var initial = AppState(catalog: catalog, size: .init(width: 80, height: 24))
        if let env, !initial.selectEnvironment(named: env) {
            throw ValidationError("No environment named '\(env)' in \(source). Run `apiexplorer list` to see them.")
        }
        let mockServer = mock ? try await InProcessMock.start(catalog) : nil

        let terminal: NcursesTerminal
        do {
            terminal = try NcursesTerminal(options: .init(enablesMouse: !noMouse))
        } catch {
            Console.error("error: \(error)")
            await mockServer?.stop()
            throw ExitCode(2)
        }
        let transport = HTTPTransport()
        let secrets = SecretStore.load(for: source)
        let history = HistoryStore()
        let runtime = ExplorerRuntime(
            catalog: catalog, secrets: secrets, transport: transport, device: terminal,
            resultHandlers: { service, environment in
                [HistoryRecorder(store: history, redactor: ServiceSession.makeRedactor(service: service, environment: environment, secrets: secrets))]
            }
        ) { [env, live] state in
            if let env { state.selectEnvironment(named: env) }
            if live { state.mode = .live }
            state.driftMarks = ExploreCommand.driftMarks(DriftStore(), catalog: catalog)
            state.history = ExploreCommand.historyItems(history)
        }
        await runtime.run()
        terminal.shutdown()
        try? await transport.shutdown()
        await mockServer?.stop()
        if let signal = terminal.terminationSignal { throw ExitCode(128 + signal) }
    }

    /// The last drift check of every service and environment, as badges.
    static func driftMarks(_ store: DriftStore, catalog: CatalogSet) -> [String: DriftMark] {
        var marks: [String: DriftMark] = [:]
        for service in catalog.services {
            for environment in service.environments {
                for (endpoint, record) in store.results(service: service.id, environment: environment.name) {
                    let mark: DriftMark?
                    switch record.result.outcome {
                    case .same: mark = .matches
                    case .drifted: mark = .drifted
                    case .failed: mark = .failed
                    case .skipped: mark = nil
                    }
                    if let mark { marks[DriftMark.key(service: service.id, environment: environment.name, endpoint: endpoint)] = mark }
                }
            }
        }
        return marks
    }

    /// Earlier requests from the history file, newest first (an unreadable history is left out, not fatal).
    static func historyItems(_ store: HistoryStore) -> [HistoryItem] {
        let entries = (try? store.entries(limit: HistoryItem.limit)) ?? []
        return entries.sorted { $0.date > $1.date }.map { entry in
            let ticket = RequestTicket(
                id: 0, serviceID: entry.service, endpointID: entry.endpoint, environmentName: entry.environment,
                mode: entry.mode == .live ? .live : .stub, example: entry.example)
            let outcome = entry.error.map { error in error.status.map { "\($0) \(error.kind)" } ?? error.kind }
                ?? entry.response.map { "\($0.status) \($0.statusText)" } ?? "—"
            return HistoryItem(
                ticket: ticket, requestLine: "\(entry.request.method) \(entry.request.url)", outcome: outcome,
                failed: entry.error != nil, date: entry.date)
        }
    }
}
