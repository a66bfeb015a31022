import DispatcherCore
import Expectations
import FoundationEssentials
import JSONSupport
import YAMLSupport

/// `expect:` of an endpoint, an example or a flow step: what the response should be.
extension CatalogFileDecoder {
    static let expectKeys = ["status", "grpc-status", "headers", "body", "bodySize", "time"]
    static let predicateKeys = [
        "equals", "not", "lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual", "matches", "exists", "type", "count",
        "contains", "includesAll", "startsWith", "endsWith",
    ]
    private static let numericKeys = ["equals", "not", "lessThan", "lessThanOrEqual", "greaterThan", "greaterThanOrEqual"]

    /// How a subject's expected values are written.
    private enum ValueKind {
        /// Any JSON value (bodies, headers).
        case json
        /// A number (status, size, a count).
        case number
        /// A duration, compared in milliseconds (time).
        case duration
    }

    /// `expect: { status: 2xx, headers: {…}, body: { $.id: 7 }, bodySize: {…}, time: { lessThan: 500ms } }`.
    func decodeExpectations(_ node: YAMLNode, _ owner: @autoclosure () -> String) -> ResponseExpectations {
        let what = "the expect of \(owner())"
        guard let fields = entries(node, what, allowed: Self.expectKeys) else { return ResponseExpectations() }
        var assertions: [Assertion] = []
        for field in fields {
            let value = field.value
            switch field.key {
            case "status":
                if let names = rpcStatusNames(value) {
                    assertions += decodeRPCStatusExpectation(value, names, "'status' in \(what)")
                } else {
                    assertions += decodeStatusExpectation(value, "'status' in \(what)")
                }
            case "grpc-status": assertions += decodeRPCStatusExpectation(value, scalars(value), "'grpc-status' in \(what)")
            case "headers":
                guard let headers = entries(value, "'headers' in \(what)") else { continue }
                for header in headers {
                    guard CatalogFileDecoder.isHeaderName(header.key) else {
                        error("'\(header.key)' is not a valid header name in \(what)", at: header.keyNode)
                        continue
                    }
                    assertions += predicates(header.value, "header '\(header.key)' in \(what)", kind: .json, text: true)
                        .map { Assertion(.header(header.key), $0, place: place(of: header.keyNode)) }
                }
            case "body":
                guard let paths = entries(value, "'body' in \(what) (JSONPaths and what they select: $.id: 7)") else { continue }
                for entry in paths {
                    guard let path = jsonPath(entry.keyNode, "the key '\(entry.key)' in 'body' of \(what)") else { continue }
                    assertions += predicates(entry.value, "\(entry.key) in \(what)", kind: .json)
                        .map { Assertion(.body(path), $0, place: place(of: entry.keyNode)) }
                }
            case "bodySize":
                assertions += predicates(value, "'bodySize' in \(what)", kind: .number).map { Assertion(.bodySize, $0, place: place(of: field.keyNode)) }
            case "time":
                guard case .mapping = value.content else {
                    error("'time' in \(what) takes a comparison, like time: { lessThan: 500ms }", at: value)
                    continue
                }
                assertions += predicates(value, "'time' in \(what)", kind: .duration).map { Assertion(.time, $0, place: place(of: field.keyNode)) }
            default: break
            }
        }
        return ResponseExpectations(assertions)
    }

    /// `status: 200`, `status: 2xx`, `status: [200, 204]`, or comparisons (`{ lessThan: 400 }`).
    private func decodeStatusExpectation(_ node: YAMLNode, _ what: @autoclosure () -> String) -> [Assertion] {
        let where_ = place(of: node)
        switch node.content {
        case .mapping: return predicates(node, what(), kind: .number).map { Assertion(.status, $0, place: where_) }
        case .sequence(let items):
            let patterns = items.compactMap { statusPattern($0, "a status in \(what())") }
            guard patterns.count == items.count, !patterns.isEmpty else {
                if items.isEmpty { error("\(what()) is an empty list: give at least one status", at: node) }
                return []
            }
            return [Assertion(.status, .statusIn(patterns), place: where_)]
        case .scalar: return statusPattern(node, what()).map { [Assertion(.status, .statusIn([$0]), place: where_)] } ?? []
        }
    }

    private func statusPattern(_ node: YAMLNode, _ what: @autoclosure () -> String) -> StatusPattern? {
        guard let text = text(node, what()) else { return nil }
        if let pattern = StatusPattern(text) { return pattern }
        error("\(what()) must be a status (100 to 599) or a class of them (2xx), not '\(text)'", at: node)
        return nil
    }

    /// The scalars of a scalar or a list of them, as (text, node); nil for anything else.
    private func scalars(_ node: YAMLNode) -> [(text: String, node: YAMLNode)]? {
        switch node.content {
        case .scalar(let scalar): return [(scalar.text, node)]
        case .sequence(let items):
            var found: [(text: String, node: YAMLNode)] = []
            for item in items {
                guard case .scalar(let scalar) = item.content else { return nil }
                found.append((scalar.text, item))
            }
            return found
        case .mapping: return nil
        }
    }

