import ArgumentParser
import Catalog
import ExplorerApp
import Foundation
import Synchronization
import TerminalKit

/// `apiexplorer-bench editing`: keypress → frame while a request with a large JSON body is
/// edited (reducer + full-screen render, as the runtime does per frame), and a changed catalog of
/// 1,000 endpoints read again while frames keep being drawn (targets: ≤ 16 ms and ≤ 50 ms).
struct EditingBenchmark: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "editing",
        abstract: "Keypress-to-frame while editing a large JSON body, and a 1,000-endpoint catalog reloaded while frames are drawn.")

    @Option(help: "Body size in MB.")
    var size = 1

    @Option(help: "Frames measured per key.")
    var frames = 200

    @Option(help: "Endpoints in the reloaded catalog (10 files).")
    var endpoints = 1_000

    @Option(help: "Timed reloads.")
    var runs = 20

    @Option(name: .long, help: "Terminal size, COLSxROWS.")
    var terminal = "120x40"

    func run() async throws {
        let parts = terminal.split(separator: "x").compactMap { Int($0) }
        guard parts.count == 2 else { throw ValidationError("--terminal must look like 120x40") }
        let size = Size(width: parts[0], height: parts[1])
        try measureEditing(size: size)
        try await measureReload(size: size)
    }

    // MARK: Editing a large body

    private func measureEditing(size: Size) throws {
        var state = AppState(catalog: CatalogLoader.load(.bundled), size: size)
        // httpbin/post: a JSON body; the Edit tab.
        state.press("j Tab 6")
        guard let key = state.selectedDraftKey else { throw ValidationError("no endpoint selected") }
        let body = Self.jsonBody(bytes: self.size << 20)
        let arrived = ContinuousClock.now
        _ = AppReducer.reduce(&state, .editing(.bodyEdited(key: key, text: body, message: nil)))
        _ = AppView.render(state)
        let editedFrame = ContinuousClock.now - arrived
        guard state.drafts[key]?.body != nil else { throw ValidationError("the body edit did not make a draft") }

        var rows: [(String, FrameStats)] = []
        rows.append(("j / k (move between rows)", measure(alternating: ["j", "k"], &state)))
        state.press("g j j j")
        rows.append(("Space (a header off / on)", measure(alternating: ["Space"], &state)))
        rows.append(("u / C-r (undo / redo a change)", measure(alternating: ["u", "C-r"], &state)))
        state.press("4")
        rows.append(("4 / 6 (Request tab diff ↔ Edit tab)", measure(alternating: ["6", "4"], &state)))

        print("Editing \(self.size) MB of JSON body (httpbin/post), \(terminal), \(frames) frames per key — milliseconds")
        print(String(format: "  body back from $EDITOR (checked, kept as a draft) → frame: %.2f", editedFrame.milliseconds))
        print("  key                                   median / max (reducer + full-screen render); target ≤ 16")
        for (label, stats) in rows { print("  " + label.padding(toLength: 38, withPad: " ", startingAt: 0) + stats.text) }
    }

    /// About `bytes` of pretty JSON, as a person would keep in an editor.
    static func jsonBody(bytes: Int) -> String {
        var text = "{\n  \"items\": [\n"
        var index = 0
        while text.utf8.count < bytes {
            if index > 0 { text += ",\n" }
            text += "    { \"id\": \(index), \"name\": \"item \(index)\", \"tags\": [\"a\", \"b\"], \"price\": 12.5 }"
            index += 1
        }
        return text + "\n  ]\n}"
    }

    // MARK: Reloading a changed catalog

    private func measureReload(size: Size) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("apiexplorer-bench-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let files = 10
        var texts: [String] = []
        for index in 0..<files {
            let text = CatalogBenchmark.catalogFile(index: index, endpoints: endpoints / files)
            texts.append(text)
            try Data(text.utf8).write(to: folder.appendingPathComponent(String(format: "service-%03d.yaml", index)))
        }
        let source = CatalogSource(origin: .option, directory: folder, displayPath: "bench")
        var catalog = CatalogLoader.load(source)
        guard catalog.endpointCount == endpoints, !catalog.hasErrors else {
            throw ValidationError("the generated catalogs did not load cleanly: \(catalog.summary)")
        }
        var state = AppState(catalog: catalog, size: size)
        _ = AppReducer.reduce(&state, .catalogLoaded(catalog, SecretStore()))

        var reloads: [Double] = []
        var applied: [Double] = []
        let worstConcurrentFrame = Mutex<Double>(0)
        for run in 0..<runs {
            // One file changes (an endpoint appended), as an editor's save does.
            let changed = String(format: "service-%03d.yaml", run % files)
            texts[run % files] += "  added\(run):\n    path: /added/\(run)\n"
            try Data(texts[run % files].utf8).write(to: folder.appendingPathComponent(changed))

            // The runner reads it off the UI thread while the UI thread keeps drawing frames.
            let previous = catalog
            let reading = Task.detached { () -> (CatalogSet, Duration) in
                let begin = ContinuousClock.now
                let reloaded = CatalogLoader.reload(source, previous: previous, changedFiles: [changed])
                return (reloaded, ContinuousClock.now - begin)
            }
            let drawing = state
            let drawer = Task.detached {
                var worst = 0.0
                for _ in 0..<10 {
                    let begin = ContinuousClock.now
                    _ = AppView.render(drawing)
                    worst = max(worst, (ContinuousClock.now - begin).milliseconds)
                }
                return worst
            }
            let (reloaded, took) = await reading.value
            let worst = await drawer.value
            worstConcurrentFrame.withLock { $0 = max($0, worst) }
            reloads.append(took.milliseconds)
            let begin = ContinuousClock.now
            _ = AppReducer.reduce(&state, .catalogReloaded(reloaded, SecretStore(), changed: [changed]))
            _ = AppView.render(state)
            applied.append((ContinuousClock.now - begin).milliseconds)
            catalog = reloaded
        }
        guard catalog.endpointCount == endpoints + runs else { throw ValidationError("the reloads lost endpoints: \(catalog.summary)") }
        let reload = FrameStats(reloads)
        let apply = FrameStats(applied)
        print("Reloading one changed file of \(files) (\(endpoints) endpoints) in the running app, \(runs) runs — milliseconds")
        print("  read again (off the UI thread), median / max:            " + reload.text + "  (target ≤ 50)")
        print("  reducer + frame that shows it, median / max:             " + apply.text + "  (target ≤ 16)")
        print(String(format: "  slowest frame drawn while the file was read:             %.3f", worstConcurrentFrame.withLock { $0 }))
    }

    // MARK: Helpers

    /// Times each key then a frame, `frames` times, the keys taken in turn.
    private func measure(alternating keys: [String], _ state: inout AppState) -> FrameStats {
        let events = keys.compactMap { try? KeyEvent.parseSequence($0).first }
        var samples: [Double] = []
        for index in 0..<frames {
            let begin = ContinuousClock.now
            _ = AppReducer.reduce(&state, .terminal(.key(events[index % events.count])))
            _ = AppView.render(state)
            samples.append((ContinuousClock.now - begin).milliseconds)
        }
        return FrameStats(samples)
    }
}

extension AppState {
    /// Applies key presses given as `"j j Enter"`, untimed.
    @discardableResult
    mutating func press(_ keys: String) -> [AppEffect] {
        var effects: [AppEffect] = []
        for key in (try? KeyEvent.parseSequence(keys)) ?? [] { effects += AppReducer.reduce(&self, .terminal(.key(key))) }
        return effects
    }

    /// Presses Enter on the selected endpoint and returns the ticket of the request it sends.
    mutating func sendSelected() throws -> RequestTicket {
        for case .exchanges(.send(let ticket)) in press("Enter") { return ticket }
        throw ValidationError("the selected endpoint did not send")
    }
}
