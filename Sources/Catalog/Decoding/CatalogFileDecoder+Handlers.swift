import DispatcherCore
import TextSupport
import YAMLSupport

extension CatalogFileDecoder {
    static let handlerKeys = ["on", "do", "limit", "backoff", "message", "example"]
    static let handlerMatchKeys = ["status", "kind", "transport", "any"]

    /// A list of handlers (`handlers:`, `results:`, an endpoint's `handlers:`). `what` names the list
    /// in messages; `results` allows only what a result handler can do.
    func decodeHandlerRules(_ node: YAMLNode, _ what: String, results: Bool = false) -> [HandlerRule] {
        guard case .sequence(let sequence) = node.content else {
            error("\(what) must be a list of handlers (- on: 401, do: refresh), not \(describe(node))", at: node)
            return []
        }
        return sequence.enumerated().compactMap { index, element in
            decodeHandlerRule(element, subject: "\(what) \(index + 1)", results: results)
        }
    }

    private func decodeHandlerRule(_ node: YAMLNode, subject: String, results: Bool) -> HandlerRule? {
        guard let fields = entries(node, subject, allowed: Self.handlerKeys) else { return nil }
        require(["do"], in: fields, of: node, subject)
        let before = errorCount
        let field = { (key: String) in fields.first { $0.key == key } }
        guard let doNode = field("do")?.value, let actionName = nonEmptyText(doNode, "'do' of \(subject)") else { return nil }
        guard HandlerRule.Action.names.contains(actionName) else {
            error("'\(actionName)' is not a handler action (\(HandlerRule.Action.names.joined(separator: ", ")))"
                + DidYouMean.hint(for: actionName, among: HandlerRule.Action.names), at: doNode)
            return nil
        }
        if results, actionName != "signOut" {
            error("a result handler can only signOut (it sees the result after the error handlers), not \(actionName)", at: doNode)
            return nil
        }
        // Keys that belong to another action are mistakes worth saying.
        let extras: [String: [String]] = ["retry": ["limit", "backoff"], "message": ["message"], "recover": ["example"]]
        for entry in fields where !["on", "do"].contains(entry.key) && !(extras[actionName] ?? []).contains(entry.key) {
            error("'\(entry.key)' does not apply to \(actionName) in \(subject)", at: entry.keyNode)
        }
        let action: HandlerRule.Action
        switch actionName {
        case "refresh":
            action = .refresh
        case "signOut":
            action = .signOut
        case "retry":
            let limit = field("limit").flatMap { integer($0.value, "'limit' of \(subject)", in: 1...10) } ?? 2
            let backoff = field("backoff").flatMap { duration($0.value, "'backoff' of \(subject)") } ?? .seconds(1)
            action = .retry(limit: limit, backoff: backoff)
        case "message":
            require(["message"], in: fields, of: node, subject)
            action = .message(field("message").flatMap { nonEmptyText($0.value, "'message' of \(subject)") } ?? "")
        default:
            require(["example"], in: fields, of: node, subject)
            action = .recover(example: field("example").flatMap { nonEmptyText($0.value, "'example' of \(subject)") } ?? "")
        }
        var matcher = HandlerRule.Matcher.any
        if let on = field("on") {
            if action == .refresh {
                error("a refresh takes its triggers from auth.refresh.on; leave 'on' out of \(subject)", at: on.keyNode)
            } else if let decoded = decodeHandlerMatcher(on.value, subject) {
                matcher = decoded
            }
        } else if action == .refresh {
            matcher = .refreshTriggers
        } else if action != .signOut, !results {
            warning("\(subject) has no 'on', so it takes every error (a fallback: put it last)", at: node)
        }
        guard errorCount == before else { return nil }
        return HandlerRule(matcher: matcher, action: action, name: "\(actionName) \(Self.describe(matcher)) (\(fileName):\(node.line))")
    }

    /// `401`, `4xx`, `[401, 403]`, `any`, or `{ status: … }`, `{ kind: … }`, `{ transport: … }`, `{ any: true }`.
    private func decodeHandlerMatcher(_ node: YAMLNode, _ subject: String) -> HandlerRule.Matcher? {
        guard case .mapping = node.content else {
            if case .scalar(let scalar) = node.content, scalar.text == "any" { return .any }
            return decodeStatusMatchForHandler(node, subject).map(HandlerRule.Matcher.statuses)
        }
        guard let fields = entries(node, "'on' of \(subject)", allowed: Self.handlerMatchKeys) else { return nil }
        guard fields.count == 1, let only = fields.first else {
            error("'on' of \(subject) takes one of status, kind, transport or any", at: node)
            return nil
        }
        switch only.key {
        case "status":
            return decodeStatusMatchForHandler(only.value, subject).map(HandlerRule.Matcher.statuses)
        case "kind":
            let names = textList(only.value, "'on.kind' of \(subject)")
            for (name, item) in names where !ErrorKind.builtInNames.contains(name) {
                if let builtIn = DidYouMean.suggestion(for: name, among: ErrorKind.builtInNames) {
                    warning("'\(name)' is not a built-in error kind, so it is a custom one; did you mean '\(builtIn)'?", at: item)
                }
            }
            return names.isEmpty ? nil : .kinds(Set(names.map(\.0)))
        case "transport":
            var codes: Set<TransportError.Code> = []
            let known = TransportError.Code.allCases.map(\.rawValue)
            for (name, item) in textList(only.value, "'on.transport' of \(subject)") {
                if let code = TransportError.Code(rawValue: name) {
                    codes.insert(code)
                } else {
                    error("'\(name)' is not a transport error code\(DidYouMean.hint(for: name, among: known))", at: item)
                }
            }
            return codes.isEmpty ? nil : .transport(codes)
        default:
            return boolean(only.value, "'on.any' of \(subject)") == true ? .any : nil
        }
    }

    private func decodeStatusMatchForHandler(_ node: YAMLNode, _ subject: String) -> ErrorRule.StatusMatch? {
        decodeStatusMatch(node, "'on' of \(subject)")
    }

    /// A text or a list of texts, each with its node.
    private func textList(_ node: YAMLNode, _ what: String) -> [(String, YAMLNode)] {
        let items: [YAMLNode] = if case .sequence(let sequence) = node.content { Array(sequence) } else { [node] }
        return items.compactMap { item in nonEmptyText(item, what).map { ($0, item) } }
    }

    /// `on 401`, `on 5xx`, `on tooManyRequests`, `on timedOut`, `on any error`.
    static func describe(_ matcher: HandlerRule.Matcher) -> String {
        switch matcher {
        case .statuses(.codes(let codes)): "on " + slashed(codes.sorted().map(String.init))
        case .statuses(.range(let range)):
            range.count == 100 && range.lowerBound % 100 == 0 ? "on \(range.lowerBound / 100)xx" : "on \(range.lowerBound)-\(range.upperBound)"
        case .statuses(.any), .any: "on any error"
        case .kinds(let names): "on " + slashed(names.sorted())
        case .transport(let codes): "on " + slashed(codes.map(\.rawValue).sorted())
        case .refreshTriggers: "on auth.refresh.on"
        }
    }

    /// `a/b/c`. Not `joined(separator:)`: every catalog with handlers is described at launch, and
    /// that generic's first call looks its witnesses up by name (~390,000 instructions).
    private static func slashed(_ words: [String]) -> String {
        var text = words.first ?? ""
        for word in words.dropFirst() { text += "/" + word }
        return text
    }
}
