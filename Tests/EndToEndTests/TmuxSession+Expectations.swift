import Foundation
import TestSupport
import Testing

extension TmuxSession {
    /// Waits until the pane shows `text`; returns the screen, or records an issue with the last screen.
    @discardableResult
    func waitFor(_ text: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await expect(timeout: timeout, "'\(text)' did not appear", sourceLocation: sourceLocation) { $0.contains(text) }
    }

    /// Waits until the pane no longer shows `text`.
    @discardableResult
    func waitForAbsence(_ text: String, timeout: Duration = .seconds(60), sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        try await expect(timeout: timeout, "'\(text)' did not go away", sourceLocation: sourceLocation) { !$0.contains(text) }
    }

    /// Waits for `predicate`; once the program has ended without it, stops at once and ends the test
    /// with the whole pane, scrolled-off lines too (a crash's backtrace is longer than a screen).
    private func expect(
        timeout: Duration, _ failure: String, sourceLocation: SourceLocation, _ predicate: (String) -> Bool
    ) async throws -> String {
        let seen = try await waitUntil(timeout: timeout) { predicate($0) || TmuxSession.programEnded($0) }
        if let seen, predicate(seen) { return seen }
        guard let seen else {
            let screen = try await capture()
            Issue.record("\(failure) within \(timeout). Screen:\n\(screen)", sourceLocation: sourceLocation)
            return screen
        }
        let history = (try? await captureWithHistory()) ?? seen
        Issue.record("\(failure): the program ended. Its pane, with the lines above the screen:\n\(history)", sourceLocation: sourceLocation)
        throw ProgramEnded()
    }
}

/// Ends a test whose program ended before what it waited for: nothing more can appear.
struct ProgramEnded: Error, CustomStringConvertible {
    var description: String { "the program in the tmux pane ended" }
}
