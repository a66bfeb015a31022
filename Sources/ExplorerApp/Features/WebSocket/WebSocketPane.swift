import Catalog
import DispatcherCore
import TerminalKit

/// A WebSocket conversation in the Body tab: the handshake's answer, every frame sent and received
/// with its time, whether it is still open. Kept after it closes, until the endpoint is sent again.
package struct WebSocketPane: Sendable, Hashable {
    /// The request carrying it.
    package var ticket: Int
    /// The `101` answer's headers.
    package var headers: Headers
    /// The subprotocol the server chose.
    package var subprotocol: String?
    /// The frames so far, in order (`append` adds them).
    package private(set) var frames: [WebSocketFrameRecord] = []
    /// Messages (not control frames) each way: sent, received; kept as frames come, so a frame
    /// never counts them all again.
    package private(set) var messageCounts = (sent: 0, received: 0)
    /// The close, once one went either way.
    package private(set) var close: (WebSocketClose, WebSocketDirection)?
    /// Whether the conversation goes on (until its request finishes).
    package var isOpen = true
    /// Whether the person asked to close it (Esc); a second Esc drops the connection.
    package var isClosing = false
    /// The frame under the cursor; nil follows the newest.
    package var cursor: Int?

    /// A conversation the server just accepted.
    package init(ticket: Int, headers: Headers, subprotocol: String?) {
        self.ticket = ticket
        self.headers = headers
        self.subprotocol = subprotocol
    }

    /// The frame under the cursor.
    package var selectedIndex: Int? { frames.isEmpty ? nil : min(cursor ?? frames.count - 1, frames.count - 1) }

    /// Adds frames that came (in place: the pane is never copied per report).
    package mutating func append(_ added: [WebSocketFrameRecord]) {
        frames.append(contentsOf: added)
        for frame in added {
            switch frame.content {
            case .message: if frame.direction == .sent { messageCounts.sent += 1 } else { messageCounts.received += 1 }
            case .close(let closing): if close == nil { close = (closing, frame.direction) }
            case .ping, .pong: break
            }
        }
    }

    package static func == (lhs: WebSocketPane, rhs: WebSocketPane) -> Bool {
        lhs.ticket == rhs.ticket && lhs.headers == rhs.headers && lhs.subprotocol == rhs.subprotocol && lhs.frames == rhs.frames
            && lhs.isOpen == rhs.isOpen && lhs.isClosing == rhs.isClosing && lhs.cursor == rhs.cursor
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(ticket)
        hasher.combine(frames.count)
    }
}

/// What the runtime reports of a conversation (batched, a frame's worth at a time).
package struct WebSocketUpdate: Sendable, Hashable {
    /// The server accepted the upgrade: its headers and chosen subprotocol (first report only).
    package var opened: Opened?
    /// Frames since the last report.
    package var frames: [WebSocketFrameRecord]

    /// The `101` answer.
    package struct Opened: Sendable, Hashable {
        package var headers: Headers
        package var subprotocol: String?

        package init(headers: Headers, subprotocol: String?) {
            self.headers = headers
            self.subprotocol = subprotocol
        }
    }

    /// Makes an update.
    package init(opened: Opened? = nil, frames: [WebSocketFrameRecord] = []) {
        self.opened = opened
        self.frames = frames
    }
}

/// A message to send on an open conversation.
package enum WebSocketDraft: Sendable, Hashable {
    /// Text the person typed.
    case typed(String)
    /// One of the endpoint's named messages (placeholders filled by the runner).
    case named(String)
}

/// The window where a WebSocket message is typed (`m`); Tab fills in the endpoint's named messages.
package struct MessageComposer: Sendable, Hashable {
    /// The conversation's request.
    package var ticket: Int
    /// Its endpoint.
    package var endpoint: EndpointKey
    /// The endpoint's named messages, in file order: name and text.
    package var named: [NamedText]
    /// The named message filled in (until the text is edited).
    package var chosen: Int?
    /// The text being typed.
    package var input: InputState

    /// A named message.
    package struct NamedText: Sendable, Hashable {
        package var name: String
        package var text: String

        package init(name: String, text: String) {
            self.name = name
            self.text = text
        }
    }

    /// Makes a composer, the first named message filled in when there is one.
    package init(ticket: Int, endpoint: EndpointKey, named: [NamedText]) {
        self.ticket = ticket
        self.endpoint = endpoint
        self.named = named
        chosen = named.isEmpty ? nil : 0
        input = InputState(text: named.first?.text ?? "")
    }

    /// What Enter sends.
    package var draft: WebSocketDraft {
        if let chosen, named[chosen].text == input.text { return .named(named[chosen].name) }
        return .typed(input.text)
    }
}
