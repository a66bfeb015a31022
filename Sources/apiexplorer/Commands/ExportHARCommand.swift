import ArgumentParser
import CatalogAuthoring
import FoundationEssentials
import StateStore
import SystemSupport

/// `apiexplorer export har [--out FILE]`: the history as an HTTP Archive (HAR 1.2).
struct ExportHARCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "har",
        abstract: "Writes the history as HAR 1.2 (secrets stay masked).")

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "FILE"))
    var out: String?

    @Option(help: ArgumentHelp("Only the newest N requests.", valueName: "N"))
    var limit: Int?

    func run() throws {
        do throws(SystemError) {
            let text = HARExporter.text(try HistoryStore().entries(limit: limit).map(\.harExchange), creatorVersion: APIExplorerVersion.current)
            guard let out else { return Console.out(text) }
            try AtomicFile.write(Data((text + "\n").utf8), to: URL(fileURLWithPath: out), permissions: 0o600)
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
