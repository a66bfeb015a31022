import DispatcherCore
import FoundationEssentials
import JSONSupport
import TerminalKit
import TextSupport

/// The lines of the response pane's text tabs, built from the selected endpoint's last result.
enum ResponseText {
    /// The lines of a text tab for the selected endpoint, and whether long ones wrap: a tab's one
    /// line here (the Body, Edit and Vars tabs are drawn by their own views first).
    static func text(_ tab: ResponseTab, state: AppState) -> (lines: [Line], wraps: Bool) {
        switch tab {
        case .body: (answer(state) { bodyLines($0, redactor: $1) }, true)
        case .headers: (answer(state) { headerLines($0, redactor: $1) }, false)
        case .errors: (answer(state) { errorLines($0, redactor: $1) }, true)
        case .request: (draftLines(state) + nextOrLastRequestLines(state), false)
        case .log: (logLines(state), false)
        case .edit, .variables: ([], false)
        case .tests: (ChecksTabView.lines(state), true)
        }
    }

    /// The lines made from the selected endpoint's last result (none before one), secrets masked unless shown.
    private static func answer(_ state: AppState, _ lines: (Exchange, Redactor?) -> [Line]) -> [Line] {
        guard let record = state.selectedResponse else { return [] }
        return lines(record.exchange, state.revealsSecrets ? nil : record.redactor)
    }

    /// How far the current tab can scroll.
    static func maximumScroll(state: AppState) -> Int {
        let height = state.layout.responseContent.height
        let width = state.layout.responseContent.width
        let (lines, wraps) = text(state.tab, state: state)
        return TextView(lines, wraps: wraps).maxVerticalOffset(viewport: Size(width: width, height: height))
    }

    /// The Body tab when there is no response (a body, however large, is drawn by `BodyPaneView`).
    static func bodyLines(_ exchange: Exchange, redactor: Redactor?) -> [Line] {
        guard exchange.response == nil else { return [] }
        let reason = exchange.error.map { redactor?.text($0.message) ?? $0.message } ?? "nothing came back."
        return [Line("No response body: " + reason + (reason.hasSuffix(".") ? "" : "."), style: Theme.dim)]
    }

    static func headerLines(_ exchange: Exchange, redactor: Redactor?) -> [Line] {
        guard let response = exchange.response else {
            return [Line("No response: \(exchange.error?.message ?? "nothing came back").", style: Theme.dim)]
        }
        var lines: [Line] = [
            Line([Span("\(response.httpVersion ?? "HTTP/1.1") "), Span(response.statusLine, style: Theme.status(response.status))])
        ]
        for field in response.headers {
            let value = redactor?.header(name: field.name, value: field.value) ?? field.value
            lines.append(Line([Span(field.name, style: Theme.key), Span(": "), Span(value)]))
        }
        lines.append("")
        lines.append(Line([Span("Source      ", style: Theme.dim), Span(response.source.description)]))
        let firstByte = response.timing.firstByte.map { "first byte \(milliseconds($0)), " } ?? ""
        lines.append(Line([Span("Timing      ", style: Theme.dim), Span("\(firstByte)total \(milliseconds(response.timing.total))")]))
        lines.append(Line([Span("Size        ", style: Theme.dim), Span(ByteCount.format(response.bodySize))]))
        if let file = response.downloadedFile {
            let resumed = file.resumedFrom > 0 ? " (continued after \(ByteCount.format(file.resumedFrom)))" : ""
            lines.append(Line([Span("Saved to    ", style: Theme.dim), Span(file.path + resumed)]))
        }
        for redirect in response.redirects {
            let from = redactor?.url(redirect.from) ?? redirect.from.absoluteString
            let to = redactor?.url(redirect.to) ?? redirect.to.absoluteString
            lines.append(Line([Span("Redirect    ", style: Theme.dim), Span("\(redirect.status) \(from) → \(to)")]))
        }
        return lines
    }

