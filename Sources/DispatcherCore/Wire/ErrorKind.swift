/// The stable set of error kinds every result is mapped into, plus kinds a catalog defines.
public enum ErrorKind: Sendable, Hashable, CustomStringConvertible {
    case badRequest
    case unauthorized
    case forbidden
    case notFound
    case tooManyRequests
    case internalServerError
    /// Any other 4xx.
    case clientError(Int)
    /// Any other 5xx.
    case serverError(Int)
    /// A success without the body that was expected.
    case noData
    case timeout
    case cannotConnect
    /// The connection broke after it was made: reset or closed before the response was complete
    /// (mid-body included), not a failure to connect.
    case connectionLost
    case notConnected
    case tlsFailure
    case pinningFailed
    case cancelled
    case bodyTooLarge
    case decodingFailed
    /// The request could not be built (an unresolved placeholder, a bad URL …); nothing was sent.
    case invalidRequest
    /// Stub mode, and the endpoint declares no fixture for what was asked: nothing was sent and
    /// nothing answered (never an invented `200`).
    case noFixture
    /// A WebSocket conversation the server ended with a close code that is not a clean one
    /// (`policyViolation`, `messageTooBig`, an application's 4xxx …), or that dropped (`abnormal`).
    case webSocketClosed(WebSocketCloseCode)
    case unknown
    /// A kind a catalog defines (`expiredUserSession`, `applicationError` …).
    case custom(String)

    /// The built-in kinds' names, as catalogs write them.
    public static let builtInNames: [String] = [
        "badRequest", "unauthorized", "forbidden", "notFound", "tooManyRequests", "internalServerError",
        "clientError", "serverError", "noData", "timeout", "cannotConnect", "connectionLost", "notConnected", "tlsFailure",
        "pinningFailed", "cancelled", "bodyTooLarge", "decodingFailed", "invalidRequest", "noFixture", "webSocketClosed", "unknown",
    ]

    /// Reads a name as written in a catalog: a built-in kind, else a custom one.
    /// `clientError`/`serverError` take their status from `status`.
    public init(name: String, status: Int? = nil) {
        switch name {
        case "badRequest": self = .badRequest
        case "unauthorized": self = .unauthorized
        case "forbidden": self = .forbidden
        case "notFound": self = .notFound
        case "tooManyRequests": self = .tooManyRequests
        case "internalServerError": self = .internalServerError
        case "clientError": self = .clientError(status ?? 400)
        case "serverError": self = .serverError(status ?? 500)
        case "noData": self = .noData
        case "timeout": self = .timeout
        case "cannotConnect": self = .cannotConnect
        case "connectionLost": self = .connectionLost
        case "notConnected": self = .notConnected
        case "tlsFailure": self = .tlsFailure
        case "pinningFailed": self = .pinningFailed
        case "cancelled": self = .cancelled
        case "bodyTooLarge": self = .bodyTooLarge
        case "decodingFailed": self = .decodingFailed
        case "invalidRequest": self = .invalidRequest
        case "noFixture": self = .noFixture
        case "webSocketClosed": self = .webSocketClosed(WebSocketCloseCode(status ?? 1006))
        case "unknown": self = .unknown
        default: self = .custom(name)
        }
    }

    /// Nothing was sent and nothing answered: the request could not be built, or stub mode has no
    /// fixture for it. Such a call is not kept in the history.
    public var answeredNothing: Bool { self == .invalidRequest || self == .noFixture }

    /// The kind's name (`clientError` for every client error, whatever the status).
    public var name: String {
        switch self {
        case .badRequest: "badRequest"
        case .unauthorized: "unauthorized"
        case .forbidden: "forbidden"
        case .notFound: "notFound"
        case .tooManyRequests: "tooManyRequests"
        case .internalServerError: "internalServerError"
        case .clientError: "clientError"
        case .serverError: "serverError"
        case .noData: "noData"
        case .timeout: "timeout"
        case .cannotConnect: "cannotConnect"
        case .connectionLost: "connectionLost"
        case .notConnected: "notConnected"
        case .tlsFailure: "tlsFailure"
        case .pinningFailed: "pinningFailed"
        case .cancelled: "cancelled"
        case .bodyTooLarge: "bodyTooLarge"
        case .decodingFailed: "decodingFailed"
        case .invalidRequest: "invalidRequest"
        case .noFixture: "noFixture"
        case .webSocketClosed: "webSocketClosed"
        case .unknown: "unknown"
        case .custom(let name): name
        }
    }

    public var description: String {
        switch self {
        case .clientError(let status), .serverError(let status): "\(name)(\(status))"
        case .webSocketClosed(let code): "\(name)(\(code))"
        default: name
        }
    }

    /// The kind for a status that failed validation, by the built-in table.
    public init(status: Int) {
        switch status {
        case 400: self = .badRequest
        case 401: self = .unauthorized
        case 403: self = .forbidden
        case 404: self = .notFound
        case 429: self = .tooManyRequests
        case 500: self = .internalServerError
        case 400..<500: self = .clientError(status)
        case 500..<600: self = .serverError(status)
        default: self = .unknown
        }
    }

    /// The kind for a transport failure.
    public init(transportCode code: TransportError.Code) {
        switch code {
        case .notConnectedToInternet: self = .notConnected
        case .timedOut: self = .timeout
        case .cannotConnectToHost, .cannotFindHost: self = .cannotConnect
        case .networkConnectionLost: self = .connectionLost
        case .secureConnectionFailed, .serverCertificateUntrusted: self = .tlsFailure
        case .pinningFailed: self = .pinningFailed
        case .cancelled: self = .cancelled
        case .bodyTooLarge: self = .bodyTooLarge
        case .cannotDecodeContentData: self = .decodingFailed
        case .badServerResponse, .tooManyRedirects, .resourceUnavailable, .unknown: self = .unknown
        }
    }
}
