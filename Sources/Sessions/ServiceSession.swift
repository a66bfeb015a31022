import Catalog
import DigestAuth
import DispatcherCore
import FoundationEssentials
import HTTPEcho
import JSONSupport
import Synchronization

/// One service in one environment, ready to send: the dispatcher with the catalog's error filter,
/// the auth refresh rule wired to its endpoint, the given plugins and transport. The TUI, the CLI
/// and tests all send catalog endpoints through this.
public final class ServiceSession: Sendable {
    /// The service.
    public let service: Service
    /// The environment as written in the catalog.
    public let environment: Environment
    /// Where secrets come from.
    public let secrets: SecretStore
    /// Holds the auth refresh rule's token (seeded from its secret, replaced by refreshes).
    package let credentials: CredentialStore
    /// Cookies its responses set, sent with its later requests (RFC 6265).
    package let cookies: CookieJar
    /// Renders endpoints into targets.
    package let builder: RequestBuilder
    /// The dispatcher every request of this session goes through.
    public let dispatcher: Dispatcher<Target>
    /// The refresh handler, when the service has an auth refresh rule.
    package let refreshHandler: TokenRefreshHandler?
    /// Every secret value this session has resolved or obtained (shared with other sessions and the
    /// logger when given at init): what `redactor` masks by value.
    package let secretRegistry: SecretRegistry
    /// The OAuth 2.0 token sessions, live and stub, when the service signs in with OAuth 2.0.
    let oauth2: OAuth2Sessions?
    /// What the catalog's handlers act on (endpoints' own handlers are made per request).
    let handlerContext: HandlerContext

