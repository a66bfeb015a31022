import BodyViewer
import DispatcherCore
import FoundationEssentials
import JSONSupport
import TerminalKit
import TextSupport

/// The Body tab of a WebSocket conversation: an info line, one row per frame (time since the
/// request was sent, ↑ sent or ↓ received, its type, the payload on one line) and, below, the frame
/// under the cursor in full: JSON pretty-printed, binary as a hex dump, a close with its meaning.
enum WebSocketView {
    /// A WebSocket message being typed, with the endpoint's named messages.
    static func renderComposer(_ composer: MessageComposer, screen: Rect, into buffer: inout Buffer) -> Position? {
        var lines: [Line] = []
        if composer.named.isEmpty {
            lines.append(Line("Sent as a text message. The catalog names no messages for this endpoint.", style: Theme.dim))
        } else {
            let names = composer.named.enumerated().map { index, named in
                Span(" \(named.name) ", style: index == composer.chosen ? Theme.highlight : Theme.dim)
            }
            lines.append(Line([Span("Tab", style: Theme.key), Span(" named:", style: Theme.dim)] + names))
        }
        lines.append(Line([Span("Enter", style: Theme.key), Span(" sends  ", style: Theme.dim), Span("Esc", style: Theme.key), Span(" does not", style: Theme.dim)]))
        let field = InputLine(prompt: Span("› ", style: Theme.key), placeholder: "a text message (JSON is sent as typed)")
        return OverlayView.renderInputWindow(
            OverlayView.block("Message on \(composer.endpoint)", hint: "WebSocket"), width: 88, lines: lines, field: field, input: composer.input,
            screen: screen, into: &buffer)
    }

    static func render(_ pane: WebSocketPane, state: AppState, content: Rect, into buffer: inout Buffer) {
        guard content.height > 0 else { return }
        buffer.write(infoLine(pane, spinnerFrame: state.spinnerFrame).truncated(toWidth: content.width), in: content.row(0))
        let area = content.inset(top: 1)
        guard area.height > 0 else { return }
        guard let selected = pane.selectedIndex else {
            let waiting = pane.isOpen ? "Open. Press m to send a message; what the server sends appears here." : "Closed before any frame."
            buffer.write(Line(waiting, style: Theme.dim), in: area.row(0))
            return
        }
        FollowingListView.render(
            count: pane.frames.count, selected: selected, highlighted: state.focus == .response, area: area, into: &buffer,
            rows: { range in pane.frames[range].map(row) }, detail: { detailLines(pane.frames[selected], width: area.width) })
    }

    /// `WebSocket · chat.v1 · ↑ 3 ↓ 4 · ⠋ open · m sends · Esc closes`.
    static func infoLine(_ pane: WebSocketPane, spinnerFrame: Int) -> Line {
        let counts = pane.messageCounts
        var spans = [Span("WebSocket", style: Theme.heading)]
        if let subprotocol = pane.subprotocol { spans.append(Span(" · \(subprotocol)", style: Theme.dim)) }
        spans.append(Span(" · ↑ \(BodyNumberFormat.grouped(counts.sent)) ↓ \(BodyNumberFormat.grouped(counts.received)) messages", style: Theme.dim))
        if pane.isOpen {
            spans += [
                Span(" · ", style: Theme.dim),
                Span(Spinner(frameIndex: spinnerFrame).symbol + (pane.isClosing ? " closing" : " open"), style: Style(foreground: .cyan)),
            ]
            if !pane.isClosing {
                spans += [
                    Span(" · ", style: Theme.dim), Span("m", style: Theme.key), Span(" sends · ", style: Theme.dim),
                    Span("Esc", style: Theme.key), Span(" closes", style: Theme.dim),
                ]
            }
        } else if let (close, direction) = pane.close {
            let who = direction == .sent ? "closed by you" : "closed by the server"
            spans.append(Span(" · \(who): \(close)", style: close.code.isClean ? Theme.dim : Theme.error))
        } else {
            spans.append(Span(" · ended", style: Theme.dim))
        }
        if pane.cursor != nil {
            spans += [Span(" · ", style: Theme.dim), Span("G", style: Theme.key), Span(" follows", style: Theme.dim)]
        }
        return Line(spans)
    }

