import Testing
import TestSupport
import TestTraits

/// `sleepOffPool` is what test servers wait with between a drip's chunks and before a delayed
/// answer. (Not `Task.sleep`: with two spinning test cases beside `TimeoutTests`, a drip's 50 ms
/// sleep woke after 25 s, when they ended, and the client's read timeout fired.)
@Suite("Sleeping off the pool", .offPool)
struct SleepOffPoolTests {
    @Test func aSleepLastsAtLeastItsDuration() async throws {
        let clock = ContinuousClock()
        let elapsed = try await clock.measure { try await sleepOffPool(for: .milliseconds(50)) }
        #expect(elapsed >= .milliseconds(50))
    }

    @Test func aCancelledSleepThrowsCancellationError() async throws {
        let sleeper = Task { try await sleepOffPool(for: .seconds(3_600)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func aSleepCancelledWhileWaitingEndsAtOnce() async throws {
        let sleeper = Task { try await sleepOffPool(for: .seconds(3_600)) }
        try await sleepOffPool(for: .milliseconds(20))
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }

    @Test func anEnormousDurationDoesNotOverflow() async throws {
        let sleeper = Task { try await sleepOffPool(for: .seconds(Int64.max)) }
        sleeper.cancel()
        await #expect(throws: CancellationError.self) { try await sleeper.value }
    }
}
