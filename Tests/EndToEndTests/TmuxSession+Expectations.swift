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

    private func expect(
        timeout: Duration, _ failure: String, sourceLocation: SourceLocation, _ predicate: (String) -> Bool
    ) async throws -> String {
        if let screen = try await waitUntil(timeout: timeout, predicate) { return screen }
        let screen = try await capture()
        Issue.record("\(failure) within \(timeout). Screen:\n\(screen)", sourceLocation: sourceLocation)
        return screen
    }
}
