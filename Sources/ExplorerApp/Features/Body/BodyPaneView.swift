import BodyViewer
import DispatcherCore
import TerminalKit

/// The Body tab: an info line, the visible rows of the document (only those are formatted), a
/// scrollbar, and the search or input line.
enum BodyPaneView {
    /// Draws the pane into `content`; returns where the terminal cursor goes when the input line is open.
    static func render(_ pane: BodyPane, state: AppState, content: Rect, into buffer: inout Buffer) -> Position? {
        let layout = BodyPaneLayout(content: content, pane: pane)
        buffer.write(infoLine(pane).truncated(toWidth: layout.info.width), in: layout.info)
        if var layer = pane.active {
            layer.fit(layout.body.size)
            let rows = renderRows(layer, focused: state.focus == .response, area: layout.body, into: &buffer)
            // Folds can make a long document fit; the line count alone cannot tell.
            let fits = rows < layout.body.height && layer.view.topLine == 0 && layer.view.topRow == 0
            if !fits {
                Scrollbar(contentLength: layer.document.lineCount, viewportLength: layout.body.height, position: layer.view.topLine)
                    .render(into: &buffer, area: layout.scrollbar)
            }
        }
        return renderBottom(pane, area: layout.bottom, into: &buffer)
    }

    /// Draws the visible rows; returns how many there were.
    static func renderRows(_ layer: BodyLayer, focused: Bool, area: Rect, into buffer: inout Buffer) -> Int {
        guard !area.isEmpty else { return 0 }
        let rows = layer.document.renderVisible(layer.view)
        for (index, row) in rows.enumerated() where index < area.height {
            let line = Line(row.runs.map { Span($0.text, style: Theme.body($0.role)) })
            let rowArea = area.row(index)
            if focused, row.isCursorLine { buffer.setStyle(Theme.bodyCursorLine, in: rowArea) }
            buffer.write(line, in: rowArea)
        }
        return rows.count
    }

    /// What the body is, or what is happening to it.
    static func infoLine(_ pane: BodyPane) -> Line {
        // A stream's body is formatted again as bytes arrive: its last document stays shown meanwhile.
        if let building = pane.building, !(pane.isStreamed && pane.main != nil) {
            let percent = Int(building.fraction * 100)
            return Line([
                Span("Formatting \(percent)%", style: Theme.notice),
                Span(" · \(ByteCount.format(building.bytesProcessed)) of \(ByteCount.format(building.totalBytes))", style: Theme.dim),
                Span(" · ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" cancels", style: Theme.dim),
            ])
        }
        if let pending = pane.pendingSelection {
            return Line([
                Span("Running \(pending.kind.label)…", style: Theme.notice),
                Span(" · ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" cancels", style: Theme.dim),
            ])
        }
        if let failure = pane.failure {
            return Line(failure, style: Theme.notice)
        }
        if let selection = pane.selection {
            var spans = [Span(selection.kind.label, style: Theme.heading)]
            if let count = selection.count {
                spans.append(Span(" · \(BodyNumberFormat.grouped(count)) \(count == 1 ? "value" : "values")", style: Theme.dim))
            }
            spans += [Span(" · ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" shows the whole body", style: Theme.dim)]
            return Line(spans)
        }
        guard let document = pane.main?.document else { return Line("") }
        var spans = [Span(kindLabel(document), style: Theme.heading), Span(" · \(linesLabel(document))", style: Theme.dim)]
        if pane.isStreamed {
            spans += [Span(" · streaming", style: Theme.notice), Span(" · ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" closes", style: Theme.dim)]
        }
        for notice in document.notices {
            spans.append(Span(" · ", style: Theme.dim))
            spans.append(Span("⚠ " + notice.message, style: Theme.notice))
        }
        return Line(spans)
    }

    static func kindLabel(_ document: BodyDocument) -> String {
        switch document.kind {
        case .json: document.rootCount > 1 ? "JSON (\(BodyNumberFormat.grouped(document.rootCount)) values)" : "JSON"
        case .text(.plain): "Text"
        case .text(.xml): "XML"
        case .text(.html): "HTML"
        case .binary: "Binary (hex)"
        }
    }

    static func linesLabel(_ document: BodyDocument) -> String {
        let count = document.lineCount
        if case .binary = document.kind { return "\(ByteCount.format(document.byteCount))" }
        return count == 1 ? "1 line" : "\(BodyNumberFormat.grouped(count)) lines"
    }

    /// The input line, or the search and its match count.
    static func renderBottom(_ pane: BodyPane, area: Rect, into buffer: inout Buffer) -> Position? {
        guard !area.isEmpty else { return nil }
        let search = pane.active?.view.search
        let count = searchCountLabel(pane)
        var textArea = area
        if search != nil, let count, pane.prompt == nil || pane.prompt?.kind == .search {
            let width = min(count.width, area.width / 2)
            buffer.write(count.truncated(toWidth: width), in: Rect(x: area.right - width, y: area.y, width: width, height: 1))
            textArea = Rect(x: area.x, y: area.y, width: max(0, area.width - width - 1), height: 1)
        }
        if let prompt = pane.prompt {
            let input = InputLine(prompt: Span(prompt.label, style: Theme.prompt))
            input.render(into: &buffer, area: textArea, state: prompt.input)
            return input.cursorPosition(in: textArea, state: prompt.input)
        }
        if let search {
            let line = Line([
                Span("/", style: Theme.prompt), Span(search.query.text),
                Span("  n", style: Theme.key), Span(" next  ", style: Theme.dim), Span("N", style: Theme.key),
                Span(" previous  ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" clears", style: Theme.dim),
            ])
            buffer.write(line.truncated(toWidth: textArea.width), in: textArea)
        }
        return nil
    }

    /// `3/120`, `≥ 1,204…` while counting, or `no match`.
    static func searchCountLabel(_ pane: BodyPane) -> Line? {
        guard let layer = pane.active, let search = layer.view.search else { return nil }
        guard let count = search.count else { return Line("counting…", style: Theme.dim) }
        if count.isComplete, count.count == 0 { return Line("no match", style: Theme.error) }
        guard count.isComplete else { return Line("\(count) matches", style: Theme.dim) }
        let total = BodyNumberFormat.grouped(count.count)
        if let match = search.currentMatch, let number = layer.document.matchNumber(at: match.lowerBound, for: search.query) {
            return Line("\(BodyNumberFormat.grouped(number))/\(total)", style: Theme.heading)
        }
        return Line("\(total) matches", style: Theme.dim)
    }
}