    /// Makes a session.
    /// - Parameters:
    ///   - transport: sends live requests; nil for stub-only sessions.
    ///   - plugins: activity, logger … run in this order.
    ///   - errorHandlers: handlers after the token refresh handler.
    ///   - credentials: a store to share (e.g. kept across environment switches); a new one by default.
    ///   - secretRegistry: where resolved secret values are registered, to share with a logger made
    ///     before the session; a new one by default.
    ///   - onSignInPrompt: shows a sign-in that waits for the person (the OAuth 2.0 device flow's code).
    ///   - tokenPersistence: keeps live OAuth 2.0 tokens between runs when the catalog says `persist: true`.
    ///   - cookiePersistence: keeps the cookie jar between runs when the catalog says `cookies: { persist: true }`
    ///     (give it for live sessions only).
    package init(
        service: Service, environment: Environment, secrets: SecretStore = SecretStore(), transport: (any Transport)? = nil,
        plugins: [any Plugin] = [], errorHandlers: [any ErrorHandler] = [], resultHandlers: [any ResultHandler] = [],
        clock: DispatchClock = .continuous, credentials: CredentialStore? = nil, secretRegistry: SecretRegistry? = nil,
        cookies: CookieJar = PublicSuffixList.jar(), onSignInPrompt: (@Sendable (SignInPrompt) -> Void)? = nil,
        tokenPersistence: (any TokenPersistence)? = nil, cookiePersistence: (any CookiePersistence)? = nil
    ) {
        // An untrusted catalog gets no way to the network at all: not for its requests, its
        // refresh endpoint, its OAuth 2.0 sign-in or its WebSockets (`send` says why).
        let transport = service.isTrusted ? transport : nil
        let registry = secretRegistry ?? SecretRegistry()
        registry.register(ServiceSession.makeRedactor(service: service, environment: environment, secrets: secrets).secretValues)
        let rule = service.authRefresh
        let builder = RequestBuilder(service: service, environment: environment, secrets: secrets, deferredToken: rule?.into)
        let credentials = credentials ?? CredentialStore()
        if let rule, credentials.token == nil {
            credentials.token = secrets.value(rule.into, for: service) ?? service.secretDefaults[environment.name]?[rule.into]
        }
        if service.persistsCookies, let cookiePersistence {
            let key = EnvironmentKey(service, environment: environment.name)
            cookies.add(cookiePersistence.cookies(for: key))
            cookies.observe { cookiePersistence.keep($0, for: key) }
        }
        let reference = DispatcherReference()
        var handlers: [any ErrorHandler] = []
        var refreshHandler: TokenRefreshHandler?
        if let rule, let endpoint = service.endpoint(rule.endpoint) {
            let handler = TokenRefreshHandler(name: "token refresh (\(service.id)/\(rule.endpoint))", statuses: rule.statuses, kinds: rule.kinds, store: credentials) {
                try await ServiceSession.refresh(with: endpoint, rule: rule, builder: builder, reference: reference)
            }
            handlers.append(handler)
            refreshHandler = handler
        }
        let signOuts = SignOutLog()
        var adapters: [Interceptor.Adapter] = []
        if let rule { adapters.append(ServiceSession.tokenAdapter(for: rule.into, store: credentials, registry: registry)) }
        // `auth.digest`: a 401 Digest challenge is answered once and the request resumed.
        if let digest = service.digest, let username = builder.render(serviceText: digest.username),
            let password = builder.render(serviceText: digest.password)
        {
            registry.register([password])
            let authenticator = DigestAuthenticator(username: username, password: password)
            handlers.append(authenticator)
            adapters.append(authenticator.adapter)
        }
        // `auth.oauth2`: a token sent with every request, renewed on a 401.
        var oauth2: OAuth2Sessions?
        if let settings = service.oauth2,
            let sessions = ServiceSession.oauth2Sessions(
                settings, builder: builder, transport: transport, registry: registry,
                environment: EnvironmentKey(service, environment: environment.name), prompt: onSignInPrompt,
                persistence: tokenPersistence)
        {
            adapters.append(ServiceSession.oauth2Adapter(sessions, fixtures: environment.fixtures, registry: registry, signOuts: signOuts))
            handlers.append(ServiceSession.oauth2RefreshHandler(sessions, fixtures: environment.fixtures))
            oauth2 = sessions
        }
        // `handlers:` replaces the default chain (the refresh alone); the Digest answer stays first,
        // being part of the protocol. `results:` come after the caller's result handlers.
        let context = HandlerContext(
            service: service, environmentName: environment.name, credentials: credentials, cookies: cookies, refresh: refreshHandler,
            signOuts: signOuts)
        if let rules = service.handlers(in: environment.name) {
            handlers = handlers.filter { !($0 is TokenRefreshHandler) } + ServiceSession.errorHandlers(rules, context: context)
        }
        let results = resultHandlers + ServiceSession.resultHandlers(service.resultRules(in: environment.name), context: context)

        // Cookies set by responses go with later requests of this service, environment and mode.
        let dispatcher = Dispatcher<Target>(
            environment: environment, transport: transport, plugins: [CookiePlugin(jar: cookies, secrets: registry)] + plugins,
            interceptor: Interceptor(adapters: adapters),
            errorFilter: service.errorFilter, errorHandlers: handlers + errorHandlers, resultHandlers: results, clock: clock,
            trackInflights: environment.tracksInflights, echo: { RequestEcho.body(for: $0) })
        reference.set(dispatcher)

        self.service = service
        self.environment = environment
        self.secrets = secrets
        self.credentials = credentials
        self.cookies = cookies
        self.builder = builder
        self.dispatcher = dispatcher
        self.refreshHandler = refreshHandler
        self.secretRegistry = registry
        self.handlerContext = context
        self.oauth2 = oauth2
    }

    /// A redactor masking every secret this session can send or has sent: the catalog's and the
    /// `.env`'s, tokens (current and refreshed later), secrets typed, answered or captured.
    package var redactor: Redactor {
        if let token = credentials.token { secretRegistry.register(token) }
        return Redactor.standard.knowing(secretRegistry)
    }

