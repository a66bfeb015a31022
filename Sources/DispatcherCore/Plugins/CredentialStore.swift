import Synchronization

/// Holds the current access token where plugins and handlers share it.
public final class CredentialStore: Sendable {
    private let state: Mutex<String?>

    /// Makes a store, optionally with a token.
    public init(token: String? = nil) { state = Mutex(token) }

    /// The current token.
    public var token: String? {
        get { state.withLock { $0 } }
        set { state.withLock { $0 = newValue } }
    }

    /// Forgets the token (signs out).
    public func clear() { token = nil }
}
