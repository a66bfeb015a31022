/// The clock the dispatcher sleeps and measures with: the continuous clock in use, a manual
/// clock in tests so delayed stubs and backoff take no real time.
public struct DispatchClock: Sendable {
    private let sleepFor: @Sendable (Duration) async throws -> Void
    private let elapsed: @Sendable () -> Duration

    /// Wraps any clock that measures in `Duration`.
    public init<C: Clock>(_ clock: C) where C.Duration == Duration, C: Sendable {
        let origin = clock.now
        sleepFor = { duration in try await clock.sleep(until: clock.now.advanced(by: duration), tolerance: nil) }
        elapsed = { origin.duration(to: clock.now) }
    }

    /// The continuous clock.
    public static let continuous = DispatchClock(ContinuousClock())

    /// Suspends for `duration`; throws `CancellationError` when the task is cancelled.
    public func sleep(for duration: Duration) async throws {
        try await sleepFor(duration)
    }

    /// Time since the clock was wrapped: subtract two readings for an interval.
    public func now() -> Duration { elapsed() }
}
