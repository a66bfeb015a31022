import Synchronization

/// A clock that advances a fixed step each time it is read and jumps over sleeps after waiting for
/// them for real. Stub timings come out the same on every run, so screenshots and snapshot output
/// are reproducible; delayed fixtures still take their time.
public struct SteppingClock: Clock, Sendable {
    public typealias Duration = Swift.Duration

    /// An instant on this clock.
    public struct Instant: InstantProtocol, Sendable {
        /// Time since the clock was made.
        public var offset: Swift.Duration

        public func advanced(by duration: Swift.Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Swift.Duration { other.offset - offset }
        public static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    private final class Storage: Sendable {
        let elapsed = Mutex<Swift.Duration>(.zero)
    }

    private let storage = Storage()
    private let step: Swift.Duration

    /// Makes a clock that moves `step` forward on every read.
    public init(step: Swift.Duration = .microseconds(700)) {
        self.step = step
    }

    public var now: Instant {
        storage.elapsed.withLock { elapsed in
            elapsed += step
            return Instant(offset: elapsed)
        }
    }

    public var minimumResolution: Swift.Duration { .nanoseconds(1) }

    public func sleep(until deadline: Instant, tolerance: Swift.Duration?) async throws {
        let current = storage.elapsed.withLock { $0 }
        let remaining = deadline.offset - current
        if remaining > .zero { try await Task.sleep(for: remaining) }
        storage.elapsed.withLock { $0 = max($0, deadline.offset) }
    }
}
