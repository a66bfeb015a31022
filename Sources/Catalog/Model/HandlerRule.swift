import DispatcherCore

/// One link of a catalog's error-handler chain (`handlers:`), result handlers (`results:`) or an
/// endpoint's own handlers, which run before the chain and stop it when they act.
package struct HandlerRule: Sendable, Hashable {
    /// Which errors the rule takes.
    package enum Matcher: Sendable, Hashable {
        /// Responses whose status matches.
        case statuses(ErrorRule.StatusMatch)
        /// Errors of these kinds (built-in or custom names).
        case kinds(Set<String>)
        /// Transport failures with these codes.
        case transport(Set<TransportError.Code>)
        /// Every error: a fallback, last in a chain.
        case any
        /// `auth.refresh.on` (for `refresh`, which takes its triggers from there).
        case refreshTriggers

        /// Whether the rule takes `error`.
        package func matches(_ error: DispatchError) -> Bool {
            switch self {
            case .statuses(let match): error.status.map(match.matches) ?? false
            case .kinds(let names): names.contains(error.kind.name)
            case .transport(let codes): error.transportError.map { codes.contains($0.code) } ?? false
            case .any, .refreshTriggers: true
            }
        }
    }

    /// What the rule does.
    package enum Action: Sendable, Hashable {
        /// Refresh the token (`auth.refresh`) and resume the request once.
        case refresh
        /// Forget the environment's credentials and cookies; the error stands and says so.
        case signOut
        /// Send the request again up to `limit` times, after the server's Retry-After or `backoff`
        /// times the attempt.
        case retry(limit: Int, backoff: Duration)
        /// The error stands with this message.
        case message(String)
        /// Treat the error as a success answered by the endpoint's named example (offline flows).
        case recover(example: String)

        /// Its name in catalogs.
        package var name: String {
            switch self {
            case .refresh: "refresh"
            case .signOut: "signOut"
            case .retry: "retry"
            case .message: "message"
            case .recover: "recover"
            }
        }

        /// Every action's name, for diagnostics.
        package static let names = ["refresh", "signOut", "retry", "message", "recover"]
    }

    /// Which errors it takes.
    package var matcher: Matcher
    /// What it does.
    package var action: Action
    /// How the trace and the Errors tab name it: `retry on 429 (shop.yaml:12)`.
    package var name: String

    /// Makes a rule.
    package init(matcher: Matcher, action: Action, name: String) {
        self.matcher = matcher
        self.action = action
        self.name = name
    }
}
