import FoundationEssentials

/// A WebSocket message: what a person sends or reads (RFC 6455 §5.6).
public enum WebSocketMessage: Sendable, Hashable {
    /// A text message (UTF-8).
    case text(String)
    /// A binary message.
    case binary(Data)

    /// Its payload's size in bytes.
    package var byteCount: Int {
        switch self {
        case .text(let text): text.utf8.count
        case .binary(let data): data.count
        }
    }
}

/// What a WebSocket frame carried, as the explorer shows it: a message, a control frame, or the close.
package enum WebSocketFrameContent: Sendable, Hashable {
    case message(WebSocketMessage)
    /// A ping (answered with a pong by whoever received it).
    case ping(Data)
    /// A pong.
    case pong(Data)
    /// The closing handshake's frame.
    case close(WebSocketClose)
}

/// Which way a frame went.
package enum WebSocketDirection: String, Sendable, Hashable {
    /// From this program to the server.
    case sent
    /// From the server.
    case received
}

/// One frame of a conversation, with when it went (since the request was sent).
package struct WebSocketFrameRecord: Sendable, Hashable {
    /// Time since the request was sent.
    package var at: Duration
    /// Which way it went.
    package var direction: WebSocketDirection
    /// What it carried.
    package var content: WebSocketFrameContent

    /// Makes a record.
    package init(at: Duration, direction: WebSocketDirection, content: WebSocketFrameContent) {
        self.at = at
        self.direction = direction
        self.content = content
    }
}

/// A close code (RFC 6455 §7.4), with the name people read and the error kind it maps to.
public struct WebSocketCloseCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    public static let normal = WebSocketCloseCode(1000)
    public static let goingAway = WebSocketCloseCode(1001)
    public static let protocolError = WebSocketCloseCode(1002)
    public static let unsupportedData = WebSocketCloseCode(1003)
    /// Sent by nobody: the close frame had no code.
    public static let noStatus = WebSocketCloseCode(1005)
    /// Sent by nobody: the connection ended without a close frame.
    public static let abnormal = WebSocketCloseCode(1006)
    public static let invalidPayload = WebSocketCloseCode(1007)
    public static let policyViolation = WebSocketCloseCode(1008)
    public static let messageTooBig = WebSocketCloseCode(1009)
    public static let mandatoryExtension = WebSocketCloseCode(1010)
    public static let internalError = WebSocketCloseCode(1011)
    public static let serviceRestart = WebSocketCloseCode(1012)
    public static let tryAgainLater = WebSocketCloseCode(1013)
    public static let badGateway = WebSocketCloseCode(1014)

    /// The code's name (`policyViolation`), `application` for 4000–4999, `registered` for 3000–3999.
    public var name: String {
        switch rawValue {
        case 1000: "normal"
        case 1001: "goingAway"
        case 1002: "protocolError"
        case 1003: "unsupportedData"
        case 1005: "noStatus"
        case 1006: "abnormal"
        case 1007: "invalidPayload"
        case 1008: "policyViolation"
        case 1009: "messageTooBig"
        case 1010: "mandatoryExtension"
        case 1011: "internalError"
        case 1012: "serviceRestart"
        case 1013: "tryAgainLater"
        case 1014: "badGateway"
        case 1015: "tlsHandshake"
        case 3000..<4000: "registered"
        case 4000..<5000: "application"
        default: "unknown"
        }
    }

    /// What the code means, for a person.
    package var meaning: String {
        switch rawValue {
        case 1000: "normal closure"
        case 1001: "going away (the server is shutting down or the page left)"
        case 1002: "protocol error: a frame broke RFC 6455"
        case 1003: "data of a type the endpoint cannot accept"
        case 1005: "closed without a code"
        case 1006: "the connection dropped without a closing handshake"
        case 1007: "a message's data was not valid (not UTF-8 in a text message)"
        case 1008: "policy violation: the server refused a message"
        case 1009: "a message was too big"
        case 1010: "the client needs an extension the server did not agree to"
        case 1011: "the server hit an unexpected condition"
        case 1012: "the service is restarting"
        case 1013: "try again later"
        case 1014: "bad gateway"
        case 1015: "the TLS handshake failed"
        case 3000..<4000: "a code registered with IANA by a library or framework"
        case 4000..<5000: "a code the application defines"
        default: "an unassigned code"
        }
    }

    /// Whether a conversation that ended with this code went as planned: normal closure, going
    /// away and a close frame without a code are how conversations usually end.
    public var isClean: Bool { rawValue == 1000 || rawValue == 1001 || rawValue == 1005 }

    /// Whether a program may send it (1005, 1006 and 1015 are never put on the wire).
    package var isSendable: Bool {
        switch rawValue {
        case 1000...1003, 1007...1014, 3000..<5000: true
        default: false
        }
    }

    /// `1008 policyViolation`.
    public var description: String { "\(rawValue) \(name)" }
}

/// How a conversation closed: the code, the reason the closer gave, and who closed it first.
public struct WebSocketClose: Sendable, Hashable, CustomStringConvertible {
    /// The code.
    public var code: WebSocketCloseCode
    /// The reason text (may be empty).
    public var reason: String

    /// Makes a close.
    public init(code: WebSocketCloseCode = .normal, reason: String = "") {
        self.code = code
        self.reason = reason
    }

    /// `1008 policyViolation: too many messages`.
    public var description: String { reason.isEmpty ? code.description : "\(code): \(reason)" }
}

/// What happens in a conversation, as the transport reports it to whoever watches (the explorer
/// lists frames as they come; `call` prints them).
package enum WebSocketEvent: Sendable, Hashable {
    /// The server accepted the upgrade (`101 Switching Protocols`), with the subprotocol it chose.
    case opened(headers: Headers, subprotocol: String?)
    /// A frame went one way or the other.
    case frame(WebSocketFrameRecord)
}
