import Catalog
import DispatcherCore
import TerminalKit

/// WebSocket conversations: frames listed as they come, messages typed (`m`) or picked from the
/// catalog's named ones, Esc closes with a normal closure (a second Esc drops the connection).
package struct WebSocketState: Sendable {
    /// The conversations, by endpoint: the latest one's (open or closed).
    package fileprivate(set) var panes: [EndpointKey: WebSocketPane] = [:]

    /// Whether Esc on `ticket` starts its closing handshake (a second Esc drops the connection instead).
    func isClosable(_ ticket: RequestTicket) -> Bool {
        guard let pane = panes[ticket.endpoint] else { return false }
        return pane.ticket == ticket.id && pane.isOpen && !pane.isClosing
    }
}

/// What happens to WebSocket conversations.
package enum WebSocketAction: Sendable {
    /// A conversation opened or carried frames (batched: at most a frame's worth of reports).
    case updated(ticket: Int, update: WebSocketUpdate)
    /// A message could not be sent: why.
    case messageRefused(String)
    /// The conversation's request ended: nothing more comes.
    case ended(ticket: Int, endpoint: EndpointKey)
    /// `m` on the selected endpoint: the composer for its open conversation.
    case openComposer(CatalogEndpoint)
    /// A key while a message is typed.
    case composer(Command)
    /// Esc on an open conversation (`WebSocketState.isClosable`): its closing handshake.
    case close(RequestTicket)
    /// The cursor in an endpoint's frames moved.
    case moveCursor(EndpointKey, AppReducer.Movement, paging: Bool, pageHeight: Int)
}

/// Work on open conversations.
package enum WebSocketEffect: Sendable, Hashable {
    /// Send a message on the request's open WebSocket.
    case send(ticket: Int, message: WebSocketDraft)
    /// Start the request's closing handshake (normal closure).
    case close(ticket: Int)
}

enum WebSocketFeature: AppFeature {
    static func reduce(_ state: inout WebSocketState, _ action: WebSocketAction, _ shell: inout AppShell, _ context: RequestsInFlight) -> [AppEffect] {
        switch action {
        case .updated(let ticket, let update):
            guard let key = context.tickets[ticket]?.endpoint else { return [] }
            if let opened = update.opened {
                shell.requests.append(.replaceAnswer(key))
                state.panes[key] = WebSocketPane(ticket: ticket, headers: opened.headers, subprotocol: opened.subprotocol)
                shell.requests.append(.log(["#\(ticket) ⇅ WebSocket open\(opened.subprotocol.map { " (subprotocol \($0))" } ?? "")"]))
            }
            guard state.panes[key]?.ticket == ticket else { return [] }
            // In place: a copy of the pane would copy every frame so far, once per report.
            state.panes[key]?.append(update.frames)
            for frame in update.frames {
                guard case .close(let close) = frame.content else { continue }
                shell.requests.append(.log(["#\(ticket) ⇅ close \(frame.direction == .sent ? "sent" : "received"): \(close)"]))
            }
        case .messageRefused(let message):
            shell.notice = message
        case .ended(let ticket, let key):
            guard state.panes[key]?.ticket == ticket else { return [] }
            state.panes[key]?.isOpen = false
            if case .webSocket(let composer)? = shell.window, composer.ticket == ticket {
                shell.dismiss()
                shell.notice = "The WebSocket closed: the message was not sent."
            }
        case .openComposer(let endpoint):
            guard let settings = endpoint.webSocket else {
                shell.notice = "m sends a message on a WebSocket endpoint; \(endpoint.key) is plain HTTP."
                return []
            }
            guard let pane = state.panes[endpoint.key], pane.isOpen, !pane.isClosing else {
                shell.notice = "Open the WebSocket first (Enter): m types a message once it is open."
                return []
            }
            let named = settings.messages.map { MessageComposer.NamedText(name: $0.name, text: $0.text) }
            shell.present(.webSocket(MessageComposer(ticket: pane.ticket, endpoint: endpoint.key, named: named)))
        case .composer(let command):
            guard case .webSocket(let composer)? = shell.window else { return [] }
            return typeInComposer(command, composer: composer, state: state, shell: &shell)
        case .close(let ticket):
            guard state.isClosable(ticket) else { return [] }
            state.panes[ticket.endpoint]?.isClosing = true
            shell.notice = "Closing the WebSocket of \(ticket.endpoint) (1000 normal); Esc again drops the connection."
            return [.webSocket(.close(ticket: ticket.id))]
        case .moveCursor(let key, let movement, let paging, let pageHeight):
            guard let pane = state.panes[key], let current = pane.selectedIndex else { return [] }
            state.panes[key]?.cursor = movement.followingCursor(paging: paging, from: current, count: pane.frames.count, pageHeight: pageHeight)
        }
        return []
    }

    /// Keys while a message is typed.
    static func typeInComposer(_ command: Command, composer: MessageComposer, state: WebSocketState, shell: inout AppShell) -> [AppEffect] {
        var composer = composer
        switch command {
        case .cancelInput:
            shell.dismiss()
        case .edit(let edit):
            composer.input.apply(edit)
            shell.present(.webSocket(composer))
        case .nextNamedMessage:
            guard !composer.named.isEmpty else {
                shell.notice = "\(composer.endpoint) names no messages (websocket: messages: in its catalog)."
                return []
            }
            let next = composer.chosen.map { ($0 + 1) % composer.named.count } ?? 0
            composer.chosen = next
            composer.input = InputState(text: composer.named[next].text)
            shell.present(.webSocket(composer))
        case .accept:
            guard !composer.input.text.isEmpty else {
                shell.notice = "Type a message (Tab: the named ones; Esc closes)."
                return []
            }
            guard let pane = state.panes[composer.endpoint], pane.ticket == composer.ticket, pane.isOpen else {
                shell.dismiss()
                shell.notice = "The WebSocket closed: the message was not sent."
                return []
            }
            shell.dismiss()
            return [.webSocket(.send(ticket: composer.ticket, message: composer.draft))]
        default:
            break
        }
        return []
    }
}

extension AppState {
    /// The WebSocket conversation shown for the selected endpoint, if its latest request opened one.
    package var selectedWebSocket: WebSocketPane? { selectedBodyKey.flatMap { webSocket.panes[$0] } }
}
