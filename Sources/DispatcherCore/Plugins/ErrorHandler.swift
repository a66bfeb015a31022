/// What an error handler did with an error.
public enum ErrorResolution: Sendable {
    /// Replace the error by this response (a fallback value, a cached copy …).
    case recovered(Response, note: String)
    /// The error stands as given (possibly rewritten); later handlers do not run.
    case failed(DispatchError, note: String)
    /// Send the original request again, once (after refreshing a token, say).
    case resume(note: String)
    /// Send the original request again after `after` (a handler's own retry, honouring
    /// Retry-After); the handler decides how often by passing (nil) once it has had enough.
    case retry(after: Duration, note: String)
}

/// One link of the error-handler chain: handles an error by returning a resolution, or passes it on
/// by returning nil. Handlers run in order; the first resolution ends the chain.
public protocol ErrorHandler: Sendable {
    /// Shown in the trace and the Errors tab.
    var name: String { get }
    /// Handles `error` of `request`, or returns nil to pass it on.
    func handle(_ error: DispatchError, request: Request) async -> ErrorResolution?
}

/// A handler that acts on errors matching a transport code, a status, a kind, or any error.
public struct MatchingErrorHandler: ErrorHandler {
    /// Which errors the handler takes.
    public enum Match: Sendable {
        /// Transport failures with these codes.
        case transportCodes(Set<TransportError.Code>)
        /// Responses with these statuses.
        case statuses(Set<Int>)
        /// Errors of these kinds.
        case kinds(Set<ErrorKind>)
        /// Every error: the fallback, last in a chain.
        case any

        func matches(_ error: DispatchError) -> Bool {
            switch self {
            case .transportCodes(let codes): error.transportError.map { codes.contains($0.code) } ?? false
            case .statuses(let statuses): error.status.map { statuses.contains($0) } ?? false
            case .kinds(let kinds): kinds.contains(error.kind)
            case .any: true
            }
        }
    }

    public let name: String
    /// Which errors it takes.
    public let match: Match
    /// What it does with them; nil passes the error on after all.
    public let action: @Sendable (DispatchError, Request) async -> ErrorResolution?

    /// Makes a handler.
    public init(name: String, match: Match, action: @escaping @Sendable (DispatchError, Request) async -> ErrorResolution?) {
        self.name = name
        self.match = match
        self.action = action
    }

    public func handle(_ error: DispatchError, request: Request) async -> ErrorResolution? {
        guard match.matches(error) else { return nil }
        return await action(error, request)
    }

    /// A handler for transport failures with these codes.
    public static func transport(
        _ codes: Set<TransportError.Code>, name: String,
        action: @escaping @Sendable (DispatchError, Request) async -> ErrorResolution?
    ) -> MatchingErrorHandler {
        MatchingErrorHandler(name: name, match: .transportCodes(codes), action: action)
    }

    /// A handler for responses with these statuses.
    public static func status(
        _ statuses: Set<Int>, name: String, action: @escaping @Sendable (DispatchError, Request) async -> ErrorResolution?
    ) -> MatchingErrorHandler {
        MatchingErrorHandler(name: name, match: .statuses(statuses), action: action)
    }

    /// A handler for errors of these kinds.
    public static func kind(
        _ kinds: Set<ErrorKind>, name: String, action: @escaping @Sendable (DispatchError, Request) async -> ErrorResolution?
    ) -> MatchingErrorHandler {
        MatchingErrorHandler(name: name, match: .kinds(kinds), action: action)
    }

    /// A handler for every error.
    public static func fallback(
        name: String, action: @escaping @Sendable (DispatchError, Request) async -> ErrorResolution?
    ) -> MatchingErrorHandler {
        MatchingErrorHandler(name: name, match: .any, action: action)
    }
}
