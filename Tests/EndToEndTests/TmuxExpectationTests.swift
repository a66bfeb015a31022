import TestSupport
import Testing

extension EndToEnd {
    /// The harness itself: a wait for a program that has already ended (a crash) stops at once and
    /// shows what scrolled off the screen, where a backtrace starts.
    @Suite struct TmuxExpectationTests {
        @Test func aWaitStopsWhenTheProgramHasEndedAndShowsItsWholePane() async throws {
            let session = try TmuxSession(command: "(seq -f 'line %g' 1 100; exit 3)", width: 80, height: 24)
            defer { session.close() }
            let clock = ContinuousClock()
            let started = clock.now
            try await withKnownIssue {
                try await session.waitFor("never shown", timeout: .seconds(600))
            } matching: { issue in
                let text = String(describing: issue)
                return text.contains("the program ended") && text.contains("line 1\n") && text.contains("EXIT=3")
                    || issue.error is ProgramEnded
            }
            // Not the 600 s of the timeout: the end was seen on the first screens after it.
            #expect(clock.now - started < .seconds(120))
        }

        @Test func aProgramThatLeftTheTerminalRawHasEndedToo() {
            #expect(TmuxSession.programEnded("crash\n          EXIT=139\n                STTY: speed 38400 baud; rows 40"))
            #expect(!TmuxSession.programEnded("a screen that mentions STTY: speed in passing"))
        }

        @Test func aWaitForTheExitStatusStillSeesIt() async throws {
            let session = try TmuxSession(command: "true", width: 80, height: 24)
            defer { session.close() }
            let screen = try await session.waitFor("EXIT=0")
            #expect(screen.contains("EXIT=0"))
        }
    }
}
