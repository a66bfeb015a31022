import DispatcherCore
import JSONSupport
import YAMLSupport

extension CatalogFileDecoder {
    static let webSocketKeys = ["subprotocols", "messages", "script", "ping"]
    static let scriptStepKeys = ["send", "receive", "echo", "close", "after", "reason"]

    /// `websocket: true`, or a mapping: `subprotocols`, named `messages` (text, or YAML written as
    /// JSON), the stub's `script`, and a keep-alive `ping` interval.
    func decodeWebSocket(_ node: YAMLNode, _ subject: String) -> WebSocketSettings? {
        guard case .mapping = node.content else {
            guard let isSocket = boolean(node, "'websocket' of \(subject) (true, or a mapping with subprotocols, messages, script, ping)") else {
                return nil
            }
            return isSocket ? WebSocketSettings() : nil
        }
        guard let fields = entries(node, "'websocket' of \(subject)", allowed: Self.webSocketKeys) else { return nil }
        var settings = WebSocketSettings()
        for field in fields {
            switch field.key {
            case "subprotocols":
                settings.subprotocols = list(field.value, "'subprotocols' of \(subject)").compactMap {
                    nonEmptyText($0, "a subprotocol of \(subject)")
                }
            case "messages":
                guard let messages = entries(field.value, "'messages' of \(subject)") else { continue }
                settings.messages = messages.compactMap { message in
                    guard let text = messageText(message.value, "message '\(message.key)' of \(subject)") else { return nil }
                    return WebSocketSettings.NamedMessage(name: message.key, text: text)
                }
            case "script": settings.script = decodeScript(field.value, subject)
            case "ping": settings.pingInterval = duration(field.value, "'ping' of \(subject) (how often to ping the server)")
            default: break
            }
        }
        return settings
    }

    /// A message: text as written; a mapping or a list is written as compact JSON.
    private func messageText(_ node: YAMLNode, _ what: @autoclosure () -> String) -> String? {
        switch node.content {
        case .scalar: return text(node, what())
        default: return compactJSON(node, what())
        }
    }

    /// The stub's far end: `- send: …` (with `after:`), `- receive`, `- echo`, `- close: 1000` (with `reason:`).
    private func decodeScript(_ node: YAMLNode, _ subject: String) -> WebSocketScript? {
        var steps: [WebSocketScript.Step] = []
        for item in list(node, "'script' of \(subject)") {
            let what = "a step of the script of \(subject)"
            if case .scalar(let scalar) = item.content {
                switch scalar.text {
                case "receive": steps.append(.receive)
                case "echo": steps.append(.echo)
                case "close": steps.append(.close(WebSocketClose(), after: nil))
                default:
                    error("\(what) must be send, receive, echo or close, not '\(scalar.text)'\(DidYouMean.hint(for: scalar.text, among: ["receive", "echo", "close"]))", at: item)
                }
                continue
            }
            guard let fields = entries(item, what, allowed: Self.scriptStepKeys) else { continue }
            let after = fields.first { $0.key == "after" }.flatMap { duration($0.value, "'after' in \(what)") }
            let actions = fields.filter { ["send", "receive", "echo", "close"].contains($0.key) }
            guard actions.count == 1, let action = actions.first else {
                error("\(what) needs exactly one of send, receive, echo or close", at: item)
                continue
            }
            switch action.key {
            case "send":
                if let text = messageText(action.value, "'send' in \(what)") { steps.append(.send(.text(text), after: after)) }
            case "close":
                let reason = fields.first { $0.key == "reason" }.flatMap { text($0.value, "'reason' in \(what)") } ?? ""
                let code = isNull(action.value) ? 1000 : integer(action.value, "the close code in \(what)", in: 1000...4999)
                guard let code else { continue }
                let close = WebSocketCloseCode(code)
                guard close.isSendable else {
                    error("close code \(code) in \(what) is never sent on the wire (RFC 6455 §7.4.1); use 1000–1003, 1007–1014 or 3000–4999", at: action.value)
                    continue
                }
                steps.append(.close(WebSocketClose(code: close, reason: reason), after: after))
            case "receive": steps.append(.receive)
            default: steps.append(.echo)
            }
        }
        return WebSocketScript(steps: steps)
    }
}
