/// A finished request: what was sent, what came back, and everything that happened on the way.
public struct Exchange: Sendable {
    /// The request as last sent (after the interceptor and plugins).
    public var request: Request
    /// The response or the mapped error.
    public var result: Result<Response, DispatchError>
    /// What happened, in order.
    public var trace: [TraceEvent]
    /// The environment it was sent in (a response may arrive after the user switched).
    public var environmentName: String
    /// The environment's type.
    public var environmentType: EnvironmentType
    /// How it was answered: `never` for live, else the stub behaviour.
    public var stubBehavior: StubBehavior
    /// Attempts made, retries and resumes included.
    public var attempts: Int
    /// What result handlers did.
    public var notes: [String]
    /// Where the time of each attempt that went over the network went, in order (retries included).
    public var transfers: [TransferTiming] = []

    /// Makes an exchange; the dispatcher makes them, and so do callers for requests that ended
    /// before reaching one (a catalog request whose placeholders have no value).
    public init(
        request: Request, result: Result<Response, DispatchError>, trace: [TraceEvent], environmentName: String,
        environmentType: EnvironmentType, stubBehavior: StubBehavior, attempts: Int, notes: [String]
    ) {
        self.request = request
        self.result = result
        self.trace = trace
        self.environmentName = environmentName
        self.environmentType = environmentType
        self.stubBehavior = stubBehavior
        self.attempts = attempts
        self.notes = notes
    }

    /// The response: the success, or the one an error carries.
    public var response: Response? {
        switch result {
        case .success(let response): response
        case .failure(let error): error.response
        }
    }

    /// The error, if the request failed.
    public var error: DispatchError? {
        if case .failure(let error) = result { return error }
        return nil
    }

    /// The failure below HTTP that ended the exchange (a reset, a deadline, a cap, a body that
    /// could not be decoded …), if one did: any response it carries is what arrived before the
    /// failure, never a complete answer. The one rule `call` and `test` share: such an exchange is
    /// never a success, whatever was expected of it (`call` exits 1 with its kind, `test` reports
    /// an error, exit 3) — a status and half a body are not a response to check.
    package var failedTransfer: TransportError? {
        guard case .failure(let error) = result, error.kind != .noFixture else { return nil }
        return error.transportError
    }

    /// Whether the request was answered by a stub.
    public var isStubbed: Bool { stubBehavior.isStubbed }

    /// The request's time from start to its last answer, every attempt and wait between them
    /// included (a response's own timing is its attempt's only).
    public var elapsed: Duration {
        let lastAnswer = trace.last { if case .received = $0.kind { true } else { false } }
        return lastAnswer?.at ?? response?.timing.total ?? .zero
    }
}

/// One thing that happened to a request, at a time since it started.
public struct TraceEvent: Sendable, Hashable, CustomStringConvertible {
    /// What happened.
    public enum Kind: Sendable, Hashable {
        /// Attempt `n` was sent (live) or answered by a stub.
        case sent(attempt: Int, stubbed: Bool)
        /// The attempt ended: a status, or the error kind when nothing came back.
        case received(status: Int?, error: ErrorKind?)
        /// The error filter produced an error.
        case errorMapped(kind: ErrorKind, source: String)
        /// Another attempt follows after the delay.
        case retryScheduled(attempt: Int, after: Duration)
        /// An error handler resolved the error.
        case handled(by: String, note: String)
        /// An error handler resumed the request.
        case resumed(by: String, note: String)
        /// A handler asked to resume again; requests resume once only.
        case resumeRefused(by: String)
        /// An error handler was asked and passed the error on.
        case passed(by: String)
        /// Every error handler passed: the error reaches the caller as it is.
        case unhandled
        /// An error handler sends the request again after the delay.
        case retriedByHandler(by: String, after: Duration, note: String)
        /// A result handler acted.
        case resultHandler(note: String)
        /// The request was cancelled.
        case cancelled
    }

    /// Time since the request started.
    public var at: Duration
    /// What happened.
    public var kind: Kind

    /// Makes an event.
    public init(at: Duration, kind: Kind) {
        self.at = at
        self.kind = kind
    }

    public var description: String {
        let time = "+\(Int((at.seconds * 1000).rounded())) ms"
        switch kind {
        case .sent(let attempt, let stubbed): return "\(time) attempt \(attempt) \(stubbed ? "answered by stub" : "sent")"
        case .received(let status, let error):
            return "\(time) received " + (status.map(HTTPStatus.line) ?? error.map { "no response (\($0))" } ?? "nothing")
        case .errorMapped(let kind, let source): return "\(time) mapped to \(kind) by \(source)"
        case .retryScheduled(let attempt, let after): return "\(time) retry \(attempt) in \(after.secondsText) s"
        case .handled(let name, let note): return "\(time) handled by \(name): \(note)"
        case .resumed(let name, let note): return "\(time) resumed by \(name): \(note)"
        case .resumeRefused(let name): return "\(time) \(name) asked to resume again: refused (once only)"
        case .passed(let name): return "\(time) \(name): not for this error, passed on"
        case .unhandled: return "\(time) no handler handled this: the error stands"
        case .retriedByHandler(let name, let after, let note): return "\(time) \(name): \(note); sent again in \(after.secondsText) s"
        case .resultHandler(let note): return "\(time) result handler: \(note)"
        case .cancelled: return "\(time) cancelled"
        }
    }
}
