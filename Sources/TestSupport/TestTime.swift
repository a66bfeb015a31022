#if canImport(Glibc)
import Glibc
#endif

/// The wall-time bound of "at once" in tests: an error found at the head, a refused connection, a
/// retry that honoured `Retry-After: 0`, a shutdown that did not wait for a hung handler. Plain
/// `swift test` runs ~1,000 tests at once, on 2 cores perhaps beside other builds, so a thread can
/// wait seconds for its turn. What tells a test's cases apart is an error's kind or phase; this
/// bound only catches a wait for a long deadline (a minute or more) that the code must not reach.
package let atOnce: Duration = .seconds(45)

/// The CPU time the calling thread has used so far. Synchronous work measured with it (a parse, a
/// layout) costs the same on a busy machine as on a quiet one, unlike its wall time.
package func threadCPUTime() -> Duration {
    var now = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
    return .seconds(now.tv_sec) + .nanoseconds(now.tv_nsec)
}
