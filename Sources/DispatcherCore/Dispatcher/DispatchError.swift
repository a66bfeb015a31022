/// A failed request, mapped into one stable kind with a sentence a person can act on.
public struct DispatchError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The mapped kind.
    public var kind: ErrorKind
    /// What went wrong, for a person.
    public var message: String
    /// Messages gathered from the response body, if any (already part of `message`).
    public var details: [String]
    /// The HTTP status, when there was a response.
    public var status: Int?
    /// How long the server asked to wait (`Retry-After`), when it did.
    public var retryAfter: Duration?
    /// The response, when there was one (also a partial one after a transport failure).
    public var response: Response?
    /// The transport failure underneath, when there was one.
    public var transportError: TransportError?
    /// What produced this error: `status 404`, a catalog rule's name, `transport`, a handler's name.
    public var source: String

    /// Makes an error.
    public init(
        kind: ErrorKind, message: String, details: [String] = [], status: Int? = nil,
        retryAfter: Duration? = nil, response: Response? = nil, transportError: TransportError? = nil,
        source: String
    ) {
        self.kind = kind
        self.message = message
        self.details = details
        self.status = status
        self.retryAfter = retryAfter
        self.response = response
        self.transportError = transportError
        self.source = source
    }

    /// An error for a transport failure, keeping its message.
    public init(transport error: TransportError) {
        self.init(
            kind: ErrorKind(transportCode: error.code), message: error.message, status: error.partialResponse?.status,
            response: error.partialResponse, transportError: error, source: "transport: \(error.code.rawValue)")
    }

    /// The error for a cancelled request.
    public static let cancelled = DispatchError(transport: TransportError(.cancelled))

    /// An error for a request that could not be built.
    public static func invalidRequest(_ message: String) -> DispatchError {
        DispatchError(kind: .invalidRequest, message: message, source: "request")
    }

    /// Stub mode for a target that declares no fixture (`SampleResponse.noFixture`).
    public static func noFixture(_ identifier: String) -> DispatchError {
        DispatchError(
            kind: .noFixture, message: "\(identifier) has no fixture: stub mode has nothing to answer with, and nothing was sent.",
            source: "stub")
    }

    public var description: String { "\(kind): \(message)" }
}
