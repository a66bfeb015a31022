/// Per-request choices that are not part of the target.
public struct RequestOptions: Sendable {
    /// Whether the request counts towards the network activity indicator.
    public var countsTowardsActivity: Bool
    /// Overrides the stub behaviour for this request (e.g. live vs stub mode in the explorer).
    public var stubBehavior: StubBehavior?
    /// The named example a stub answers with; nil for the default sample.
    public var example: String?
    /// Timeouts over the environment's and the target's.
    public var timeouts: Timeouts?
    /// Sees an error first; when it handles it, the error-handler chain does not run.
    public var errorHandler: InlineErrorHandler?
    /// Called as response bytes arrive: bytes so far and the expected total when known.
    public var progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)?
    /// Called as a streamed request body (a file, a multipart form) is written: bytes sent so far and in all.
    public var uploadProgress: (@Sendable (_ sent: Int, _ total: Int) -> Void)?
    /// Sees the head and each part of the body as they arrive, before the response is complete.
    public var onResponsePart: ResponsePartObserver?
    /// Hears each status line as the server sent it (`HTTP/1.1`, `200 Fine`; HTTP/2 has no reason
    /// phrase) just before its head goes to `onResponsePart` (live responses only).
    package var onStatusLine: (@Sendable (_ httpVersion: String, _ statusLine: String) -> Void)?
    /// Whether the response is a stream read as it arrives (Server-Sent Events, NDJSON): it has no
    /// total deadline, since an open stream may last for ever; the read timeout still holds between bytes.
    public var isStream = false
    /// Write a successful body to this file as it arrives instead of keeping it in memory; the
    /// memory cap (`maximumBodySize`) does not apply, free disk space does.
    package var download: DownloadDestination?
    /// When set, a successful (2xx) body whose parts `onResponsePart` asked for is not held: only its
    /// first `streamedBodyKept` bytes stay in the response (for the history; `Response.streamedByteCount`
    /// says the whole size), so memory stays bounded whatever the size, and the memory cap does not
    /// apply. Once such bytes were handed on, a failure is not retried: they cannot be taken back.
    public var streamedBodyKept: Int?
    /// Makes the request a WebSocket conversation (an upgrade): the transport, or the stub's script,
    /// carries the conversation's frames until it closes, and the response's body is its transcript.
    package var webSocket: WebSocketConversation?
    /// The secret values the request may carry (resolved `{{secret.…}}` values, tokens, typed and
    /// captured secrets): a header holding one never follows a redirect to another origin.
    package var secrets: SecretRegistry?
    /// The cookie jar each redirect hop goes through (set by `CookiePlugin`): the transport stores a
    /// redirect's `Set-Cookie` and sends the jar's cookies on the next hop.
    package var cookies: RedirectCookies?
    /// Whether an error handler already had this request resumed: set by the dispatcher, so a
    /// handler that resumes (a token refresh) leaves a second failure to the rest of the chain.
    public internal(set) var isResumed = false

    /// Makes options.
    public init(
        countsTowardsActivity: Bool = true, stubBehavior: StubBehavior? = nil, example: String? = nil,
        timeouts: Timeouts? = nil, errorHandler: InlineErrorHandler? = nil,
        progress: (@Sendable (_ received: Int, _ expected: Int?) -> Void)? = nil,
        onResponsePart: ResponsePartObserver? = nil, isStream: Bool = false
    ) {
        self.countsTowardsActivity = countsTowardsActivity
        self.stubBehavior = stubBehavior
        self.example = example
        self.timeouts = timeouts
        self.errorHandler = errorHandler
        self.progress = progress
        self.onResponsePart = onResponsePart
        self.isStream = isStream
    }
}

/// An error handler given with one request: returns a resolution when it handles the error,
/// nil to let the chain run.
public typealias InlineErrorHandler = @Sendable (DispatchError, Request) async -> ErrorResolution?
