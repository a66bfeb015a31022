import Synchronization

/// A value shared between a test and its server handler (which must be `@Sendable`),
/// e.g. the current token of a token-refresh server or how many times an endpoint was hit.
package final class LockedValue<Value: Sendable>: Sendable {
    private let mutex: Mutex<Value>

    /// A box holding `initial`.
    package init(_ initial: Value) {
        mutex = Mutex(initial)
    }

    /// The current value.
    package var value: Value {
        get { mutex.withLock { $0 } }
        set { mutex.withLock { $0 = newValue } }
    }

    /// Reads and changes the value atomically, returning what `body` returns.
    package func withLock<Result: Sendable>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try mutex.withLock { try body(&$0) }
    }
}
