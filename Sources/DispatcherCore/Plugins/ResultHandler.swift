/// Sees every result before the caller and may act on it. Returns notes saying what it did, which
/// the trace and the Errors tab show.
public protocol ResultHandler: Sendable {
    /// Acts on a finished exchange; returns what it did, if anything.
    func handle(_ exchange: Exchange) async -> [String]
}

/// Signs out when the final result says the session is over: clears the stored credential and
/// calls `onSignOut` so the UI can say so.
public struct SessionExpiryHandler: ResultHandler {
    /// Error kinds that mean the session ended.
    public var kinds: Set<ErrorKind>
    /// The credential to clear.
    public var store: CredentialStore
    /// Called after signing out.
    public var onSignOut: @Sendable () -> Void

    /// Makes the handler.
    public init(kinds: Set<ErrorKind> = [.unauthorized], store: CredentialStore, onSignOut: @escaping @Sendable () -> Void = {}) {
        self.kinds = kinds
        self.store = store
        self.onSignOut = onSignOut
    }

    public func handle(_ exchange: Exchange) async -> [String] {
        guard let error = exchange.error, kinds.contains(error.kind), store.token != nil else { return [] }
        store.clear()
        onSignOut()
        return ["session expired: signed out"]
    }
}
