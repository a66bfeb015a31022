import Expectations
import JSONSupport
import YAMLSupport

/// `flows:` of a service: named, ordered steps over its endpoints.
extension CatalogFileDecoder {
    static let flowKeys = ["title", "description", "steps"]
    static let stepKeys = ["name", "endpoint", "example", "variables", "body", "captures", "expect", "until", "every", "atMost", "parallel"]

    /// Each flow; one with an error is left out alone.
    func decodeFlows(_ node: YAMLNode, endpoints: [CatalogEndpoint]) -> [Flow] {
        guard let entries = entries(node, "'flows'") else { return [] }
        var flows: [Flow] = []
        for entry in entries {
            if let flow = isolated({ decodeFlow(entry, endpoints: endpoints) }) { flows.append(flow) }
        }
        return flows
    }

    private func decodeFlow(_ entry: Entry, endpoints: [CatalogEndpoint]) -> Flow? {
        guard identifier(entry.key, at: entry.keyNode, "flow") else { return nil }
        let subject = "flow '\(entry.key)'"
        guard let fields = entries(entry.value, subject, allowed: Self.flowKeys) else { return nil }
        require(["steps"], in: fields, of: entry.keyNode, subject)
        var title: String?
        var summary: String?
        var stages: [FlowStage] = []
        var names: Set<String> = []
        for field in fields {
            switch field.key {
            case "title": title = text(field.value, "the title of \(subject)")
            case "description": summary = text(field.value, "the description of \(subject)")
            case "steps":
                let items = list(field.value, "the steps of \(subject)")
                if items.isEmpty, case .sequence = field.value.content { error("\(subject) has no steps", at: field.value) }
                for item in items {
                    if let stage = decodeStage(item, endpoints: endpoints, names: &names, subject) { stages.append(stage) }
                }
            default: break
            }
        }
        return Flow(
            id: entry.key, title: title, summary: summary, stages: stages,
            location: SourceLocation(file: file, line: entry.keyNode.line, column: entry.keyNode.column))
    }

    /// A step, or `parallel: [steps]`.
    private func decodeStage(_ node: YAMLNode, endpoints: [CatalogEndpoint], names: inout Set<String>, _ flow: String) -> FlowStage? {
        if case .mapping(let pairs) = node.content, pairs.count == 1, let pair = pairs.first, pair.key.scalar?.text == "parallel" {
            let items = list(pair.value, "'parallel' in \(flow)")
            if items.isEmpty { error("'parallel' in \(flow) needs a list of steps", at: pair.value) }
            var steps: [FlowStep] = []
            for item in items {
                if case .mapping(let inner) = item.content, inner.contains(where: { $0.key.scalar?.text == "parallel" }) {
                    error("'parallel' steps of \(flow) cannot hold another 'parallel'", at: item)
                    continue
                }
                if let step = decodeStep(item, endpoints: endpoints, names: &names, flow) { steps.append(step) }
            }
            return .parallel(steps)
        }
        return decodeStep(node, endpoints: endpoints, names: &names, flow).map(FlowStage.step)
    }

    private func decodeStep(_ node: YAMLNode, endpoints: [CatalogEndpoint], names: inout Set<String>, _ flow: String) -> FlowStep? {
        let what = "a step of \(flow)"
        guard let fields = entries(node, what, allowed: Self.stepKeys) else { return nil }
        if let parallel = fields.first(where: { $0.key == "parallel" }) {
            error("'parallel' stands alone in \(what): - parallel: [ {endpoint: a}, {endpoint: b} ]", at: parallel.keyNode)
            return nil
        }
        require(["endpoint"], in: fields, of: node, what)
        guard let endpointField = fields.first(where: { $0.key == "endpoint" }), let id = nonEmptyText(endpointField.value, "the endpoint of \(what)") else {
            return nil
        }
        guard let endpoint = endpoints.first(where: { $0.id == id }) else {
            let hint = DidYouMean.hint(for: id, among: endpoints.map(\.id))
            error("\(what) names endpoint '\(id)', which the service does not have (or which has errors)\(hint)", at: endpointField.value)
            return nil
        }
        var step = FlowStep(name: id, endpoint: id, location: SourceLocation(file: file, line: node.line, column: node.column))
        var stepWhat: String { "step '\(step.name)' of \(flow)" }
        var nameNode = node
        var pollNodes: [Entry] = []
        for field in fields {
            let value = field.value
            switch field.key {
            case "name":
                if let name = nonEmptyText(value, "the name of \(what)"), identifier(name, at: value, "step") {
                    step.name = name
                    nameNode = value
                }
            case "example":
                guard let example = nonEmptyText(value, "the example of \(what)") else { continue }
                if endpoint.exampleNames.contains(example) {
                    step.example = example
                } else {
                    let hint = DidYouMean.hint(for: example, among: endpoint.exampleNames)
                    error("endpoint '\(id)' has no example '\(example)'\(hint)", at: value)
                }
            case "variables": step.values = textDictionary(value, "the variables of \(what)") ?? [:]
            case "body":
                if case .scalar(let scalar) = value.content, case .string(let text) = YAMLScalar(scalar) {
                    step.body = .text(text, isJSON: false)
                } else if let json = json(value, "the body of \(what)") {
                    step.body = .text(json.compactText, isJSON: true)
                }
                warnAboutLiteralCredentials(in: value, "the body of \(what)")
            case "captures": step.captures = decodeCaptures(value, what)
            case "expect": step.expectations = decodeExpectations(value, what)
            case "until": step.until = decodeUntil(value, what)
            case "every", "atMost":
                pollNodes.append(field)
                guard let duration = duration(value, "'\(field.key)' of \(what)") else { continue }
                if duration <= .zero { error("'\(field.key)' of \(what) must be more than zero", at: value); continue }
                if field.key == "every" { step.interval = duration } else { step.limit = duration }
            default: break
            }
        }
        if step.until == nil, let poll = pollNodes.first {
            error("'\(poll.key)' of \(what) goes with 'until' (poll until a condition holds)", at: poll.keyNode)
        }
        if step.interval > step.limit, let poll = pollNodes.first {
            error("'every' of \(stepWhat) is longer than its 'atMost'", at: poll.keyNode)
        }
        guard names.insert(step.name).inserted else {
            error("\(flow) has two steps named '\(step.name)': give one a 'name'", at: nameNode)
            return nil
        }
        return step
    }

    /// `until: '$.status == "done"'`, a list of such lines (all must hold), or an `expect:`-like mapping.
    private func decodeUntil(_ node: YAMLNode, _ what: @autoclosure () -> String) -> ResponseExpectations? {
        if case .mapping = node.content { return decodeExpectations(node, "'until' of \(what())") }
        let lines: [YAMLNode] = if case .sequence = node.content { list(node, "'until' of \(what())") } else { [node] }
        var assertions: [Assertion] = []
        for line in lines {
            guard let text = nonEmptyText(line, "'until' of \(what())") else { return nil }
            switch Condition.parse(text) {
            case .success(var assertion):
                assertion.place = place(of: line)
                assertions.append(assertion)
            case .failure(let problem):
                error("'until' of \(what()): \(problem.message)", at: line)
                return nil
            }
        }
        return ResponseExpectations(assertions)
    }
}
