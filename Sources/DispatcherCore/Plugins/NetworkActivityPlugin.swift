import Synchronization

/// Reports requests starting and ending (what a spinner needs). Its count of requests in flight
/// never goes negative and returns to 0 after every request, failed and cancelled ones included.
/// Requests whose options say they do not count are ignored.
public final class NetworkActivityPlugin: Plugin {
    /// Whether a request began or ended.
    public enum Change: Sendable, Hashable {
        case began, ended
    }

    private let count = Mutex(0)
    private let onChange: @Sendable (Change, _ inFlight: Int) -> Void

    /// Makes the plugin; `onChange` is called on every change with the new count.
    public init(onChange: @escaping @Sendable (Change, _ inFlight: Int) -> Void = { _, _ in }) {
        self.onChange = onChange
    }

    /// Requests in flight now.
    public var inFlight: Int { count.withLock { $0 } }

    public func willSend(_ request: Request, target: any TargetType) {
        guard request.options.countsTowardsActivity else { return }
        let now = count.withLock { count in
            count += 1
            return count
        }
        onChange(.began, now)
    }

    public func didReceive(_ result: Result<Response, DispatchError>, request: Request, target: any TargetType) {
        guard request.options.countsTowardsActivity else { return }
        let now = count.withLock { count in
            count = max(0, count - 1)
            return count
        }
        onChange(.ended, now)
    }
}
