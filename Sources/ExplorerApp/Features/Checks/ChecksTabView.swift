import Catalog
import Expectations
import TerminalKit

/// The Tests tab's lines: the selected endpoint's assertions on its last response.
enum ChecksTabView {
    static var passedStyle: Style { Theme.status(200) }

    static func lines(_ state: AppState) -> [Line] {
        if state.checks.showsFlow, let run = state.checks.run { return flowLines(run, spinner: state.spinnerFrame) }
        guard let endpoint = state.selectedEndpoint else { return [Line("Pick an endpoint.", style: Theme.dim)] }
        let example = state.selectedExample
        if state.selectedInFlight != nil { return [Line("Waiting for the response: its assertions are checked as it arrives.", style: Theme.dim)] }
        guard let checks = state.checks.results[endpoint.key] else {
            let declared = ChecksFeature.expectations(for: endpoint.key, mode: state.sendMode, example: example, in: state.catalog)
            guard let (expectations, _) = declared, !expectations.isEmpty else { return noExpectations(endpoint) }
            let count = expectations.assertions.count
            return [Line([
                Span("Not sent yet: ", style: Theme.dim), Span(state.keys(.exchanges(.send)), style: Theme.key),
                Span(" sends it; its \(count) assertion\(count == 1 ? "" : "s") are checked as it arrives.", style: Theme.dim),
            ])]
        }
        return lines(checks, endpoint: endpoint)
    }

    static func lines(_ checks: EndpointChecks, endpoint: CatalogEndpoint) -> [Line] {
        let whose: String = switch checks.source {
        case .endpoint: "the endpoint's expect:"
        case .example(let name): "the example '\(name)''s expect:"
        }
        let origin = " · \(whose) · \(checks.call.environment) \(checks.call.mode.badge)"
        if let problem = checks.problem {
            return [
                Line([Span("✗ nothing checked: no response", style: Theme.error), Span(origin, style: Theme.dim)]),
                Line("  " + problem, style: Theme.dim),
            ]
        }
        if checks.outcomes.isEmpty { return noExpectations(endpoint) }
        let failed = checks.failures.count
        let passed = checks.outcomes.count - failed
        var result = [Line([
            Span(failed == 0 ? "✓ all \(passed) passed" : "✗ \(failed) failed", style: failed == 0 ? passedStyle : Theme.error),
            Span(failed == 0 ? "" : ", \(passed) passed", style: .plain),
            Span(origin, style: Theme.dim),
        ]), Line("")]
        for outcome in checks.outcomes {
            if outcome.passed {
                result.append(Line([Span("✓ ", style: passedStyle), Span(outcome.assertion.description)]))
                continue
            }
            result.append(Line([Span("✗ ", style: Theme.error), Span(outcome.assertion.description, style: Theme.heading)]))
            result.append(Line([Span("    expected ", style: Theme.dim), Span(outcome.expected)]))
            result.append(Line([Span("    actual   ", style: Theme.dim), Span(outcome.actual, style: Theme.error)]))
            if !outcome.assertion.place.isEmpty { result.append(Line("    at " + outcome.assertion.place, style: Theme.dim)) }
            result += outcome.diff.map { Line("    " + $0, style: Theme.dim) }
        }
        return result
    }

    /// The flow view: each step with its state and time; the selected one's reason below it.
    static func flowLines(_ run: FlowRun, spinner: Int) -> [Line] {
        let failed = run.steps.count { $0.state == .failed || $0.state == .errored }
        let passed = run.steps.count { $0.state == .passed }
        let status: Span = if !run.isFinished {
            Span(Spinner(frameIndex: spinner).symbol + " running", style: Style(foreground: .cyan))
        } else if failed > 0 {
            Span("✗ failed", style: Theme.error)
        } else {
            Span("✓ passed", style: passedStyle)
        }
        var result = [
            Line([
                Span("\(run.heading) ", style: Theme.heading), status,
                Span(" · \(passed)/\(run.steps.count) \(run.rowNoun)s passed · \(run.environment.environment) \(run.mode.badge)", style: Theme.dim),
            ]),
            Line(run.title, style: Theme.dim),
            Line(""),
        ]
        for (index, step) in run.steps.enumerated() {
            let selected = index == run.selected
            let (mark, style): (String, Style) = switch step.state {
            case .pending: ("·", Theme.dim)
            case .running: (Spinner(frameIndex: spinner).symbol, Style(foreground: .cyan))
            case .passed: ("✓", passedStyle)
            case .failed, .errored: ("✗", Theme.error)
            case .skipped: ("-", Theme.dim)
            }
            var spans = [
                Span(selected ? "› " : "  ", style: Theme.key), Span(mark + " ", style: style),
                Span(step.name, style: selected ? Theme.heading : .plain),
                Span("  \(step.endpoint.endpoint) · \(step.state.rawValue)", style: Theme.dim),
            ]
            if let duration = step.duration { spans.append(Span(" · " + milliseconds(duration), style: Theme.dim)) }
            if step.attempts > 1 { spans.append(Span(" · \(step.attempts) attempts", style: Theme.dim)) }
            if let status = step.response?.exchange.response?.status { spans.append(Span(" · \(status)", style: Theme.status(status))) }
            result.append(Line(spans))
            if let reason = step.reason, selected || step.state == .failed || step.state == .errored {
                result.append(Line("      " + reason, style: step.state == .passed ? Theme.dim : Theme.error))
            }
        }
        result.append(Line(""))
        result.append(Line([
            Span("n", style: Theme.key), Span("/", style: Theme.dim), Span("N", style: Theme.key), Span(" \(run.rowNoun) · ", style: Theme.dim),
            Span("o", style: Theme.key), Span(" its response in the Body tab · ", style: Theme.dim),
            Span("f", style: Theme.key), Span(" the endpoint's checks", style: Theme.dim),
        ]))
        return result
    }

    /// `12 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let total = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return total < 10 ? "\((total * 10).rounded() / 10) ms" : "\(Int(total.rounded())) ms"
    }

    /// The window of the active service's flows.
    static func renderFlowPicker(_ list: ListState, state: AppState, screen: Rect, into buffer: inout Buffer) {
        let flows = state.activeService?.flows ?? []
        let items = flows.map { flow in
            Line([Span(flow.id), Span("  \(flow.title) · \(flow.steps.count) steps", style: Theme.dim)])
        }
        let window = Overlay(
            block: OverlayView.block("Flows of \(state.activeService?.id ?? "")", hint: "\(state.keys(.choose)) runs"), width: .cells(70),
            height: .cells(min(items.count, 16) + 2))
        ListView(items, highlightStyle: Theme.highlight, highlightSymbol: "› ")
            .render(into: &buffer, area: OverlayView.prepare(window, in: screen, buffer: &buffer), state: list)
    }

    /// What an endpoint without `expect:` shows: how to add one.
    static func noExpectations(_ endpoint: CatalogEndpoint) -> [Line] {
        [
            Line("\(endpoint.id) has no expect: nothing is checked.", style: Theme.dim),
            Line("Add one to the endpoint in its catalog file (environments/README.md, Tests), e.g.:", style: Theme.dim),
            Line("    expect:"),
            Line("      status: 2xx"),
            Line("      body: { $.id: { type: integer } }"),
        ]
    }
}
