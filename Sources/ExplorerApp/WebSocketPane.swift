import Catalog
import DispatcherCore
import TerminalKit

/// A WebSocket conversation in the Body tab: the handshake's answer, every frame sent and received
/// with its time, whether it is still open. Kept after it closes, until the endpoint is sent again.
public struct WebSocketPane: Sendable, Hashable {
    /// The request carrying it.
    public var ticket: Int
    /// The `101` answer's headers.
    public var headers: Headers
    /// The subprotocol the server chose.
    public var subprotocol: String?
    /// The frames so far, in order (`append` adds them).
    public private(set) var frames: [WebSocketFrameRecord] = []
    /// Messages (not control frames) each way: sent, received; kept as frames come, so a frame
    /// never counts them all again.
    public private(set) var messageCounts = (sent: 0, received: 0)
    /// The close, once one went either way.
    public private(set) var close: (WebSocketClose, WebSocketDirection)?
    /// Whether the conversation goes on (until its request finishes).
    public var isOpen = true
    /// Whether the person asked to close it (Esc); a second Esc drops the connection.
    public var isClosing = false
    /// The frame under the cursor; nil follows the newest.
    public var cursor: Int?

    /// A conversation the server just accepted.
    public init(ticket: Int, headers: Headers, subprotocol: String?) {
        self.ticket = ticket
        self.headers = headers
        self.subprotocol = subprotocol
    }

    /// The frame under the cursor.
    public var selectedIndex: Int? { frames.isEmpty ? nil : min(cursor ?? frames.count - 1, frames.count - 1) }

    /// Adds frames that came (in place: the pane is never copied per report).
    public mutating func append(_ added: [WebSocketFrameRecord]) {
        frames.append(contentsOf: added)
        for frame in added {
            switch frame.content {
            case .message: if frame.direction == .sent { messageCounts.sent += 1 } else { messageCounts.received += 1 }
            case .close(let closing): if close == nil { close = (closing, frame.direction) }
            case .ping, .pong: break
            }
        }
    }

    public static func == (lhs: WebSocketPane, rhs: WebSocketPane) -> Bool {
        lhs.ticket == rhs.ticket && lhs.headers == rhs.headers && lhs.subprotocol == rhs.subprotocol && lhs.frames == rhs.frames
            && lhs.isOpen == rhs.isOpen && lhs.isClosing == rhs.isClosing && lhs.cursor == rhs.cursor
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ticket)
        hasher.combine(frames.count)
    }
}

/// What the runtime reports of a conversation (batched, a frame's worth at a time).
public struct WebSocketUpdate: Sendable, Hashable {
    /// The server accepted the upgrade: its headers and chosen subprotocol (first report only).
    public var opened: Opened?
    /// Frames since the last report.
    public var frames: [WebSocketFrameRecord]

    /// The `101` answer.
    public struct Opened: Sendable, Hashable {
        public var headers: Headers
        public var subprotocol: String?

        public init(headers: Headers, subprotocol: String?) {
            self.headers = headers
            self.subprotocol = subprotocol
        }
    }

    /// Makes an update.
    public init(opened: Opened? = nil, frames: [WebSocketFrameRecord] = []) {
        self.opened = opened
        self.frames = frames
    }
}

/// A message to send on an open conversation.
public enum WebSocketDraft: Sendable, Hashable {
    /// Text the person typed.
    case typed(String)
    /// One of the endpoint's named messages (placeholders filled by the runner).
    case named(String)
}

/// The window where a WebSocket message is typed (`m`); Tab fills in the endpoint's named messages.
public struct MessageComposer: Sendable, Hashable {
    /// The conversation's request.
    public var ticket: Int
    /// Its endpoint.
    public var endpoint: EndpointKey
    /// The endpoint's named messages, in file order: name and text.
    public var named: [NamedText]
    /// The named message filled in (until the text is edited).
    public var chosen: Int?
    /// The text being typed.
    public var input: InputState

    /// A named message.
    public struct NamedText: Sendable, Hashable {
        public var name: String
        public var text: String

        public init(name: String, text: String) {
            self.name = name
            self.text = text
        }
    }

    /// Makes a composer, the first named message filled in when there is one.
    public init(ticket: Int, endpoint: EndpointKey, named: [NamedText]) {
        self.ticket = ticket
        self.endpoint = endpoint
        self.named = named
        chosen = named.isEmpty ? nil : 0
        input = InputState(text: named.first?.text ?? "")
    }

    /// What Enter sends.
    public var draft: WebSocketDraft {
        if let chosen, named[chosen].text == input.text { return .named(named[chosen].name) }
        return .typed(input.text)
    }
}