    /// `status: NOT_FOUND` or `[OK, NOT_FOUND]`: a gRPC status by name (a word, not a number or
    /// `2xx`) makes `status` the call's `grpc-status`; nil when it names HTTP statuses.
    private func rpcStatusNames(_ node: YAMLNode) -> [(text: String, node: YAMLNode)]? {
        guard let found = scalars(node), !found.isEmpty else { return nil }
        let words = found.filter { StatusPattern($0.text) == nil && Int($0.text) == nil && $0.text.allSatisfy { $0.isLetter || $0 == "_" || $0 == "-" } }
        return words.isEmpty ? nil : found
    }

    /// `grpc-status: NOT_FOUND`, `grpc-status: 5`, `grpc-status: [OK, NOT_FOUND]`.
    private func decodeRPCStatusExpectation(_ node: YAMLNode, _ items: [(text: String, node: YAMLNode)]?, _ what: @autoclosure () -> String) -> [Assertion] {
        guard let items, !items.isEmpty else {
            error("\(what()) must be a gRPC status (NOT_FOUND, or 0–16) or a list of them", at: node)
            return []
        }
        var codes: [StatusPattern] = []
        for item in items {
            guard let code = RPCStatus.code(named: item.text) else {
                error(
                    "\(what()) must be a gRPC status code (NOT_FOUND, UNAVAILABLE … or 0–16), not '\(item.text)'"
                        + DidYouMean.hint(for: item.text.uppercased(), among: RPCStatus.codeNames), at: item.node)
                return []
            }
            codes.append(.code(code))
        }
        return [Assertion(.rpcStatus, .statusIn(codes), place: place(of: node))]
    }

    /// A value (equality) or a mapping of predicates, each of which must hold.
    private func predicates(_ node: YAMLNode, _ what: @autoclosure () -> String, kind: ValueKind, text isText: Bool = false) -> [ValuePredicate] {
        guard case .mapping = node.content else {
            if kind == .json, isText { return text(node, what()).map { [.equals(.string($0))] } ?? [] }
            return expectedValue(node, what(), kind: kind).map { [.equals($0)] } ?? []
        }
        let allowed = kind == .json ? Self.predicateKeys : Self.numericKeys
        guard let fields = entries(node, "\(what()) (comparisons: \(allowed.joined(separator: ", ")))", allowed: allowed) else { return [] }
        if case .mapping(let pairs) = node.content, pairs.isEmpty { error("\(what()) holds no comparison", at: node) }
        var result: [ValuePredicate] = []
        for field in fields {
            let value = field.value
            let label = "'\(field.key)' of \(what())"
            switch field.key {
            case "equals": if let wanted = expectedValue(value, label, kind: kind, text: isText) { result.append(.equals(wanted)) }
            case "not": if let unwanted = expectedValue(value, label, kind: kind, text: isText) { result.append(.notEquals(unwanted)) }
            case "lessThan": if let bound = bound(value, label, kind: kind) { result.append(.lessThan(bound)) }
            case "lessThanOrEqual": if let bound = bound(value, label, kind: kind) { result.append(.lessThanOrEqual(bound)) }
            case "greaterThan": if let bound = bound(value, label, kind: kind) { result.append(.greaterThan(bound)) }
            case "greaterThanOrEqual": if let bound = bound(value, label, kind: kind) { result.append(.greaterThanOrEqual(bound)) }
            case "matches":
                guard let pattern = nonEmptyText(value, label) else { continue }
                do {
                    _ = try Regex(pattern)
                    result.append(.matches(pattern))
                } catch {
                    self.error("\(label) is not a regular expression: \(error)", at: value)
                }
            case "exists": if let present = boolean(value, label) { result.append(.exists(present)) }
            case "type":
                guard let name = nonEmptyText(value, label) else { continue }
                if let kind = JSONKind(rawValue: name) {
                    result.append(.isKind(kind))
                } else {
                    let names = JSONKind.allCases.map(\.rawValue)
                    let hint = DidYouMean.hint(for: name, among: names)
                    error("\(label) must be one of \(names.joined(separator: ", ")), not '\(name)'\(hint)", at: value)
                }
            case "count": result += predicates(value, "'count' of \(what())", kind: .number).map { .count($0) }
            case "contains": if let wanted = expectedValue(value, label, kind: .json, text: isText) { result.append(.contains(wanted)) }
            case "includesAll":
                guard case .sequence(let items) = value.content else {
                    error("\(label) must be a list of values, not \(describe(value))", at: value)
                    continue
                }
                let wanted = items.compactMap { json($0, "a value in \(label)") }
                if wanted.count == items.count { result.append(.includesAll(wanted)) }
            case "startsWith": if let prefix = text(value, label) { result.append(.startsWith(prefix)) }
            case "endsWith": if let suffix = text(value, label) { result.append(.endsWith(suffix)) }
            default: break
            }
        }
        return result
    }

    private func expectedValue(_ node: YAMLNode, _ what: @autoclosure () -> String, kind: ValueKind, text isText: Bool = false) -> JSONValue? {
        switch kind {
        case .json: return isText ? text(node, what()).map(JSONValue.string) : json(node, what())
        case .number: return number(node, what()).map(JSONValue.double)
        case .duration: return duration(node, what()).map { .double($0.milliseconds) }
        }
    }

    private func bound(_ node: YAMLNode, _ what: @autoclosure () -> String, kind: ValueKind) -> Double? {
        kind == .duration ? duration(node, what()).map(\.milliseconds) : number(node, what())
    }

    /// `file:line:column` of a node, for failure messages.
    func place(of node: YAMLNode) -> String { "\(file):\(node.line):\(node.column)" }
}
