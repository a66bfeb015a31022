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

    @OptionGroup var start: StartingPoint

    @Flag(help: InProcessMock.help)
    var mock = false

    @Flag(help: "Leave the mouse to the terminal (selection, scrolling).")
    var noMouse = false

    func run() async throws {
        let source = catalogOptions.source()
        let catalog = CatalogLoader.load(source)
        try start.check(in: catalog)
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
        ) { [start] state in start.apply(to: &state) }
        // Files of earlier runs are read beside the first frame, not before it.
        let earlierRuns = Task.detached {
            runtime.post(.driftMarksLoaded(ExploreCommand.driftMarks(DriftStore())))
            runtime.post(.historyLoaded(ExploreCommand.historyItems(history)))
        }
        await runtime.run()
        earlierRuns.cancel()
        terminal.shutdown()
        try? await transport.shutdown()
        await mockServer?.stop()
        if let signal = terminal.terminationSignal { throw ExitCode(128 + signal) }
    }

    /// The last drift check of every service and environment, as badges.
    static func driftMarks(_ store: DriftStore) -> [String: DriftMark] {
        var marks: [String: DriftMark] = [:]
        for (serviceAndEnvironment, endpoints) in store.everyResult() {
            for (endpoint, record) in endpoints {
                let mark: DriftMark
                switch record.result.outcome {
                case .same: mark = .matches
                case .drifted: mark = .drifted
                case .failed: mark = .failed
                case .skipped: continue
                }
                // Both key by `service/environment`, so the badge key is that plus the endpoint.
                marks["\(serviceAndEnvironment)/\(endpoint)"] = mark
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
