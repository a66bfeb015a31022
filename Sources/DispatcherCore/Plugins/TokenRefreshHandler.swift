import Synchronization

/// The resumable handler: on an authentication error it refreshes the token once and resumes the
/// original request. Concurrent failures share one refresh; a request that failed with a token
/// that has since been replaced resumes without refreshing again (and only then does its trace say
/// so: a request that carried no token we know of gets a refresh of its own).
public final class TokenRefreshHandler: ErrorHandler {
    public let name: String
    private let kinds: Set<ErrorKind>
    private let statuses: Set<Int>
    private let store: CredentialStore
    private let refresh: @Sendable () async throws -> String
    private let inFlight = Mutex<Task<String, any Error>?>(nil)
    private let refreshes = Atomic<Int>(0)

    /// Makes the handler.
    /// - Parameters:
    ///   - statuses: statuses that trigger a refresh (default 401).
    ///   - kinds: error kinds that trigger a refresh (e.g. a catalog's `expiredUserSession`).
    ///   - store: where the new token is put; a request that carries a token the store has since
    ///     replaced (in a header or the URL) was sent with an older one and resumes without a refresh.
    ///   - refresh: gets a new token (typically by sending the catalog's login endpoint).
    public init(
        name: String = "token refresh", statuses: Set<Int> = [401], kinds: Set<ErrorKind> = [],
        store: CredentialStore, refresh: @escaping @Sendable () async throws -> String
    ) {
        self.name = name
        self.statuses = statuses
        self.kinds = kinds
        self.store = store
        self.refresh = refresh
    }

    /// How many refreshes ran.
    public var refreshCount: Int { refreshes.load(ordering: .relaxed) }

    public func handle(_ error: DispatchError, request: Request) async -> ErrorResolution? {
        let triggered = error.status.map(statuses.contains) ?? false || kinds.contains(error.kind)
        // Refreshed once for this request already: another refresh would not be used (resuming is once only).
        guard triggered, !request.options.isResumed else { return nil }
        if let current = store.token, !TokenRefreshHandler.request(request, carries: current),
            store.replacedTokens.contains(where: { TokenRefreshHandler.request(request, carries: $0) })
        {
            return .resume(note: "the token was refreshed meanwhile; resuming")
        }
        let task = inFlight.withLock { task -> Task<String, any Error> in
            if let task { return task }
            let refresh = self.refresh
            let newTask = Task { try await refresh() }
            task = newTask
            return newTask
        }
        do {
            let token = try await task.value
            finish(task, token: token)
            return .resume(note: "refreshed the token; resuming")
        } catch {
            finish(task, token: nil)
            var failed = error as? DispatchError ?? DispatchError(kind: .unauthorized, message: "\(error)", source: name)
            failed.message = "Could not refresh the token: \(failed.message)"
            return .failed(failed, note: "token refresh failed")
        }
    }

    /// Whether the token appears in any header value or in the URL.
    static func request(_ request: Request, carries token: String) -> Bool {
        request.headers.contains { $0.value.contains(token) } || request.url.absoluteString.contains(token)
    }

    /// Stores the result once per refresh and lets the next failure start a new one.
    private func finish(_ task: Task<String, any Error>, token: String?) {
        inFlight.withLock { current in
            guard let running = current, running == task else { return }
            current = nil
            refreshes.add(1, ordering: .relaxed)
            if let token { store.token = token }
        }
    }
}
