import Foundation
import Synchronization
import TestSupport
import Testing
import TestTraits

/// `test --jobs N` means N requests in flight (issue 49, item 2): 50 tests with `--jobs 50` against
/// one server reach it together. The server holds every request until all 50 are there, so the
/// run passes only if they were in flight at once (no wall-time window to judge by); with 8
/// connections per host, 42 of them waited and failed as "connect timeouts".
@Suite(.offPool) struct TestJobsTests {
    final class Gate: Sendable {
        let state = Mutex((inFlight: 0, most: 0, arrived: 0))
        let count: Int
        init(count: Int) { self.count = count }

        func hold() async -> TestResponse {
            state.withLock { state in
                state.inFlight += 1
                state.arrived += 1
                state.most = max(state.most, state.inFlight)
            }
            // Until all have arrived (or long after a run that cannot bring them together has failed).
            let deadline = ContinuousClock.now + .seconds(90)
            while state.withLock({ $0.arrived }) < count, ContinuousClock.now < deadline, !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(5))
            }
            state.withLock { $0.inFlight -= 1 }
            return .json(#"{"ok":true}"#)
        }
    }

    @Test func fiftyJobsAreFiftyRequestsInFlight() async throws {
        let count = 50
        let gate = Gate(count: count)
        try await withTestHTTPServer(handler: { _ in await gate.hold() }) { server in
            let folder = try TemporaryDirectory()
            let endpoints = (1...count).map { "  e\($0): { path: /e/\($0), expect: { status: 200 } }" }.joined(separator: "\n")
            try folder.write("j.yaml", """
                service: j
                environments:
                  local:
                    baseURL: \(server.baseURL.absoluteString)
                    fixtures: never
                    retry: none
                    timeouts: { connect: 120s, read: 120s }
                endpoints:
                \(endpoints)
                """)
            let state = try TemporaryDirectory()
            let run = try await CLI.run(["test", "j", "--live", "--jobs", "\(count)", "--catalog", folder.path], state: state)
            #expect(run.status == 0, "\(run.output)\n\(run.errors)")
            #expect(run.output.contains("\(count) tests: \(count) passed, 0 failed, 0 errors, 0 skipped"), "\(run.output)")
            #expect(gate.state.withLock { $0.most } == count, "the server saw at most \(gate.state.withLock { $0.most }) at once")
            #expect(server.connectionCount == count)
        }
    }
}
