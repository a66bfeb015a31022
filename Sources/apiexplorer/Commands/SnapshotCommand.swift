import ArgumentParser
import Catalog
import ExplorerApp
import DispatcherCore
import ExplorerRuntime
import FoundationEssentials
import LiveTransport
import StateStore
import Synchronization
import SystemSupport
import TerminalKit

/// `apiexplorer snapshot`: runs the explorer on an in-memory terminal, presses keys, and prints the
/// last frame as text or SVG. The screenshots in the README come from it, so they show the real app.
struct SnapshotCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Renders the explorer after a sequence of keys, as text or SVG (no terminal needed).",
        discussion: """
            Keys are written as in the help: "j j Enter 2", "C-c", "S-Tab", "Esc". Each key is \
            handled, and any request it sends finished, before the next. Requests run in stub \
            mode unless --live is given. Timings come from a stepping clock (stub) or are fixed \
            (live), so the output is the same on every run.
            """)

    @OptionGroup var catalogOptions: CatalogOptions

    @OptionGroup var bodyLimit: BodyLimitOption

    @Option(help: ArgumentHelp("Terminal size as COLUMNSxROWS.", valueName: "SIZE"))
    var size = "120x40"

    @Option(help: ArgumentHelp("Keys to press, separated by spaces.", valueName: "KEYS"))
    var keys = ""

    @OptionGroup var start: StartingPoint

    @Flag(help: InProcessMock.help)
    var mock = false

    @Option(help: ArgumentHelp("text or svg.", valueName: "FORMAT"))
    var format: OutputFormat = .text

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "FILE"))
    var out: String?

    enum OutputFormat: String, ExpressibleByArgument {
        case text, svg
    }

    func validate() throws {
        guard Self.parseSize(size) != nil else {
            throw ValidationError("--size must look like 120x40 (columns x rows, at least 20x5), not '\(size)'.")
        }
        do {
            _ = try KeyEvent.parseSequence(keys)
        } catch {
            throw ValidationError("--keys: \(error)")
        }
    }

    func run() async throws {
        let source = catalogOptions.source()
        let terminalSize = Self.parseSize(size) ?? Size(width: 120, height: 40)
        let terminal = HeadlessTerminal(size: terminalSize, frameHistoryLimit: 1)
        let environment = ProcessInfo.processInfo.environment
        // What `apiexplorer trust` gave counts, as in the explorer; a trust question the keys answer
        // holds for this run only (a snapshot leaves no state behind).
        let trustFile = SnapshotTrust(kept: TrustFile(directoryPath: StateDirectory.path(environment: environment)))
        let trust = catalogOptions.trust ? .everything : source.trust(in: trustFile)
        let mockServer = mock ? try await InProcessMock.start(CatalogLoader.load(source, trust: trust), honourDelays: false) : nil
        let transport = HTTPTransport()
        let maximumBodySize = bodyLimit.maximumBodySize
        // No history and no drift marks: the output depends on the catalogs and the keys alone.
        var services = ExplorerServices(
            loadCatalog: ExplorerServices.catalogs(
                from: source, maximumBodySize: maximumBodySize, trust: trustFile, trustingEverything: catalogOptions.trust),
            transport: SteadyTimingTransport(transport),
            clock: DispatchClock(SteppingClock()), environment: environment,
            reloadCatalog: ExplorerServices.reloading(
                from: source, maximumBodySize: maximumBodySize, trust: trustFile, trustingEverything: catalogOptions.trust))
        services.trust = trustFile
        services.watchesCatalogs = false
        services.animatesSpinner = false
        let runtime = ExplorerRuntime(device: terminal, services: services, launch: start.launchOptions)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        for key in try KeyEvent.parseSequence(keys) {
            runtime.post(.terminal(.key(key)))
            await runtime.waitUntilIdle()
        }
        runtime.post(.terminalClosed)
        await running.value
        try? await transport.shutdown()
        await mockServer?.stop()
        if let failure = runtime.currentState.failure {
            Console.error("error: \(failure)")
            throw ExitStatus.usage
        }
        guard let frame = terminal.lastFrame else { throw ExitCode.failure }
        let output = format == .svg ? frame.buffer.svg() : frame.buffer.plainText() + "\n"
        if let out {
            do throws(SystemError) {
                try AtomicFile.write(Data(output.utf8), to: URL(fileURLWithPath: out))
            } catch {
                throw ExitStatus.fail(error)
            }
        } else {
            StandardStreams.writeOutput(output)
        }
    }

    static func parseSize(_ text: String) -> Size? {
        let parts = text.lowercased().split(separator: "x")
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]), width >= 20, height >= 5,
            width <= 1000, height <= 1000
        else { return nil }
        return Size(width: width, height: height)
    }
}

/// The trust a snapshot runs with: what the state folder's trust file holds, and what the keys
/// trust during the run, kept in memory only.
private final class SnapshotTrust: TrustPersistence {
    private let kept: TrustFile
    private let given = Mutex<[String: Set<String>]>([:])

    init(kept: TrustFile) { self.kept = kept }

    func trust(for folder: URL) -> CatalogTrust {
        kept.trust(for: folder).merging(CatalogTrust(contentHashes: given.withLock { $0[folder.path] ?? [] }))
    }

    func trust(_ contentHashes: some Sequence<String> & Sendable, in folder: URL) throws(SystemError) {
        given.withLock { $0[folder.path, default: []].formUnion(contentHashes) }
    }
}
