import Catalog
import ArgumentParser
import DispatcherCore
import FoundationEssentials
import Sessions
import SystemSupport

extension CallArguments {
    /// A conversation for `call`: the `--message`s are queued (sent in order once it is open), and
    /// `--listen` seconds after it opens it is closed with 1000 normal. Frames print as they come:
    /// plain output prints each received message on its own line (`--include`: every frame, with
    /// arrows and times); `--json` one transcript object per line.
    func webSocketConversation(
        _ settings: WebSocketSettings, selection: EndpointSelection, values: [String: String], captured: [String: CapturedValue],
        mode: RequestMode, catalog: CatalogSet
    ) throws -> CallWebSocket {
        let builder = RequestBuilder(service: selection.service, environment: selection.environment, secrets: SecretStore.load(for: catalog.source))
        var texts: [String] = []
        for message in message {
            guard message.hasPrefix("@") else {
                texts.append(message)
                continue
            }
            let name = String(message.dropFirst())
            guard let named = settings.messages.first(where: { $0.name == name }) else {
                let names = settings.messages.map(\.name)
                Console.error("error: \(selection.endpoint.key) has no message named '\(name)'\(names.isEmpty ? "" : "; it has \(names.joined(separator: ", "))").")
                throw ExitStatus.usage
            }
            do {
                texts.append(try builder.renderMessage(named.text, for: selection.endpoint, values: values, captured: captured))
            } catch {
                Console.error("error: \(error)")
                throw ExitStatus.usage
            }
        }
        let output = CallWebSocket.Output(
            json: json, include: include, safe: Console.cleansBody(safe),
            redactor: reveal
                ? .revealing
                : ServiceSession.makeRedactor(service: selection.service, environment: selection.environment, secrets: builder.secrets)
                    .adding(secretValues: EndpointCall.secretValues(values: values, captured: captured, prompts: selection.endpoint.declaredPrompts)))
        let listen = Duration.seconds(listen)
        let conversation = WebSocketConversation(subprotocols: settings.subprotocols, pingInterval: settings.pingInterval) { event in
            CallWebSocket.print(event, output)
        }
        for text in texts { conversation.send(.text(text)) }
        return CallWebSocket(conversation: conversation, listen: listen)
    }
}

/// `call` on a WebSocket endpoint: the conversation and when it is closed.
struct CallWebSocket: Sendable {
    let conversation: WebSocketConversation

    init(conversation: WebSocketConversation, listen: Duration) {
        self.conversation = conversation
        // Closed `listen` after it opened (or at once when it never opens: then nothing waits).
        Task { [conversation] in
            try? await Task.sleep(for: listen)
            conversation.close()
        }
    }

    /// How frames print: `--json`, `--include`, whether messages are cleaned (`--safe`), and the
    /// redactor masking every secret the conversation may carry (echoed back by the server too).
    struct Output: Sendable {
        var json: Bool
        var include: Bool
        var safe: Bool
        var redactor: Redactor
    }

    /// Prints one event of the conversation: a received message as a body is (masked, cleaned
    /// when `safe`); the head, arrows, pings and close reasons as other text (cleaned on a terminal).
    static func print(_ event: WebSocketEvent, _ output: Output) {
        let redactor = output.redactor
        switch event {
        case .opened(let headers, let subprotocol):
            guard output.include, !output.json else { return }
            let head = Console.head(httpVersion: nil, statusLine: HTTPStatus.line(for: 101), headers: headers, redactor: redactor)
            Console.out(head + (subprotocol.map { "(subprotocol \($0))\n" } ?? ""), terminator: "")
        case .frame(let frame):
            if output.json {
                StandardStreams.writeOutput(redactor.text(WebSocketConversation.line(for: frame)) + "\n")
            } else if output.include {
                let arrow = frame.direction == .sent ? "→" : "←"
                let text: String = switch frame.content {
                case .message(.text(let text)): text
                case .message(.binary(let data)): "binary \(data.count) bytes: \(data.hexText)"
                case .ping(let data): "ping \(data.hexText)"
                case .pong(let data): "pong \(data.hexText)"
                case .close(let close): "close \(close)"
                }
                Console.out(redactor.text("\(arrow) \(text)"))
            } else if frame.direction == .received, case .message(let message) = frame.content {
                switch message {
                case .text(let text): Console.body(Data((redactor.text(text) + "\n").utf8), safe: output.safe)
                case .binary(let data): Console.body(redactor.data(data), safe: output.safe)
                }
            }
        }
    }
}
