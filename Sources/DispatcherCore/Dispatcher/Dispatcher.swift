import FoundationEssentials
import Synchronization

/// Sends targets through the whole pipeline: endpoint and request mapping, the interceptor,
/// plugins, the stub or the transport, the error filter, retries, the error-handler chain and the
/// result handlers (Moya's MoyaProvider, for async/await). See `Plugin` for the order of hooks.
public final class Dispatcher<T: TargetType>: Sendable {
    /// Turns a target into an endpoint for an environment (add headers, change the URL …).
    public typealias EndpointMapping = @Sendable (T, Environment) throws(DispatchError) -> Endpoint
    /// Turns an endpoint into the request to send.
    public typealias RequestMapping = @Sendable (Endpoint, RequestOptions) throws(DispatchError) -> Request
    /// Chooses the stub behaviour for a target when the request's options do not.
    public typealias StubBehaviorResolver = @Sendable (T, Environment) -> StubBehavior
    /// The body a `SampleResponse.echo` answers with, made from the request as it would be sent.
    public typealias EchoBody = @Sendable (Request) -> Data

    let currentEnvironment: Mutex<Environment>
    let transport: (any Transport)?
    let plugins: [any Plugin]
    let interceptor: any RequestInterceptor
    let errorFilter: ErrorFilter
    let errorHandlers: [any ErrorHandler]
    let resultHandlers: [any ResultHandler]
    let endpointMapping: EndpointMapping
    let requestMapping: RequestMapping
    let stubBehavior: StubBehaviorResolver
    let clock: DispatchClock
    let echo: EchoBody
    let inflights: InflightRegistry?

    /// Makes a dispatcher.
    /// - Parameters:
    ///   - environment: where requests go until changed.
    ///   - transport: sends live requests; nil when only stubs are used.
    ///   - plugins: hooks, run in this order.
    ///   - interceptor: adapt and retry (by default, the environment's retry policy).
    ///   - errorFilter: maps results into error kinds.
    ///   - errorHandlers: the chain, first resolution wins; may include a resumable handler.
    ///   - resultHandlers: see every finished exchange before the caller.
    ///   - endpointMapping: target → endpoint hook.
    ///   - requestMapping: endpoint → request hook.
    ///   - stubBehavior: stub behaviour per target; by default the environment's fixtures type.
    ///   - clock: sleeps for delayed stubs and backoff, and measures time.
    ///   - trackInflights: identical requests in flight share one response.
    ///   - echo: the body of an `.echo` sample (the catalog's sessions pass `HTTPEcho`'s); empty by default.
    public init(
        environment: Environment,
        transport: (any Transport)? = nil,
        plugins: [any Plugin] = [],
        interceptor: any RequestInterceptor = Interceptor(),
        errorFilter: ErrorFilter = ErrorFilter(),
        errorHandlers: [any ErrorHandler] = [],
        resultHandlers: [any ResultHandler] = [],
        endpointMapping: @escaping EndpointMapping = { target, environment throws(DispatchError) in
            try Endpoint.resolve(target, in: environment)
        },
        requestMapping: @escaping RequestMapping = { endpoint, options in Request.make(from: endpoint, options: options) },
        stubBehavior: @escaping StubBehaviorResolver = { _, environment in environment.fixtures },
        clock: DispatchClock = .continuous,
        trackInflights: Bool = false,
        echo: @escaping EchoBody = { _ in Data() }
    ) {
        currentEnvironment = Mutex(environment)
        self.transport = transport
        self.plugins = plugins
        self.interceptor = interceptor
        self.errorFilter = errorFilter
        self.errorHandlers = errorHandlers
        self.resultHandlers = resultHandlers
        self.endpointMapping = endpointMapping
        self.requestMapping = requestMapping
        self.stubBehavior = stubBehavior
        self.clock = clock
        self.echo = echo
        inflights = trackInflights ? InflightRegistry() : nil
    }

    /// The environment requests go to; changing it affects requests sent afterwards only.
    public var environment: Environment {
        get { currentEnvironment.withLock { $0 } }
        set { currentEnvironment.withLock { $0 = newValue } }
    }

    /// Sends a target and returns everything that happened. Never throws: failures are in the
    /// exchange's result. Cancelling the task cancels the request (`cancelled`).
    public func send(_ target: T, environment: Environment? = nil, options: RequestOptions = RequestOptions()) async -> Exchange {
        let environment = environment ?? self.environment
        let started = clock.now()
        let behavior = options.stubBehavior ?? stubBehavior(target, environment)
        let request: Request
        let endpoint: Endpoint
        do {
            endpoint = try endpointMapping(target, environment)
            request = try requestMapping(endpoint, options)
        } catch {
            return await finish(
                Exchange(
                    request: Request.placeholder(for: target, in: environment, options: options),
                    result: .failure(error), trace: [], environmentName: environment.name,
                    environmentType: environment.type, stubBehavior: behavior, attempts: 0, notes: []))
        }
        // Shared only when nothing is particular to one caller: no handler, no progress, no stream or file.
        guard let inflights, options.errorHandler == nil, options.progress == nil, !options.isStream, options.download == nil else {
            return await run(request, endpoint: endpoint, target: target, behavior: behavior, started: started, environment: environment)
        }
        let key = InflightRegistry.Key(request: request, behavior: behavior)
        let shared = await inflights.share(key) {
            await self.run(request, endpoint: endpoint, target: target, behavior: behavior, started: started, environment: environment)
        }
        if let shared { return shared }
        return await finish(
            Exchange(
                request: request, result: .failure(.cancelled), trace: [TraceEvent(at: clock.now() - started, kind: .cancelled)],
                environmentName: environment.name, environmentType: environment.type, stubBehavior: behavior,
                attempts: 0, notes: []))
    }

    /// Sends a target and returns its response, or throws the mapped error.
    public func request(_ target: T, environment: Environment? = nil, options: RequestOptions = RequestOptions()) async throws(DispatchError) -> Response {
        try await send(target, environment: environment, options: options).result.get()
    }
}

extension Request {
    /// Stands for a request that could not be built, so the exchange still says what was tried.
    static func placeholder(for target: some TargetType, in environment: Environment, options: RequestOptions) -> Request {
        Request(
            identifier: target.identifier, method: target.method, url: target.baseURL ?? environment.baseURL,
            headers: target.headers, settings: TransportSettings(environment: environment), options: options, attempt: 0)
    }
}
