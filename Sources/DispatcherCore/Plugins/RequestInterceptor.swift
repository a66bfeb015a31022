/// Changes requests before they are sent and decides whether failures are retried (Alamofire's
/// RequestInterceptor).
public protocol RequestInterceptor: Sendable {
    /// Changes the request before each attempt; a thrown error ends the request without sending.
    func adapt(_ request: Request) async throws(DispatchError) -> Request
    /// Whether to try again after `attempt` attempts failed with `error`.
    func retry(_ request: Request, dueTo error: DispatchError, attempt: Int) async -> RetryDecision
}

extension RequestInterceptor {
    public func adapt(_ request: Request) async throws(DispatchError) -> Request { request }
    public func retry(_ request: Request, dueTo error: DispatchError, attempt: Int) async -> RetryDecision {
        .doNotRetry
    }
}

/// The default interceptor: runs adapters in order and retries by the request's retry policy
/// (the environment's), or by `policy` when one is given.
public struct Interceptor: RequestInterceptor {
    /// One adapt step with a name for header origins.
    public struct Adapter: Sendable {
        /// Shown as the origin of headers it sets.
        public var name: String
        /// Changes the request in place (each adapter returning a new one would copy it).
        public var adapt: @Sendable (inout Request) async throws(DispatchError) -> Void

        /// Makes an adapter.
        public init(name: String, adapt: @escaping @Sendable (inout Request) async throws(DispatchError) -> Void) {
            self.name = name
            self.adapt = adapt
        }

        /// An adapter that sets one header (origin `interceptor NAME`).
        public static func header(_ header: String, _ value: String, name: String) -> Adapter {
            Adapter(name: name) { request in
                request.headers.set(header, value, origin: .interceptor(name))
            }
        }
    }

    /// Adapt steps, in order.
    public var adapters: [Adapter]
    /// A policy that overrides the request's own.
    public var policy: RetryPolicy?

    /// Makes an interceptor.
    public init(adapters: [Adapter] = [], policy: RetryPolicy? = nil) {
        self.adapters = adapters
        self.policy = policy
    }

    public func adapt(_ request: Request) async throws(DispatchError) -> Request {
        var request = request
        for adapter in adapters { try await adapter.adapt(&request) }
        return request
    }

    public func retry(_ request: Request, dueTo error: DispatchError, attempt: Int) async -> RetryDecision {
        guard let policy = policy ?? request.settings.retry else { return .doNotRetry }
        return policy.decision(for: request, error: error, attempt: attempt)
    }
}
