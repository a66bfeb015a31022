import Catalog
import DispatcherCore
import TerminalKit

/// WebSocket conversations: frames listed as they come, messages typed (`m`) or picked from the
/// catalog's named ones, Esc closes with a normal closure (a second Esc drops the connection).
extension AppReducer {
    static func webSocketUpdated(ticket: Int, update: WebSocketUpdate, state: inout AppState) -> [AppEffect] {
        guard let key = state.inFlight[ticket]?.endpoint else { return [] }
        var effects: [AppEffect] = []
        if let opened = update.opened {
            effects += stopBodyWork(key, state: &state)
            state.streams[key] = nil
            state.webSockets[key] = WebSocketPane(ticket: ticket, headers: opened.headers, subprotocol: opened.subprotocol)
            state.appendLog(["#\(ticket) ⇅ WebSocket open\(opened.subprotocol.map { " (subprotocol \($0))" } ?? "")"])
        }
        guard state.webSockets[key]?.ticket == ticket else { return effects }
        // In place: a copy of the pane would copy every frame so far, once per report.
        state.webSockets[key]?.append(update.frames)
        for frame in update.frames {
            guard case .close(let close) = frame.content else { continue }
            state.appendLog(["#\(ticket) ⇅ close \(frame.direction == .sent ? "sent" : "received"): \(close)"])
        }
        return effects
    }

    /// The conversation's request ended: nothing more comes.
    static func webSocketEnded(ticket: Int, key: EndpointKey, state: inout AppState) {
        guard state.webSockets[key]?.ticket == ticket else { return }
        state.webSockets[key]?.isOpen = false
        if case .message(let composer)? = state.overlay, composer.ticket == ticket {
            state.overlay = nil
            state.notice = "The WebSocket closed: the message was not sent."
        }
    }

    /// `m`: the composer for the selected endpoint's open conversation.
    static func openMessageComposer(state: inout AppState) -> [AppEffect] {
        guard let endpoint = state.selectedEndpoint else { return [] }
        guard let settings = endpoint.webSocket else {
            state.notice = "m sends a message on a WebSocket endpoint; \(endpoint.key) is plain HTTP."
            return []
        }
        guard let pane = state.webSockets[endpoint.key], pane.isOpen, !pane.isClosing else {
            state.notice = "Open the WebSocket first (Enter): m types a message once it is open."
            return []
        }
        let named = settings.messages.map { MessageComposer.NamedText(name: $0.name, text: $0.text) }
        state.overlay = .message(MessageComposer(ticket: pane.ticket, endpoint: endpoint.key, named: named))
        return []
    }

    /// Keys while a message is typed.
    static func typeInComposer(_ command: Command, composer: MessageComposer, state: inout AppState) -> [AppEffect] {
        var composer = composer
        switch command {
        case .cancelInput:
            state.overlay = nil
        case .edit(let edit):
            composer.input.apply(edit)
            state.overlay = .message(composer)
        case .nextNamedMessage:
            guard !composer.named.isEmpty else {
                state.notice = "\(composer.endpoint) names no messages (websocket: messages: in its catalog)."
                return []
            }
            let next = composer.chosen.map { ($0 + 1) % composer.named.count } ?? 0
            composer.chosen = next
            composer.input = InputState(text: composer.named[next].text)
            state.overlay = .message(composer)
        case .accept:
            guard !composer.input.text.isEmpty else {
                state.notice = "Type a message (Tab: the named ones; Esc closes)."
                return []
            }
            guard let pane = state.webSockets[composer.endpoint], pane.ticket == composer.ticket, pane.isOpen else {
                state.overlay = nil
                state.notice = "The WebSocket closed: the message was not sent."
                return []
            }
            state.overlay = nil
            return [.sendWebSocketMessage(ticket: composer.ticket, message: composer.draft)]
        default:
            break
        }
        return []
    }

    /// Esc on an open conversation: the closing handshake first; a second Esc drops the connection.
    static func closeWebSocket(state: inout AppState) -> [AppEffect]? {
        guard let ticket = state.selectedInFlight, var pane = state.webSockets[ticket.endpoint], pane.ticket == ticket.id, pane.isOpen,
            !pane.isClosing
        else { return nil }
        pane.isClosing = true
        state.webSockets[ticket.endpoint] = pane
        state.notice = "Closing the WebSocket of \(ticket.endpoint) (1000 normal); Esc again drops the connection."
        return [.closeWebSocket(ticket: ticket.id)]
    }

    /// Moves the cursor in the selected conversation's frames; false when the Body tab shows none.
    static func moveInFrames(_ movement: Movement, paging: Bool = false, state: inout AppState) -> Bool {
        guard state.tab == .body, let key = state.selectedBodyKey, var pane = state.webSockets[key], let current = pane.selectedIndex else {
            return false
        }
        pane.cursor = followingCursor(movement, paging: paging, from: current, count: pane.frames.count, pageHeight: state.pageHeight)
        state.webSockets[key] = pane
        return true
    }
}

extension AppState {
    /// The WebSocket conversation shown for the selected endpoint, if its latest request opened one.
    package var selectedWebSocket: WebSocketPane? { selectedBodyKey.flatMap { webSockets[$0] } }
}
