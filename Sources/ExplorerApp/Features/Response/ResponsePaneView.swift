import BodyViewer
import DispatcherCore
import TerminalKit

/// Tabs, a one-line summary of the last result, and the selected tab's content.
enum ResponsePaneView {
    static func tabs(for state: AppState) -> Tabs {
        Tabs(ResponseTab.allCases.map(\.title), shortTitles: ResponseTab.allCases.map(\.shortTitle), selected: state.tab.rawValue - 1, isNumbered: true)
    }

    /// Draws the pane; returns where the terminal cursor goes when an input line is open (Body, Edit, Vars).
    @discardableResult
    static func render(_ state: AppState, area: Rect, into buffer: inout Buffer) -> Position? {
        let focused = state.focus == .response
        let endpointTitle = state.selectedEndpoint.map { Line(" \($0.key) ", style: Theme.dim) }
        let block = AppView.block("Response", focused: focused, rightTitle: endpointTitle)
        block.render(into: &buffer, area: area)
        let inner = block.inner(area)
        guard inner.height >= 3 else { return nil }
        tabs(for: state).render(into: &buffer, area: inner.row(0))
        buffer.write(summary(state).truncated(toWidth: inner.width), in: inner.row(1))
        let content = inner.inset(top: 2)
        switch state.tab {
        case .edit: return EditTabView.render(state, content: content, into: &buffer)
        case .variables: return VariablesTabView.render(state, content: content, into: &buffer)
        default: break
        }
        if state.tab == .body, let pane = state.selectedWebSocket {
            WebSocketView.render(pane, state: state, content: content, into: &buffer)
            return nil
        }
        if state.tab == .body, let stream = state.selectedStream, stream.kind == .events {
            EventStreamView.render(stream, state: state, content: content, into: &buffer)
            return nil
        }
        if state.tab == .body, let pane = state.selectedBodyPane, pane.isStreamed || state.selectedResponse?.exchange.response != nil {
            return BodyPaneView.render(pane, state: state, content: content, into: &buffer)
        }

        let (lines, wraps) = ResponseText.text(state.tab, state: state)
        if lines.isEmpty {
            buffer.write(emptyMessage(state), in: content.row(0))
            return nil
        }
        var view = TextView(lines, wraps: wraps)
        let maximum = view.maxVerticalOffset(viewport: content.size)
        view.verticalOffset = min(state.tabScroll[state.tab] ?? (state.tab == .log ? maximum : 0), maximum)
        view.render(into: &buffer, area: content)
        return nil
    }

    /// What the tab shows when there is nothing yet.
    static func emptyMessage(_ state: AppState) -> Line {
        if state.tab == .log { return Line("The network log is empty: send a request.", style: Theme.dim) }
        return Line("")
    }

    /// One line: the result of the selected endpoint, or what Enter would do.
    static func summary(_ state: AppState) -> Line {
        if let ticket = state.selectedInFlight, let pane = state.selectedWebSocket, pane.ticket == ticket.id {
            let counts = pane.messageCounts
            return Line([
                Span(Spinner(frameIndex: state.spinnerFrame).symbol + " ", style: Style(foreground: .cyan)),
                Span(HTTPStatus.line(for: 101), style: Theme.status(101)),
                Span(" · WebSocket \(pane.isClosing ? "closing" : "open") · ↑ \(counts.sent) ↓ \(counts.received)", style: .plain),
                Span(" · \(ticket.call.environment) \(ticket.call.mode.badge) · ", style: Theme.dim),
                Span("m", style: Theme.key), Span(" sends · ", style: Theme.dim),
                Span("Esc", style: Theme.key), Span(" closes", style: Theme.dim),
            ])
        }
        if let ticket = state.selectedInFlight, let stream = state.selectedStream, stream.ticket == ticket.id {
            let amount = stream.kind == .events
                ? "\(BodyNumberFormat.grouped(stream.events.count)) event\(stream.events.count == 1 ? "" : "s")" : ByteCount.format(stream.byteCount)
            return Line([
                Span(Spinner(frameIndex: state.spinnerFrame).symbol + " ", style: Style(foreground: .cyan)),
                Span(HTTPStatus.line(for: stream.status), style: Theme.status(stream.status)),
                Span(" · streaming · \(amount)", style: .plain),
                Span(" · \(ticket.call.environment) \(ticket.call.mode.badge) · ", style: Theme.dim),
                Span("Esc", style: Theme.key), Span(" closes", style: Theme.dim),
            ])
        }
        if let ticket = state.selectedInFlight, let prompt = state.auth.signInPrompts[ticket.call.environmentKey] {
            return Line([
                Span(Spinner(frameIndex: state.spinnerFrame).symbol + " ", style: Style(foreground: .cyan)),
                Span("Sign in: open ", style: .plain), Span(prompt.verificationURL, style: Theme.key),
                Span(prompt.userCode.isEmpty ? " in a browser" : " and enter ", style: .plain), Span(prompt.userCode, style: Theme.heading),
                Span(" · URL copied · Esc cancels", style: Theme.dim),
            ])
        }
        if let ticket = state.selectedInFlight {
            return Line([
                Span(Spinner(frameIndex: state.spinnerFrame).symbol + " ", style: Style(foreground: .cyan)),
                Span("Sending to \(ticket.call.environment) (\(ticket.call.mode.badge))", style: .plain),
                Span(ticket.call.example.map { " · example \($0)" } ?? "", style: Theme.dim),
                Span(" · Esc cancels", style: Theme.dim),
            ])
        }
        guard let record = state.selectedResponse else {
            guard let request = state.editedRequest, let environment = state.activeEnvironment else {
                return Line("Pick an endpoint.", style: Theme.dim)
            }
            // The key that sends here (in the Edit and Vars tabs Enter changes a row: C-s sends).
            let key = state.keys(.exchanges(.send))
            return Line([
                Span("Not sent yet. ", style: Theme.dim), Span(key, style: Theme.key),
                Span(" sends \(request.method.rawValue) \(request.path) to \(environment.name) (\(state.sendMode.badge))", style: Theme.dim),
                Span(request.edits.isEmpty ? "." : " with its edits ✎.", style: request.edits.isEmpty ? Theme.dim : Theme.notice),
            ])
        }
        let exchange = record.exchange
        var spans: [Span] = []
        if let response = exchange.response {
            spans.append(Span(response.statusLine, style: Theme.status(response.status)))
            spans.append(Span(" · \(ResponseText.time(of: exchange, response)) · \(ByteCount.format(response.bodySize))"))
            spans.append(Span(" · \(response.source)", style: Theme.dim))
        }
        if let error = exchange.error {
            if !spans.isEmpty { spans.append(Span(" · ")) }
            spans.append(Span("✗ \(error.kind)", style: Theme.error))
            // Past the memory cap, the body can still go to disk.
            if error.kind == .bodyTooLarge { spans += [Span(" · ", style: Theme.dim), Span("d", style: Theme.key), Span(" downloads it to a file", style: Theme.dim)] }
        }
        let current = state.activeEnvironment?.name
        let call = record.call
        if call.environment != current || call.mode != state.sendMode {
            spans.append(Span("  from \(call.environment) · \(call.mode.badge)", style: Style(foreground: .black, background: .yellow)))
        } else {
            spans.append(Span(" · \(call.environment) \(call.mode.badge)", style: Theme.dim))
        }
        return Line(spans)
    }
}
