import Synchronization

/// Holds the current access token where plugins and handlers share it, and the few it replaced
/// last: a request that failed with one of those was sent before a refresh, so resuming it is
/// enough, while one that carries no token we know of needs a refresh of its own.
public final class CredentialStore: Sendable {
    private struct State {
        var token: String?
        var replaced: [String] = []
    }

    /// How many replaced tokens are remembered (requests in flight across more refreshes than
    /// this are rare, and refreshing once more for them is harmless).
    private static let replacedKept = 8
    private let state: Mutex<State>

    /// Makes a store, optionally with a token.
    public init(token: String? = nil) { state = Mutex(State(token: token)) }

    /// The current token.
    public var token: String? {
        get { state.withLock { $0.token } }
        set {
            state.withLock { state in
                if let old = state.token, !old.isEmpty, old != newValue {
                    state.replaced.removeAll { $0 == old }
                    state.replaced.append(old)
                    if state.replaced.count > Self.replacedKept { state.replaced.removeFirst() }
                }
                state.token = newValue
            }
        }
    }

    /// Tokens this store held before the current one, oldest first.
    package var replacedTokens: [String] { state.withLock { $0.replaced } }

    /// Forgets the token (signs out).
    public func clear() { token = nil }
}
