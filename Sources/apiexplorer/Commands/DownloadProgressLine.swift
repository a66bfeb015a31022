import DispatcherCore
import Synchronization

/// `↓ 12 MB of 100 MB (12%) · 4.5 MB/s`, rewritten in place on standard error while `call -o FILE`
/// downloads, as curl's meter is: only when standard error is a terminal and the output is not
/// `--json` (a pipe or a log never gets it). The first report shows at once, then at most one a
/// tenth of a second; the line is cleared when the download ends, before `Saved …`.
final class DownloadProgressLine: Sendable {
    private struct State {
        var progress: TransferProgress?
        var shownAt: Duration?
    }

    private let clock: DispatchClock
    private let write: @Sendable (String) -> Void
    private let state = Mutex(State())
    static let interval: Duration = .milliseconds(100)

    /// `write` rewrites the line (`Console.progress` on a terminal).
    init(clock: DispatchClock = .continuous, write: @escaping @Sendable (String) -> Void = { Console.progress($0) }) {
        self.clock = clock
        self.write = write
    }

    /// The line for `call`, or nil when it must not show.
    static func forCall(downloading: Bool, json: Bool, errorIsTerminal: Bool = Console.errorIsTerminal) -> DownloadProgressLine? {
        downloading && !json && errorIsTerminal ? DownloadProgressLine() : nil
    }

    /// A transport's progress report (`RequestOptions.progress`).
    func report(received: Int, expected: Int?) {
        let now = clock.now()
        let line: String? = state.withLock { state in
            if state.progress == nil {
                state.progress = TransferProgress(received: received, expected: expected, at: now)
            } else {
                state.progress?.update(received: received, expected: expected, at: now)
            }
            if let shown = state.shownAt, now - shown < Self.interval { return nil }
            state.shownAt = now
            return state.progress?.text
        }
        if let line { write(line) }
    }

    /// Clears the line, when one was shown.
    func end() {
        let shown = state.withLock { $0.shownAt != nil }
        if shown { write("") }
    }
}
