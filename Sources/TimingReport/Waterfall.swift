import DispatcherCore
import TextSupport

/// A request's phases drawn as a waterfall, as browsers and httpstat draw them: a line per phase
/// with a bar to scale on the attempt's time, hops (redirects) one under the other and attempts
/// (retries) one after the other, each hop headed by its connection. Pure text in spans with a
/// role, so a view colours them and a test reads them; no line is wider than asked.
package enum Waterfall {
    /// What a span of a line shows.
    package enum Role: Sendable, Hashable {
        /// `Attempt 2`, a hop's `GET URL → 200`.
        case heading
        /// The connection: new or reused, address, TLS, HTTP version.
        case connection
        /// A phase's name.
        case label
        /// Time before the phase began, on its line.
        case gap
        /// The phase's bar.
        case bar(HopTiming.Phase.Name)
        /// A figure in milliseconds.
        case figure
    }

    /// A piece of a line.
    package struct Span: Sendable, Hashable {
        package var text: String
        package var role: Role
    }

    /// One line.
    package struct Line: Sendable, Hashable {
        package var spans: [Span]
        /// The line as plain text.
        package var text: String { spans.map(\.text).joined() }
    }

    /// Width of the phase names' column.
    static let labelWidth = 19
    /// Width of the figures' column (`  1234.5 ms`).
    static let figureWidth = 11

    /// The waterfall of `transfers` (one per attempt) in `width` columns; each hop's URL is shown
    /// as `shownURL` makes it (pass the redactor's `url`: a URL may hold a secret).
    package static func lines(_ transfers: [TransferTiming], width: Int, shownURL: (String) -> String = { $0 }) -> [Line] {
        let width = max(width, labelWidth + figureWidth + 10)
        let barWidth = width - labelWidth - figureWidth
        var lines: [Line] = []
        for (number, transfer) in transfers.enumerated() {
            if transfers.count > 1 { lines.append(Line(spans: [Span(text: fitted("Attempt \(number + 1)", width), role: .heading)])) }
            // One scale per attempt: its hops line up under each other.
            let total = transfer.hops.map { $0.started + ($0.lastByte ?? $0.firstByte ?? $0.phases.last?.end ?? .zero) }.max() ?? .zero
            for hop in transfer.hops {
                let status = hop.status.map { " → \($0)" } ?? " → no response"
                lines.append(Line(spans: [Span(text: fitted(shownURL(hop.url) + status, width), role: .heading)]))
                lines.append(Line(spans: [Span(text: fitted("  " + connection(hop), width), role: .connection)]))
                for phase in hop.phases {
                    lines.append(phaseLine(phase, hopStart: hop.started, total: total, barWidth: barWidth))
                }
            }
            let totalFigure = milliseconds(total).leftPadded(to: figureWidth)
            lines.append(Line(spans: [
                Span(text: "Total".padded(to: labelWidth), role: .label), Span(text: String(repeating: " ", count: barWidth), role: .gap),
                Span(text: totalFigure, role: .figure),
            ]))
        }
        return lines
    }

    /// A phase's line: its name, the time before it as blank, its bar (at least one cell, so a
    /// short phase still shows), then its duration.
    static func phaseLine(_ phase: HopTiming.Phase, hopStart: Duration, total: Duration, barWidth: Int) -> Line {
        func cells(_ duration: Duration) -> Int {
            guard total > .zero else { return 0 }
            return Int((Double(barWidth) * (duration / total)).rounded(.down))
        }
        let offset = min(cells(hopStart + phase.start), barWidth - 1)
        let length = min(max(cells(phase.duration), 1), barWidth - offset)
        return Line(spans: [
            Span(text: "  " + phase.name.rawValue.padded(to: labelWidth - 2), role: .label),
            Span(text: String(repeating: " ", count: offset), role: .gap),
            Span(text: String(repeating: "█", count: length), role: .bar(phase.name)),
            Span(text: String(repeating: " ", count: barWidth - offset - length), role: .gap),
            Span(text: milliseconds(phase.duration).leftPadded(to: figureWidth), role: .figure),
        ])
    }

    /// What is known of a hop's connection, in words.
    static func connection(_ hop: HopTiming) -> String {
        guard let facts = hop.connection else { return "no connection was made" }
        var first = facts.reused ? "reused connection" : "new connection"
        if let address = facts.remoteAddress {
            let host = address.contains(":") ? "[\(address)]" : address
            first += " to " + (facts.remotePort.map { "\(host):\($0)" } ?? host)
        }
        var parts = [first]
        if let tls = facts.tlsVersion { parts.append(tls) }
        if let http = facts.httpVersion { parts.append(http) }
        return parts.joined(separator: ", ")
    }

    /// `12.3 ms`.
    static func milliseconds(_ duration: Duration) -> String {
        DecimalText.fixed(duration / .milliseconds(1), digits: 1) + " ms"
    }

    /// `text` cut to `width` characters (an ellipsis marks the cut).
    static func fitted(_ text: String, _ width: Int) -> String {
        text.count <= width ? text : String(text.prefix(max(width - 1, 0))) + "…"
    }
}
