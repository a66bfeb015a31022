import Synchronization
import SystemSupport
import TextSupport
import TestRunner

/// `[3/12] 2 passed, 1 failed  shop/getPet`, rewritten in place on standard error while tests run
/// (only on a terminal: a CI log gets the table at the end).
final class TestProgress: Sendable {
    private struct State {
        var done = 0
        var passed = 0
        var failed = 0
        var errored = 0
        var skipped = 0
    }

    private let total: Int
    private let shown: Bool
    private let state = Mutex(State())

    init(total: Int, shown: Bool) {
        self.total = total
        self.shown = shown
    }

    func finished(_ result: TestResult) {
        let line = state.withLock { state in
            state.done += 1
            switch result.status {
            case .passed: state.passed += 1
            case .failed: state.failed += 1
            case .errored: state.errored += 1
            case .skipped: state.skipped += 1
            }
            var counts = ["\(state.passed) passed"]
            if state.failed > 0 { counts.append("\(state.failed) failed") }
            if state.errored > 0 { counts.append("\(state.errored) errors") }
            if state.skipped > 0 { counts.append("\(state.skipped) skipped") }
            return "[\(state.done)/\(total)] \(counts.joined(separator: ", "))  \(result.testCase.id)"
        }
        guard shown else { return }
        Console.progress(line)
    }

    /// Clears the line.
    func end() {
        guard shown else { return }
        Console.progress("")
    }
}

extension Console {
    /// Rewrites the current line of standard error (a terminal's), the text cleaned of control characters.
    static func progress(_ line: String) {
        StandardStreams.writeError("\r\u{1B}[K" + TerminalText.cleaned(line))
    }
}