    /// The redactor for a service in an environment, for plugins made before the session (a
    /// logger): masks every `.env` value and every secret the service can send. Tokens obtained
    /// later are masked by name (`Authorization`, `token` members and query items).
    package static func makeRedactor(service: Service, environment: Environment, secrets: SecretStore, base: Redactor = .standard) -> Redactor {
        let builder = RequestBuilder(service: service, environment: environment, secrets: secrets)
        // A password in the base URL (`http://ann:pw@host`) is a secret too, in clear and as sent (Basic).
        let inURL = URLCredentials(environment.baseURL)?.secretValues ?? []
        return secrets.redactor(masking: service.secretNames, for: service, base: base).adding(secretValues: builder.secretValues + inURL)
    }

    /// The rendered target and environment for an endpoint.
    package func prepare(_ endpoint: CatalogEndpoint, values: [String: String] = [:]) throws(UnresolvedPlaceholderError) -> PreparedRequest {
        try builder.prepare(endpoint, values: values)
    }

    /// Every placeholder a request for `endpoint` uses, with where its value comes from.
    package func variables(for endpoint: CatalogEndpoint, values: [String: String] = [:]) -> [ResolvedVariable] {
        builder.variables(for: endpoint, values: values)
    }

    /// Sends an endpoint of this service by id.
    public func send(_ endpointID: String, values: [String: String] = [:], options: RequestOptions = RequestOptions()) async -> Exchange {
        guard let endpoint = service.endpoint(endpointID) else {
            let names = service.endpoints.map(\.id)
            let hint = DidYouMean.hint(for: endpointID, among: names)
            return failedExchange(
                identifier: "\(service.id)/\(endpointID)", method: .get, options: options,
                error: .invalidRequest("\(service.id) has no endpoint '\(endpointID)'\(hint)"))
        }
        return await send(endpoint, values: values, options: options)
    }

