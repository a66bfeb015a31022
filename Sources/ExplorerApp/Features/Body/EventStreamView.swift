import BodyViewer
import DispatcherCore
import JSONSupport
import TerminalKit
import TextSupport

/// The Body tab of an event stream: an info line, one row per event (time since the request was
/// sent, type, id, data on one line) and, below, the event under the cursor in full, its data
/// pretty-printed when it is JSON. Only the visible rows are formatted.
enum EventStreamView {
    static func render(_ stream: ResponseStream, state: AppState, content: Rect, into buffer: inout Buffer) {
        guard content.height > 0 else { return }
        buffer.write(infoLine(stream, spinnerFrame: state.spinnerFrame).truncated(toWidth: content.width), in: content.row(0))
        let area = content.inset(top: 1)
        guard area.height > 0 else { return }
        guard let selected = stream.selectedIndex else {
            let waiting = stream.isOpen ? "Waiting for the first event…" : "The stream ended without an event."
            buffer.write(Line(waiting, style: Theme.dim), in: area.row(0))
            return
        }
        FollowingListView.render(
            count: stream.events.count, selected: selected, highlighted: state.focus == .response, area: area, into: &buffer,
            rows: { range in
                let visible = stream.events[range]
                let typeWidth = min(16, visible.map { $0.event.type.displayWidth }.max() ?? 7)
                let idWidth = min(12, visible.map { $0.event.lastEventID.isEmpty ? 0 : $0.event.lastEventID.displayWidth + 1 }.max() ?? 0)
                return visible.map { row($0, typeWidth: typeWidth, idWidth: idWidth) }
            },
            detail: { detailLines(stream.events[selected].event, width: area.width) })
    }

    /// `Events · 42 · 3.1 kB · ⠋ open · Esc closes`.
    static func infoLine(_ stream: ResponseStream, spinnerFrame: Int) -> Line {
        var spans = [
            Span("Event stream", style: Theme.heading),
            Span(" · \(BodyNumberFormat.grouped(stream.events.count)) event\(stream.events.count == 1 ? "" : "s") · \(ByteCount.format(stream.byteCount))", style: Theme.dim),
        ]
        if stream.connections > 1 {
            spans.append(Span(" · reconnected \(stream.connections - 1)×", style: Theme.dim))
        }
        if stream.isOpen {
            spans += [
                Span(" · ", style: Theme.dim), Span(Spinner(frameIndex: spinnerFrame).symbol + " open", style: Style(foreground: .cyan)),
                Span(" · ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" closes", style: Theme.dim),
            ]
        } else {
            spans.append(Span(stream.closedByUser ? " · closed by you" : " · ended", style: Theme.dim))
        }
        if stream.cursor != nil {
            spans += [Span(" · ", style: Theme.dim), Span("G", style: Theme.key), Span(" follows", style: Theme.dim)]
        }
        return Line(spans)
    }

    /// `  +1.234s  message  #17  {"delta":"Hel"}`.
    static func row(_ item: StreamedEvent, typeWidth: Int, idWidth: Int) -> Line {
        let event = item.event
        let id = event.lastEventID.isEmpty ? "" : "#" + event.lastEventID
        return Line([
            Span(seconds(item.at).leftPadded(to: 9) + "  ", style: Theme.dim),
            Span(event.type.truncated(toWidth: typeWidth).paddedToDisplayWidth(typeWidth) + "  ", style: Style(foreground: .cyan)),
            Span(idWidth > 0 ? id.truncated(toWidth: idWidth).paddedToDisplayWidth(idWidth) + " " : "", style: Theme.dim),
            Span(event.data.replacing("\n", with: "⏎")),
        ])
    }

    /// The event in full: its type and id, then its data (pretty JSON, or the lines as sent).
    static func detailLines(_ event: ServerSentEvent, width: Int) -> [Line] {
        var lines = [Line([
            Span("event ", style: Theme.dim), Span(event.type, style: Style(foreground: .cyan)),
            Span(event.lastEventID.isEmpty ? "" : " · id \(event.lastEventID)", style: Theme.dim),
        ])]
        let text: String
        if let first = event.data.utf8.first(where: { $0 != 0x20 }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
            let value = try? JSONValue.parse(event.data)
        {
            text = value.prettyText()
        } else {
            text = event.data
        }
        lines += text.split(separator: "\n", omittingEmptySubsequences: false).prefix(200).map { Line(String($0)) }
        return lines
    }

    /// `+1.234s`.
    static func seconds(_ duration: Duration) -> String {
        let whole: Double = Double(duration.components.seconds) * 1000
        let fraction: Double = Double(duration.components.attoseconds) / 1e15
        let milliseconds = Int((whole + fraction).rounded())
        return "+\(milliseconds / 1000).\(String(milliseconds % 1000).leftPadded(to: 3, with: "0"))s"
    }
}

extension String {
    /// Spaces added until the text fills `width` cells.
    fileprivate func paddedToDisplayWidth(_ width: Int) -> String {
        let missing = width - displayWidth
        return missing > 0 ? self + String(repeating: " ", count: missing) : self
    }
}
