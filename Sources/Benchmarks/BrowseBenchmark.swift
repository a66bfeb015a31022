import ArgumentParser
import Catalog
import ExplorerApp
import Foundation
import TerminalKit

/// `apiexplorer-bench browse`: a key in the endpoint tree, the `/` filter and the finder over a
/// catalog of many endpoints, from the key to the frame (the reducer plus `AppView.render` of the
/// whole screen at 120×40, as the runtime does per frame). Aim: ≤ 16 ms a key at 10,000 endpoints.
struct BrowseBenchmark: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse", abstract: "Key to frame in the endpoint tree, the / filter and the finder over many endpoints.")

    @Option(help: "Endpoints in the catalog (in groups of 100).")
    var endpoints = 10_000

    @Option(help: "Keys timed per measure.")
    var frames = 50

    func run() throws {
        warnIfDebugBuild()
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["big.yaml": Self.catalog(endpoints)]), source: .bundled)
        guard let service = catalog.services.first, service.endpoints.count == endpoints else {
            throw ValidationError("the generated catalog did not load: \(catalog.diagnostics.prefix(3))")
        }
        let base = AppState(catalog: catalog, size: Size(width: 120, height: 40))
        print("\(endpoints) endpoints in \(endpoints / 100) groups, 120x40, \(frames) keys each")
        print("  key                                   median / max ms (reducer + full-screen render)")
        report("tree: j (groups folded)", measure(["j"], state: base))
        var unfolded = base
        for _ in 0..<5 { _ = press("+ j", &unfolded) }
        report("tree: j / k (some unfolded)", measure(["j", "k"], state: unfolded))
        report("tree: - / + on a group", measure(["+", "-"], state: base))
        var filtering = base
        _ = press("/", &filtering)
        report("/ filter: typing (a, then Backspace)", measure(["a", "Backspace"], state: filtering))
        _ = press("u s e r", &filtering)
        report("/ filter 'user': typing s, Backspace", measure(["s", "Backspace"], state: filtering))
        var finder = base
        _ = press("C-p", &finder)
        report("finder: typing (a, then Backspace)", measure(["a", "Backspace"], state: finder))
        _ = press("c o m m e n t", &finder)
        report("finder 'comment': typing s, Backspace", measure(["s", "Backspace"], state: finder))
        report("finder: j / k in the results", measure(["Down", "Up"], state: finder))
    }

    /// A service of `count` endpoints in groups of 100, with paths and titles of GitHub's shape.
    static func catalog(_ count: Int) -> String {
        var text = "service: big\nenvironments:\n  local:\n    baseURL: http://127.0.0.1:9\ngroups:\n"
        let nouns = ["repos", "issues", "users", "orgs", "teams", "gists", "pulls", "actions", "checks", "packages"]
        for index in stride(from: 0, to: count, by: 100) {
            for noun in nouns { text += "  \(noun)\(index / 100): {}\n" }
        }
        text += "endpoints:\n"
        for index in 0..<count {
            let noun = nouns[index % nouns.count]
            text += """
                  \(noun)Op\(index):
                    title: List \(noun) comments number \(index)
                    group: \(noun)\(index / 100)
                    path: /\(noun)/{{owner}}/{{repo}}/comments/\(index)

                """
        }
        return text
    }

    private func press(_ keys: String, _ state: inout AppState) -> [AppEffect] {
        ((try? KeyEvent.parseSequence(keys)) ?? []).flatMap { AppReducer.reduce(&state, .terminal(.key($0))) }
    }

    private func measure(_ keys: [String], state: AppState) -> FrameStats {
        var state = state
        let events = keys.compactMap { KeyEvent($0) }
        var samples: [Double] = []
        for index in 0..<frames {
            let begin = ContinuousClock.now
            _ = AppReducer.reduce(&state, .terminal(.key(events[index % events.count])))
            _ = AppView.render(state)
            let elapsed = ContinuousClock.now - begin
            samples.append(Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return FrameStats(samples)
    }

    private func report(_ label: String, _ stats: FrameStats) {
        print("  " + label.padding(toLength: 38, withPad: " ", startingAt: 0) + stats.text)
    }
}
