import ArgumentParser
import BodyViewer
import Catalog
import DispatcherCore
import ExplorerApp
import Foundation
import Synchronization
import TerminalKit

/// `apiexplorer-bench body-tab`: keypress → frame in the explorer's Body tab with a large body — the
/// reducer handling the key plus `AppView.render` of the whole screen, as the runtime does per frame.
struct BodyTabBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "body-tab",
        abstract: "Keypress-to-frame times (reducer + full-screen render) of the Body tab with a large JSON body."
    )

    @Option(name: .long, help: "Body size in MB.")
    var size = 100

    @Option(name: .long, help: "Frames measured per key.")
    var frames = 200

    @Option(name: .long, help: "Terminal size, COLSxROWS.")
    var terminal = "160x50"

    @Flag(name: .long, help: "Take the body from a file mapped into memory, as a download (d, call -o) is opened, and report resident memory.")
    var fromFile = false

    func run() async throws {
        let parts = terminal.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw ValidationError("--terminal must look like 160x50") }
        var state = AppState(catalog: CatalogLoader.load(.bundled), size: Size(width: parts[0], height: parts[1]))
        var data = ViewerBodyGenerator.make(bytes: size << 20)
        var file: TemporaryFile?
        if fromFile {
            // Written out, dropped from the heap, and mapped back as the runtime opens a download.
            let written = try TemporaryFile(data)
            data = Data()
            data = try Data(contentsOf: written.url, options: .alwaysMapped)
            file = written
        }
        defer { file?.remove() }

        let ticket = try state.sendSelected()
        let arrived = ContinuousClock.now
        let effects = AppReducer.reduce(&state, .exchanges(.finished(FinishedExchange(ticket: ticket.id, exchange: Self.exchange(data, ticket: ticket), redactor: .standard, finishedAt: Date()))))
        _ = AppView.render(state)
        let responseFrame = ContinuousClock.now - arrived
        guard case .body(.build(let key, let generation, let body, let contentType, _))? = effects.first(where: {
            if case .body(.build) = $0 { true } else { false }
        }) else { throw ValidationError("no build effect") }
        // The runtime's build: the preview frame, then the final document.
        let previewFrame = Mutex<Duration?>(nil)
        let waiting = state
        let document = try await BodyDocument.build(data: body, contentType: contentType) { progress in
            guard let preview = progress.preview else { return }
            var copy = waiting
            let status = BodyBuildStatus(bytesProcessed: progress.bytesProcessed, totalBytes: progress.totalBytes)
            _ = AppReducer.reduce(&copy, .body(.buildProgressed(key: key, generation: generation, status: status, preview: BodyHandle(preview))))
            _ = AppView.render(copy)
            previewFrame.withLock { $0 = $0 ?? ContinuousClock.now - arrived }
        }
        _ = AppReducer.reduce(&state, .body(.built(key: key, generation: generation, document: BodyHandle(document))))
        _ = AppView.render(state)
        let builtFrame = ContinuousClock.now - arrived
        state.press("Tab")

        var rows: [(String, FrameStats)] = []
        rows.append(("j (scroll a line)", measure("j", &state)))
        rows.append(("PgDn", measure("PageDown", &state)))
        rows.append(("G / g (jump to end / top)", measure(alternating: ["G", "g"], &state)))
        var random = ViewerRandom(seed: 11)
        let lineCount = document.lineCount
        rows.append(("z (fold / unfold at a random line)", measure("z", &state, prepare: { state in
            Self.moveCursor(&state, to: Int(random.next() % UInt64(lineCount)))
        })))
        rows.append(("Z / U (fold all / unfold all)", measure(alternating: ["Z", "U"], &state)))
        state.press("g / s p r i n g f i e l d Enter")
        let query = BodySearchQuery("springfield")
        let count = document.countMatches(for: query)
        _ = AppReducer.reduce(&state, .body(.matchesCounted(key: key, document: BodyHandle(document), query: query,
            count: BodyMatchCount(count: count, isComplete: true, fraction: 1))))
        rows.append(("n (next match, \(count) counted)", measure("n", &state)))
        rows.append(("typing a search found nowhere (each key)", typing("qzxv", &state)))
        rows.append(("pasting a search (one key per character)", typing("springfield-not-there", &state, times: 2)))

        print("Body tab, \(size) MB JSON (\(lineCount) lines), \(terminal), \(frames) frames per key — milliseconds")
        print(String(format: "  response arrives → first frame (formatting shown): %.1f", responseFrame.milliseconds))
        print(String(format: "  response arrives → preview frame:                   %.1f", (previewFrame.withLock { $0 } ?? builtFrame).milliseconds))
        print(String(format: "  response arrives → fully indexed frame:             %.1f", builtFrame.milliseconds))
        print("  key                                   median / max (reducer + full-screen render)")
        for (label, stats) in rows {
            print("  " + label.padding(toLength: 38, withPad: " ", startingAt: 0) + stats.text)
        }
        if fromFile {
            let memory = ResidentMemory.read()
            print("  resident memory: \(memory.anonymous >> 20) MiB in the heap (index, documents), \(memory.file >> 20) MiB of the mapped file in the page cache")
        }
    }

    /// Times `key` then a frame, `frames` times.
    private func measure(_ key: String, _ state: inout AppState, prepare: (inout AppState) -> Void = { _ in }) -> FrameStats {
        measure(alternating: [key], &state, prepare: prepare)
    }

    private func measure(alternating keys: [String], _ state: inout AppState, prepare: (inout AppState) -> Void = { _ in }) -> FrameStats {
        let events = keys.compactMap { KeyEvent($0) }
        var samples: [Double] = []
        for index in 0..<frames {
            prepare(&state)
            let begin = ContinuousClock.now
            _ = AppReducer.reduce(&state, .terminal(.key(events[index % events.count])))
            _ = AppView.render(state)
            samples.append((ContinuousClock.now - begin).milliseconds)
        }
        return FrameStats(samples)
    }

    /// Times each key of `text` typed into a new search (`/` and Esc around it are not timed): the
    /// worst case is a text found nowhere, as a match near the cursor ends the scan early.
    private func typing(_ text: String, _ state: inout AppState, times: Int? = nil) -> FrameStats {
        var samples: [Double] = []
        let keys = text.map { KeyEvent.character($0) }
        for _ in 0..<(times ?? max(1, frames / keys.count)) {
            state.press("Esc Esc g /")
            for key in keys {
                let begin = ContinuousClock.now
                _ = AppReducer.reduce(&state, .terminal(.key(key)))
                _ = AppView.render(state)
                samples.append((ContinuousClock.now - begin).milliseconds)
            }
        }
        state.press("Esc Esc")
        return FrameStats(samples)
    }

    /// Puts the Body tab's cursor on `line` (as if moved there), outside the timed part.
    private static func moveCursor(_ state: inout AppState, to line: Int) {
        state.placeBodyCursor(atLine: line)
    }

    /// A body written to a file for the run.
    struct TemporaryFile {
        let url: URL
        init(_ data: Data) throws {
            url = FileManager.default.temporaryDirectory.appendingPathComponent("bench-body-\(UUID().uuidString).json")
            try data.write(to: url)
        }
        func remove() { try? FileManager.default.removeItem(at: url) }
    }

    /// `RssAnon` and `RssFile` of /proc/self/status, in bytes.
    enum ResidentMemory {
        static func read() -> (anonymous: Int, file: Int) {
            let text = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
            func field(_ name: String) -> Int {
                let line = text.split(separator: "\n").first { $0.hasPrefix(name + ":") } ?? ""
                return (Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0) * 1024
            }
            return (field("RssAnon"), field("RssFile"))
        }
    }

    static func exchange(_ body: Data, ticket: RequestTicket) -> Exchange {
        let url = URL(fileURLWithPath: "/bench")
        let request = Request(identifier: ticket.endpoint.description, method: .get, url: url,
            settings: TransportSettings(environment: Environment(name: ticket.call.environment, baseURL: url)))
        let response = Response(status: 200, headers: Headers([("Content-Type", "application/json")], origin: .server), body: body)
        return Exchange(request: request, result: .success(response), trace: [], environmentName: ticket.call.environment,
            environmentType: .development, stubBehavior: .never, attempts: 1, notes: [])
    }
}
