import Catalog
import DispatcherCore
import TerminalKit
import TextSupport

/// The Request tab's lines: what the selected endpoint's draft changes, then the last request
/// sent or the one Enter would send.
extension ResponseText {
    /// What the selected endpoint's draft changes from the catalog, as `-`/`+` lines (header
    /// values masked unless secrets are shown); empty without a draft.
    static func draftLines(_ state: AppState) -> [Line] {
        guard let request = state.editedRequest, !request.edits.isEmpty else { return [] }
        let edits = request.edits
        let endpoint = request.endpoint
        let reveal = state.revealsSecrets
        var lines = [
            Line([
                Span("✎ Draft for \(state.activeEnvironment?.name ?? "") ", style: Theme.notice),
                Span("(what differs from the catalog; the next request sends it; tab 6 edits it)", style: Theme.dim),
            ])
        ]
        func removed(_ text: String) { lines.append(Line([Span("- ", style: Theme.error), Span(text, style: Theme.dim)])) }
        func added(_ text: String) { lines.append(Line([Span("+ ", style: Theme.notice), Span(text)])) }
        func shown(_ item: EndpointEdits.Item, separator: String, isHeader: Bool) -> String {
            guard let value = item.value else { return item.name }
            let masked = isHeader && !reveal ? Redactor.standard.header(name: item.name, value: value) : value
            return "\(item.name)\(separator)\(masked)" + (item.isEnabled ? "" : "  (off)")
        }
        func compare(_ edited: [EndpointEdits.Item]?, _ original: [EndpointEdits.Item], what: String, separator: String, isHeader: Bool) {
            guard let edited else { return }
            for item in original where !edited.contains(item) { removed("\(what) " + shown(item, separator: separator, isHeader: isHeader)) }
            for item in edited where !original.contains(item) { added("\(what) " + shown(item, separator: separator, isHeader: isHeader)) }
        }
        if let method = edits.method {
            removed("method \(endpoint.method.rawValue)")
            added("method \(method.rawValue)")
        }
        if let path = edits.path {
            removed("path \(endpoint.path)")
            added("path \(path)")
        }
        compare(edits.query, EndpointEdits.items(of: endpoint.query), what: "query", separator: "=", isHeader: false)
        compare(edits.headers, EndpointEdits.items(of: endpoint.headers), what: "header", separator: ": ", isHeader: true)
        for name in edits.removedHeaders.sorted() {
            let origin = request.inherited.first { Headers.sameName($0.name, name) }.map { " ← \($0.origin)" } ?? ""
            removed("header \(name)\(origin)  (turned off)")
        }
        if let body = edits.body {
            removed("body " + (EditedRequest.summary(ofKept: endpoint.body) ?? summary(EndpointEdits.body(of: endpoint.body))))
            added("body " + summary(body))
        }
        lines.append("")
        return lines
    }

    /// The last request sent; before any, the request Enter would send (built as the dispatcher
    /// builds it; auth plugins add their headers when it is sent).
    static func nextOrLastRequestLines(_ state: AppState) -> [Line] {
        if let record = state.selectedResponse {
            let redactor: Redactor? = state.revealsSecrets ? nil : record.redactor
            return [Line("Last request sent", style: Theme.heading)] + requestLines(record.exchange.request, redactor: redactor)
        }
        guard let preview = state.nextRequestPreview else { return [] }
        let heading = Line([
            Span("Next request", style: Theme.heading), Span(" (not sent yet; auth plugins add their headers when it is)", style: Theme.dim),
        ])
        switch preview.request {
        case .request(let request):
            var lines = [heading] + requestLines(request, redactor: state.revealsSecrets ? nil : preview.redactor)
            if let size = preview.largeBody {
                lines += ["", Line("Body: \(ByteCount.format(size)) from the draft, filled in and encoded when it is sent (O in the Edit tab opens it).", style: Theme.dim)]
            }
            return lines
        case .problem(let message):
            return [heading, Line([Span("✗ ", style: Theme.error), Span(message, style: Theme.error)])]
        }
    }

    /// A body in a few words.
    private static func summary(_ body: EndpointEdits.Body) -> String {
        switch body {
        case .none: return "none"
        case .form(let fields): return "form: " + fields.filter(\.isEnabled).map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        case .text(let text, let isJSON):
            let count = text.lineCount
            let kind = isJSON ? "JSON" : "text"
            return count > 1 ? "\(kind), \(count) lines: \(text.firstLine) …" : "\(kind): \(text)"
        }
    }
}
