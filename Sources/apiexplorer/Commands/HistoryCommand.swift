import ArgumentParser
import Catalog
import JSONSupport
import StateStore
import SystemSupport
import TextSupport
import TimingReport

/// `apiexplorer history [--json] [--limit N]`: the requests sent, oldest first; `--stats
/// [SERVICE/ENDPOINT]`: response times per endpoint.
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

    @Flag(help: "Show each endpoint's last live sends: p50, p95 and max time, the statuses, and a sparkline of the times.")
    var stats = false

    @Argument(help: ArgumentHelp("With --stats: only this endpoint.", valueName: "SERVICE/ENDPOINT"))
    var endpoint: String?

    /// Sends per endpoint that `--stats` reads (the newest), unless `--limit` says otherwise.
    static let statsWindow = 50

    func validate() throws {
        if let limit, limit < 0 { throw ValidationError("--limit must be 0 or more.") }
        if endpoint != nil, !stats { throw ValidationError("An endpoint is only taken with --stats.") }
    }

    func run() throws {
        let store = HistoryStore()
        do throws(SystemError) {
            if clear {
                try store.removeAll()
                Console.out("History cleared (\(store.fileURL.path)).")
                return
            }
            if stats {
                printStats(store.summaries())
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

    /// Each endpoint's statistics (or the one asked for), oldest endpoint first; `--json` prints them as an array.
    private func printStats(_ summaries: [HistorySummary]) {
        var order: [EndpointKey] = []
        var sends: [EndpointKey: [HistorySummary]] = [:]
        for summary in summaries where summary.call.mode == .live {
            let key = summary.call.endpoint
            if let endpoint, key.description != endpoint { continue }
            if sends[key] == nil { order.append(key) }
            sends[key, default: []].append(summary)
        }
        let window = limit ?? Self.statsWindow
        let stats = order.map { key in
            let last = sends[key, default: []].suffix(window)
            return (key, last.count, ResponseTimes(last.map { (microseconds: $0.timeMicroseconds, outcome: $0.statsOutcome) }))
        }
        if json {
            let array = JSONValue.array(stats.map { key, count, times in
                .object([
                    "endpoint": .string(key.description), "sends": .integer(count),
                    "p50Ms": times.percentile(0.5).map { .double(Double($0) / 1000) } ?? .null,
                    "p95Ms": times.percentile(0.95).map { .double(Double($0) / 1000) } ?? .null,
                    "maxMs": times.maximum.map { .double(Double($0) / 1000) } ?? .null,
                    "statuses": .object(JSONObject(times.outcomes.map { (key: $0.outcome, value: JSONValue.integer($0.count)) })),
                    "timesMs": .array(times.times.map { .double(Double($0) / 1000) }),
                ])
            })
            Console.out(array.prettyText())
            return
        }
        guard !stats.isEmpty else {
            Console.out(endpoint.map { "No live sends of \($0) in the history." } ?? "No live sends in the history yet.")
            return
        }
        let width = stats.map { $0.0.description.count }.max() ?? 0
        for (key, count, times) in stats {
            let figures = times.summary ?? "no times recorded"
            Console.out(TerminalText.cleaned(
                "\(key.description.padded(to: width))  \(times.sparkline(width: 20).padded(to: 20))  \(figures)  \(times.outcomeSummary)  (last \(count))"))
        }
    }
}

extension HistorySummary {
    /// The status, or the error kind when none came: what `--stats` counts.
    fileprivate var statsOutcome: String {
        if let status { return String(status) }
        return errorKind ?? "no response"
    }
}