    /// `  +1.234s  ↓ text    {"op":"welcome"}`.
    static func row(_ frame: WebSocketFrameRecord) -> Line {
        let arrow = frame.direction == .sent ? Span("↑ ", style: Style(foreground: .magenta)) : Span("↓ ", style: Style(foreground: .green))
        let (type, payload, style): (String, String, Style) = switch frame.content {
        case .message(.text(let text)): ("text", text.replacing("\n", with: "⏎"), .plain)
        case .message(.binary(let data)): ("binary", "\(ByteCount.format(data.count)) " + Data(data.prefix(32)).hexText, .plain)
        case .ping(let data): ("ping", data.isEmpty ? "" : Data(data.prefix(32)).hexText, Theme.dim)
        case .pong(let data): ("pong", data.isEmpty ? "" : Data(data.prefix(32)).hexText, Theme.dim)
        case .close(let close): ("close", close.description, close.code.isClean ? Theme.dim : Theme.error)
        }
        return Line([
            Span(EventStreamView.seconds(frame.at).leftPadded(to: 9) + "  ", style: Theme.dim),
            arrow,
            Span(type.padded(to: 7) + " ", style: Style(foreground: .cyan)),
            Span(payload, style: style),
        ])
    }

    /// The frame in full.
    static func detailLines(_ frame: WebSocketFrameRecord, width: Int) -> [Line] {
        let heading = Span(frame.direction == .sent ? "sent" : "received", style: Style(foreground: frame.direction == .sent ? .magenta : .green))
        switch frame.content {
        case .message(.text(let text)):
            var lines = [Line([heading, Span(" · text · \(ByteCount.format(text.utf8.count))", style: Theme.dim)])]
            let shown: String
            if let first = text.utf8.first(where: { $0 != 0x20 }), first == UInt8(ascii: "{") || first == UInt8(ascii: "["),
                let value = try? JSONValue.parse(text)
            {
                shown = value.prettyText()
            } else {
                shown = text
            }
            lines += shown.split(separator: "\n", omittingEmptySubsequences: false).prefix(200).map { Line(String($0)) }
            return lines
        case .message(.binary(let data)), .ping(let data), .pong(let data):
            let kind = if case .message = frame.content { "binary" } else if case .ping = frame.content { "ping" } else { "pong" }
            return [Line([heading, Span(" · \(kind) · \(ByteCount.format(data.count))", style: Theme.dim)])] + hexDump(data.prefix(16 * 64))
        case .close(let close):
            return [
                Line([heading, Span(" · close", style: Theme.dim)]),
                Line([Span("code ", style: Theme.dim), Span("\(close.code.rawValue) \(close.code.name)", style: close.code.isClean ? .plain : Theme.error)]),
                Line(close.code.meaning, style: Theme.dim),
            ] + (close.reason.isEmpty ? [] : [Line([Span("reason ", style: Theme.dim), Span(close.reason)])])
        }
    }

    /// `00000000  7b 22 61 22 …  {"a"…`, 16 bytes a line.
    static func hexDump(_ data: Data) -> [Line] {
        var lines: [Line] = []
        var offset = 0
        let bytes = Array(data)
        while offset < bytes.count {
            let chunk = bytes[offset..<min(bytes.count, offset + 16)]
            let hex = chunk.map { Data([$0]).hexText }.joined(separator: " ")
            let text = String(chunk.map { $0 >= 0x20 && $0 < 0x7F ? Character(UnicodeScalar($0)) : "." })
            let address = String(offset, radix: 16).leftPadded(to: 8, with: "0")
            lines.append(Line([Span(address + "  ", style: Theme.dim), Span(hex.padded(to: 47) + " "), Span(text, style: Theme.dim)]))
            offset += 16
        }
        return lines
    }
}