    static func errorLines(_ exchange: Exchange, redactor: Redactor?) -> [Line] {
        var lines: [Line] = []
        func row(_ label: String, _ value: String, style: Style = .plain) {
            lines.append(Line([Span(label.padded(to: 15), style: Theme.dim), Span(value, style: style)]))
        }
        if let error = exchange.error {
            lines.append(Line([Span("✗ ", style: Theme.error), Span(error.kind.description, style: Theme.error)]))
            lines.append(Line(redactor?.text(error.message) ?? error.message))
            lines.append("")
            if let status = error.status { row("Status", HTTPStatus.line(for: status), style: Theme.status(status)) }
            row("Mapped by", error.source)
            if let transport = error.transportError {
                row("Transport", "\(transport.code.rawValue): \(redactor?.text(transport.message) ?? transport.message)")
                if let phase = transport.timeoutPhase { row("Timeout", phase.rawValue) }
                for pin in transport.presentedPins { row("Server pin", pin) }
            }
            if let retryAfter = error.retryAfter { row("Retry-After", "\(retryAfter.secondsText) s") }
            if error.details.count > 1 {
                for detail in error.details { row("Message", redactor?.text(detail) ?? detail) }
            }
        } else if let response = exchange.response {
            lines.append(Line([Span("✓ ", style: Theme.status(response.status)), Span("No error: \(response.statusLine)")]))
        }
        lines.append("")
        row("Attempts", "\(exchange.attempts)")
        let retries = exchange.trace.filter {
            switch $0.kind {
            case .retryScheduled, .retriedByHandler: true
            default: false
            }
        }.count
        let resumes = exchange.trace.filter { if case .resumed = $0.kind { true } else { false } }.count
        row("Retries", "\(retries)")
        row("Resumed", resumes == 0 ? "no" : "\(resumes)× (token refresh or handler)")
        for note in exchange.notes { row("Result handler", note, style: Theme.notice) }
        lines.append("")
        lines.append(Line("Trace", style: Theme.heading))
        for event in exchange.trace { lines.append(Line("  " + (redactor?.text(event.description) ?? event.description))) }
        return lines
    }

    /// How much of a request body the Request tab shows.
    static let requestBodyShown = 16 << 10

    static func requestLines(_ request: Request, redactor: Redactor?) -> [Line] {
        let url = redactor?.url(request.url) ?? request.url.absoluteString
        var lines: [Line] = [Line([Span(request.method.rawValue + " ", style: Theme.method(request.method)), Span(url)]), ""]
        let nameWidth = min(28, request.headers.map(\.name.displayWidth).max() ?? 0)
        for field in request.headers {
            let value = redactor?.header(name: field.name, value: field.value) ?? field.value
            let masked = value != field.value
            var spans = [
                Span(field.name.padded(to: max(nameWidth, field.name.count)), style: Theme.key),
                Span("  "), Span(value, style: masked ? Theme.secretMask : .plain), Span("  ← \(field.origin)", style: Theme.origin),
            ]
            if !field.overrides.isEmpty {
                spans.append(Span(" (over \(field.overrides.map(\.description).joined(separator: ", ")))", style: Theme.origin))
            }
            lines.append(Line(spans))
        }
        if let streamed = request.streamedBody {
            lines.append("")
            lines.append(Line(redactor?.text(streamed.summary) ?? streamed.summary, style: Theme.dim))
        }
        if let body = request.body, !body.isEmpty {
            lines.append("")
            // A large body is summed up: this tab is drawn on every frame (the Body tab is for reading
            // bodies). Its start is masked by value: a whole-body pass would cost a frame's time.
            if body.count > requestBodyShown {
                let start = String(decoding: body.prefix(requestBodyShown), as: UTF8.self)
                let shown = redactor?.text(start) ?? start
                lines += shown.split(separator: "\n", omittingEmptySubsequences: false).map { Line(String($0)) }
                lines.append(Line("… \(ByteCount.format(body.count)) in all; the first \(ByteCount.format(requestBodyShown)) are shown, the whole body is sent.", style: Theme.dim))
                return lines
            }
            let text = redactor?.body(body, contentType: request.headers["Content-Type"]) ?? String(decoding: body, as: UTF8.self)
            if let value = try? JSONValue.parse(text) {
                lines += value.prettyText().split(separator: "\n").map { Line(String($0)) }
            } else {
                lines += text.split(separator: "\n", omittingEmptySubsequences: false).map { Line(String($0)) }
            }
        }
        return lines
    }

    static func logLines(_ state: AppState) -> [Line] {
        (state.revealsSecrets && state.log.linesInClear.count == state.log.lines.count ? state.log.linesInClear : state.log.lines).map { Line($0) }
    }

    /// The time shown beside a response: its own, or after retries the whole request's with the
    /// attempts (`2.4 s · 3 attempts`), since the last attempt's alone would hide the waits.
    static func time(of exchange: Exchange, _ response: Response) -> String {
        guard exchange.attempts > 1 else { return milliseconds(response.timing.total) }
        return "\(milliseconds(exchange.elapsed)) · \(exchange.attempts) attempts"
    }

    static func milliseconds(_ duration: Duration) -> String {
        let value = duration.seconds * 1000
        return DecimalText.fixed(value, digits: value < 10 ? 1 : 0) + " ms"
    }
}