    /// Sends an endpoint. Never throws: an unresolved placeholder (or edits that do not apply, such
    /// as a JSON body that does not parse) is an `invalidRequest` exchange that sent nothing. Stub or
    /// live is the caller's choice (`options.stubBehavior`, else the environment's fixtures type);
    /// an example's own delay applies in stub mode; a chosen example applies to stub mode only (a live
    /// send carries no `X-Mock-Example`). `edits` change the endpoint for this request only;
    /// `captured` are values taken from earlier responses.
    package func send(
        _ endpoint: CatalogEndpoint, values: [String: String] = [:], captured: [String: CapturedValue] = [:], edits: EndpointEdits? = nil,
        options: RequestOptions = RequestOptions()
    ) async -> Exchange {
        let original = endpoint
        var endpoint: CatalogEndpoint
        do throws(EditsError) {
            if let edits { endpoint = try original.applying(edits) } else { endpoint = original }
        } catch {
            return failedExchange(
                identifier: original.key.description, method: edits?.method ?? original.method, options: options,
                error: .invalidRequest("\(original.key): \(error.message)"))
        }
        var options = options
        if options.example == CatalogExample.defaultName { options.example = nil }
        var behavior = options.stubBehavior ?? environment.fixtures
        // A picked example is a fixture: it answers in stub mode only, and a live send carries none.
        if !behavior.isStubbed { options.example = nil }
        if behavior.isStubbed, let delay = endpoint.example(named: options.example)?.delay { behavior = .delayed(delay) }
        if behavior.isStubbed {
            // Fixture files a load left unread are read now: the stub's and the picked example's.
            switch endpoint.readingFixtures(for: options.example) {
            case .success(let read): endpoint = read
            case .failure(let problem):
                options.stubBehavior = behavior
                return failedExchange(
                    identifier: endpoint.key.description, method: endpoint.method, options: options,
                    error: .invalidRequest("\(endpoint.key): \(problem)"))
            }
        }
        options.stubBehavior = behavior
        if !endpoint.showsActivity { options.countsTowardsActivity = false }
        // Headers holding one of these never follow a redirect to another origin.
        options.secrets = secretRegistry
        // A WebSocket sent without a conversation (a replay, a check) opens and closes at once.
        if let settings = endpoint.webSocket, options.webSocket == nil {
            let probe = WebSocketConversation(subprotocols: settings.subprotocols)
            probe.close()
            options.webSocket = probe
        }
        // The endpoint's own handlers go first and stop the chain when they act (a caller's inline handler wins).
        if options.errorHandler == nil { options.errorHandler = ServiceSession.inlineHandler(for: endpoint, context: handlerContext) }

        // An untrusted catalog answers from its fixtures only: nothing of it goes over the network.
        if !service.isTrusted, !behavior.isStubbed {
            return failedExchange(
                identifier: endpoint.key.description, method: endpoint.method, options: options,
                error: .invalidRequest("\(endpoint.key): \(CatalogTrust.refusal(service, doing: "send requests over the network"))"))
        }
        var prepared: PreparedRequest
        do {
            prepared = try builder.prepare(endpoint, values: values, captured: captured, removingHeaders: edits?.removedHeaders ?? [])
        } catch {
            return failedExchange(identifier: endpoint.key.description, method: endpoint.method, options: options, error: error.dispatchError)
        }
        // Files are checked again as they are about to be read, their placeholders filled.
        switch service.confining(prepared.target.body, of: endpoint) {
        case .success(let body): prepared.target.body = body
        case .failure(let problem):
            return failedExchange(
                identifier: endpoint.key.description, method: endpoint.method, options: options,
                error: .invalidRequest("\(endpoint.key): \(problem.sentence)"))
        }
        if !behavior.isStubbed {
            switch service.confining(prepared.environment.trust) {
            case .success(let trust): prepared.environment.trust = trust
            case .failure(let problem):
                return failedExchange(
                    identifier: endpoint.key.description, method: endpoint.method, options: options,
                    error: .invalidRequest("\(endpoint.key): \(problem.sentence)"))
            }
        }
        // Registered before sending, so the logger masks them in the entries of this very request.
        secretRegistry.register(EndpointCall.secretValues(values: values, captured: captured, prompts: endpoint.declaredPrompts))
        let context = RefreshContext(stubBehavior: behavior, values: values)
        let exchange = await RefreshContext.$current.withValue(context) {
            await dispatcher.send(prepared.target, environment: prepared.environment, options: options)
        }
        // A secret the response delivers (a capture of a secret name or from a secret header or
        // member) is masked in that very response wherever it is shown or kept.
        if let response = exchange.response { secretRegistry.register(endpoint.secretCaptures(from: response)) }
        return exchange
    }

    private func failedExchange(identifier: String, method: HTTPMethod, options: RequestOptions, error: DispatchError) -> Exchange {
        let request = Request(
            identifier: identifier, method: method, url: environment.baseURL, settings: TransportSettings(environment: environment),
            options: options, attempt: 0)
        return Exchange(
            request: request, result: .failure(error), trace: [TraceEvent(at: .zero, kind: .errorMapped(kind: error.kind, source: error.source))],
            environmentName: environment.name, environmentType: environment.type, stubBehavior: options.stubBehavior ?? environment.fixtures,
            attempts: 0, notes: [])
    }
}

/// What the request that triggered a refresh was doing, so the refresh is sent the same way
/// (a stubbed 401 refreshes with the stubbed login, never over the network).
struct RefreshContext: Sendable {
    @TaskLocal static var current: RefreshContext?

    var stubBehavior: StubBehavior
    var values: [String: String]
}

/// The session's dispatcher, held weakly by the refresh closure the dispatcher itself owns.
final class DispatcherReference: Sendable {
    private struct Weak: @unchecked Sendable {
        weak var dispatcher: Dispatcher<Target>?
    }

    private let state = Mutex(Weak())

    func set(_ dispatcher: Dispatcher<Target>) {
        state.withLock { $0.dispatcher = dispatcher }
    }

    var dispatcher: Dispatcher<Target>? {
        state.withLock { $0.dispatcher }
    }
}
