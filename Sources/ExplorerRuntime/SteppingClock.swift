import Synchronization

/// A clock that advances a fixed step each time it is read and jumps over sleeps after waiting for
/// them for real. Stub timings come out the same on every run, so screenshots and snapshot output
/// are reproducible; delayed fixtures still take their time.
package struct SteppingClock: Clock, Sendable {
    package typealias Duration = Swift.Duration

    /// An instant on this clock.
    package struct Instant: InstantProtocol, Sendable {
        /// Time since the clock was made.
        package var offset: Swift.Duration

        package func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private final class Storage: Sendable {
        let elapsed = Mutex<Swift.Duration>(.zero)
    }

    private let storage = Storage()
    private let step: Swift.Duration

    /// Makes a clock that moves `step` forward on every read.
    package init(step: Swift.Duration = .microseconds(700)) {
        self.step = step
    }

    package var now: Instant {
        storage.elapsed.withLock { elapsed in
            elapsed += step
            return Instant(offset: elapsed)
        }
    }

    package var minimumResolution: Swift.Duration { .nanoseconds(1) }

    package func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        let current = storage.elapsed.withLock { $0 }
        let remaining = deadline.offset - current
        if remaining > .zero { try await Task.sleep(for: remaining) }
        storage.elapsed.withLock { $0 = max($0, deadline.offset) }
    }
}
