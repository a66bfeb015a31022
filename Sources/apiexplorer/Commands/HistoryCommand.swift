import ArgumentParser
import StateStore
import SystemSupport

/// `apiexplorer history [--json] [--limit N]`: the requests sent, oldest first.
struct HistoryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "history",
        abstract: "Shows the requests sent from the explorer and `apiexplorer call`.",
        discussion: """
            Kept in $XDG_STATE_HOME/apiexplorer/\(HistoryStore.fileName) (else ~/.local/state/apiexplorer), \
            readable by you only, secrets masked, the newest \(HistoryStore.defaultLimit) requests.
            """)

    @Flag(help: "Print the entries as a JSON array (the objects `call --json` prints).")
    var json = false

    @Option(help: ArgumentHelp("Show only the newest N entries.", valueName: "N"))
    var limit: Int?

    @Flag(help: "Empty the history.")
    var clear = false

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more.") }
    }

    func run() throws {
        let store = HistoryStore()
        do throws(SystemError) {
            if clear {
                try store.removeAll()
                Console.out("History cleared (\(store.fileURL.path)).")
                return
            }
            let entries = try store.entries(limit: limit)
            if json {
                Console.out(HistoryEntry.jsonText(entries, pretty: true))
            } else if entries.isEmpty {
                Console.out("No requests yet (\(store.fileURL.path)).")
            } else {
                entries.forEach { Console.out($0.summaryLine) }
            }
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
