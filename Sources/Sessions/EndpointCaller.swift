import Catalog
import FoundationEssentials
import DispatcherCore

/// Sends catalog endpoints the way `apiexplorer call` does: one `ServiceSession` per request,
/// stub or live, secrets from the catalog's `.env` and the process environment.
public struct EndpointCaller: Sendable {
    /// The catalogs.
    public let catalog: CatalogSet
    /// Where `{{secret.NAME}}` values come from.
    public let secrets: SecretStore
    /// Sends live requests; nil when only stubs are wanted.
    public let transport: (any Transport)?
    /// Shows a sign-in that waits for the person (the OAuth 2.0 device flow's code and URL).
    public let onSignInPrompt: (@Sendable (SignInPrompt) -> Void)?
    /// Keeps live OAuth 2.0 tokens between runs (`persist: true`).
    public let tokens: (any TokenPersistence)?
    /// Keeps live cookie jars between runs (`cookies: { persist: true }`), shared with the explorer.
    public let cookies: (any CookiePersistence)?
    /// Cookies added to every session's jar before it sends (`call -b cookies.txt`).
    public let startingCookies: [Cookie]

    /// Makes a caller; `secrets` default to the catalog folder's `.env` and the process environment.
    public init(
        catalog: CatalogSet, secrets: SecretStore? = nil, transport: (any Transport)?, onSignInPrompt: (@Sendable (SignInPrompt) -> Void)? = nil,
        tokens: (any TokenPersistence)? = nil, cookies: (any CookiePersistence)? = nil, startingCookies: [Cookie] = []
    ) {
        self.tokens = tokens
        self.cookies = cookies
        self.startingCookies = startingCookies
        self.catalog = catalog
        self.secrets = secrets ?? SecretStore.load(for: catalog.source)
        self.transport = transport
        self.onSignInPrompt = onSignInPrompt
    }

    /// The mode a request takes when none is asked for: the environment's (live when its fixtures are `never`).
    public static func defaultMode(of environment: Environment) -> RequestMode {
        environment.fixtures.isStubbed ? .stub : .live
    }

    /// A session for the selection's service and environment.
    public func session(for selection: EndpointSelection, mode: RequestMode = .stub) -> ServiceSession {
        let session = ServiceSession(
            service: selection.service, environment: selection.environment, secrets: secrets, transport: transport, onSignInPrompt: onSignInPrompt,
            tokenPersistence: tokens, cookiePersistence: mode == .live ? cookies : nil)
        session.cookies.add(startingCookies)
        return session
    }

    /// Sends the selection's endpoint. Stub mode answers at once (an example's own delay still
    /// applies); live mode without a transport fails as an invalid request (the dispatcher's).
    ///
    /// `onResponsePart` sees the response as it arrives (with the session's redactor, which knows
    /// every secret it resolved), to print a stream before it ends; `download` sends a successful
    /// body to a file instead of memory; `webSocket` carries the conversation of a WebSocket endpoint;
    /// `onStatusLine` hears each status line as received (`--include`, before its head is printed);
    /// `streamedBodyKept` lets a successful body `onResponsePart` takes pass without being held
    /// (`RequestOptions.streamedBodyKept`); `progress` hears how far the response body is
    /// (`RequestOptions.progress`).
    package func call(
        _ selection: EndpointSelection, mode: RequestMode? = nil, example: String? = nil, values: [String: String] = [:],
        captured: [String: CapturedValue] = [:], edits: EndpointEdits? = nil,
        onResponsePart: (@Sendable (ResponsePart, Redactor) -> Bool)? = nil,
        onStatusLine: (@Sendable (_ httpVersion: String, _ statusLine: String) -> Void)? = nil, streamedBodyKept: Int? = nil,
        download: DownloadDestination? = nil, webSocket: WebSocketConversation? = nil,
        progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)? = nil
    ) async -> CallOutcome {
        var call = selection.call(mode: mode ?? Self.defaultMode(of: selection.environment), example: example, values: values, edits: edits)
        call.captured = captured
        let session = session(for: selection, mode: call.mode)
        var options = call.options
        options.isStream = selection.endpoint.stream != nil
        options.download = download
        options.streamedBodyKept = streamedBodyKept
        options.webSocket = webSocket
        if let progress { options.progress = progress }
        if let onResponsePart { options.onResponsePart = { part in onResponsePart(part, session.redactor) } }
        options.onStatusLine = onStatusLine
        let exchange = await session.send(selection.endpoint, values: values, captured: call.captured, edits: call.edits, options: options)
        // The session registered typed secrets, secret answers and secret-looking captured values as it sent.
        var outcome = CallOutcome(call: call, exchange: exchange, redactor: session.redactor)
        outcome.cookies = session.cookies.all(at: Date())
        return outcome
    }

    /// Sends a call again (a history entry's, say).
    package func replay(_ call: EndpointCall) async throws(CatalogLookupError) -> CallOutcome {
        let selection = try EndpointSelection.resolve(call.endpoint, environment: call.environment, in: catalog)
        return await self.call(selection, mode: call.mode, example: call.example, values: call.values, captured: call.captured, edits: call.edits)
    }
}
