import Catalog
import DispatcherCore
import ExplorerApp
import Sessions
import Synchronization

/// The open WebSocket conversations, by ticket: where `m` messages and Esc's close go. As a kind
/// of exchange, a WebSocket endpoint's request is its conversation: registered when it is sent, in
/// flight until it closes, removed when it finishes.
final class WebSocketEffects: ExchangeKind {
    /// A conversation with what its messages' placeholders are filled from.
    struct Open: Sendable {
        let conversation: WebSocketConversation
        let relay: WebSocketRelay
        let session: ServiceSession
        let endpoint: CatalogEndpoint
        let call: EndpointCall
    }

    private let open = Mutex<[Int: Open]>([:])

    private let clock: DispatchClock

    init(clock: DispatchClock) { self.clock = clock }

    func part(in request: OutgoingRequest) -> (any ExchangePart)? {
        guard let settings = request.endpoint.webSocket else { return nil }
        let ticket = request.ticket.id
        let relay = WebSocketRelay(ticket: ticket, post: request.post)
        let conversation = WebSocketConversation(
            subprotocols: settings.subprotocols, pingInterval: settings.pingInterval, clock: clock, onEvent: relay.observe)
        open.withLock { $0[ticket] = Open(conversation: conversation, relay: relay, session: request.session, endpoint: request.endpoint, call: request.call) }
        return Conversation(conversation: conversation, relay: relay, ticket: ticket, effects: self)
    }

    /// One request's conversation.
    struct Conversation: ExchangePart {
        let conversation: WebSocketConversation
        let relay: WebSocketRelay
        let ticket: Int
        let effects: WebSocketEffects

        func prepare(_ options: inout RequestOptions) { options.webSocket = conversation }

        func ended(_ exchange: inout Exchange) {
            effects.remove(ticket: ticket)
            relay.flush()
        }
    }

    func remove(ticket: Int) {
        _ = open.withLock { $0.removeValue(forKey: ticket) }
    }

    /// Open conversations that wait with nothing to report (not work under way).
    var waitingCount: Int {
        open.withLock { $0.values.count { $0.relay.isSettled && !$0.conversation.hasUnsentFrames && !$0.conversation.isFinished } }
    }

    func perform(_ effect: WebSocketEffect, _ context: EffectContext) {
        switch effect {
        case .send(let ticket, let message):
            send(message, on: ticket, context)
        case .close(let ticket):
            open.withLock { $0[ticket] }?.conversation.close()
        }
    }

    /// Sends a message on an open conversation, a named one with its placeholders filled.
    private func send(_ message: WebSocketDraft, on ticket: Int, _ context: EffectContext) {
        guard let open = open.withLock({ $0[ticket] }) else {
            context.post(.webSocket(.messageRefused("The WebSocket closed: the message was not sent.")))
            return
        }
        switch message {
        case .typed(let text):
            open.conversation.send(.text(text))
        case .named(let name):
            guard let text = open.endpoint.webSocket?.messages.first(where: { $0.name == name })?.text else { return }
            do {
                let rendered = try open.session.builder.renderMessage(text, for: open.endpoint, values: open.call.values, captured: open.call.captured)
                // A message may carry a secret: the logs and the transcript mask it like any other.
                open.session.secretRegistry.register(EndpointCall.secretValues(values: open.call.values, captured: open.call.captured, prompts: open.endpoint.declaredPrompts))
                open.conversation.send(.text(rendered))
            } catch {
                context.post(.webSocket(.messageRefused("Message '\(name)' was not sent: \(error)")))
            }
        }
    }
}
