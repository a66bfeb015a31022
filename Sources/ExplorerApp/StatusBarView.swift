import Catalog
import DispatcherCore
import Sessions
import TerminalKit

/// The bottom row: activity, where requests go, the mode, the last result and the main keys.
enum StatusBarView {
    static func render(_ state: AppState, area: Rect, into buffer: inout Buffer) {
        var left: [Span] = []
        if state.needsSpinner {
            let count = max(state.exchanges.activity, state.exchanges.visibleInFlightCount)
            left.append(Span(" " + Spinner(frameIndex: state.spinnerFrame).symbol, style: Style(foreground: .cyan, modifiers: .bold)))
            left.append(Span(" \(count) in flight ", style: Style(foreground: .cyan)))
            // The upload furthest from done, when a body is being sent.
            if let upload = state.uploads.progress.values.min(by: { Double($0.sent) / Double(max($0.total, 1)) < Double($1.sent) / Double(max($1.total, 1)) }) {
                let percent = upload.total > 0 ? upload.sent * 100 / upload.total : 100
                left.append(Span("↑ \(percent)% of \(ByteCount.format(upload.total)) ", style: Style(foreground: .cyan)))
            }
            if let download = state.downloads.shown { left.append(Span(download.text + " ", style: Style(foreground: .cyan))) }
        } else {
            left.append(Span("   idle ", style: Theme.dim))
        }
        let production = state.activeEnvironment?.type.isProduction ?? false
        left.append(Theme.modeBadge(state.sendMode, production: production))
        if let service = state.activeService, let environment = state.activeEnvironment {
            left.append(Span(" \(service.id) · \(environment.name) ", style: production ? Theme.error : Theme.heading))
        }
        if let service = state.activeService, let environment = state.activeEnvironment,
            let signedOut = state.auth.signedOut[EnvironmentKey(service, environment: environment.name)]
        {
            // The service and environment are named just before.
            left.append(Span(" signed out: \(signedOut.reason) ", style: Style(foreground: .black, background: .yellow, modifiers: .bold)))
        }
        if state.panes.isZoomed {
            left.append(Span(" ZOOM ", style: Style(foreground: .black, background: .cyan, modifiers: .bold)))
        }
        if state.revealsSecrets { left.append(Span(" SECRETS SHOWN ", style: Style(foreground: .black, background: .magenta, modifiers: .bold))) }
        var timing: Span?
        if state.notice == nil, let exchange = state.selectedResponse?.exchange, let response = exchange.response {
            left.append(Span(" \(response.status)", style: Theme.status(response.status)))
            timing = Span(" \(ResponseText.time(of: exchange, response)) \(ByteCount.format(response.bodySize))", style: Theme.dim)
        }
        // What must stay whatever the width: activity, the mode, the service and environment,
        // badges, the last status.
        let essentials = Line(left).width
        if let timing { left.append(timing) }
        // In the Edit and Vars tabs Enter changes the row under the cursor.
        // Key names from the keymap in effect: a key the config file moved shows where it went.
        let keys = state.keys
        func key(_ command: Command) -> String {
            guard let event = keys.key(command) else { return "—" }
            return event == KeyEvent(.enter) ? "↵" : event.description
        }
        let send: [(String, String)] = state.isInEditor || state.isInVariables
            ? [(key(state.isInEditor ? .editor(.change) : .variables(.change)), "change"), (key(.exchanges(.send)), "send")] : [(key(.exchanges(.send)), "send")]
        let unzoom: [(String, String)] = state.panes.isZoomed ? [(key(.panes(.zoom)), "unzoom")] : []
        let hints: [(String, String)] = unzoom + send + [
            (key(.exchanges(.toggleMode)), "stub/live"), (key(.navigation(.nextEnvironment)), "env"), (key(.exchanges(.pickExample)), "example"), (key(.overlays(.help)), "help"),
            (key(.quit), "quit"),
        ]
        // Help stays longest: everything else is found from there.
        var right = hints.enumerated().map { index, hint in
            StatusBar.Segment(
                Line([Span(hint.0, style: Theme.key), Span(" \(hint.1)", style: Theme.dim)]), priority: hint.1 == "help" ? hints.count + 1 : hints.count - index)
        }
        // Hints give way to the essentials.
        func rightWidth() -> Int {
            let bar = StatusBar(left: Line(left), right: right, separator: Span("  "))
            let kept = bar.visibleSegments(width: max(0, area.width - essentials - 1))
            right = kept.map { right[$0] }
            return right.isEmpty ? 0 : right.reduce(0) { $0 + $1.line.width + 2 } - 2
        }
        let hintsWidth = rightWidth()
        if var notice = state.notice {
            // A notice too long for the bar: only where its full text is and help stay, and it is
            // cut with an ellipsis (a diagnostic's location kept).
            if Line(left).width + 1 + notice.displayWidth > area.width - hintsWidth - 2 {
                right = [
                    StatusBar.Segment(Line([Span(key(.messages(.showMessages)), style: Theme.key), Span(" full message", style: Theme.dim)]), priority: 2),
                    StatusBar.Segment(Line([Span(key(.overlays(.help)), style: Theme.key), Span(" help", style: Theme.dim)]), priority: 1),
                ]
                notice = MessagesFeature.keepingLocation(notice, width: area.width - rightWidth() - 2 - Line(left).width - 1)
            }
            left.append(Span(" " + notice, style: Theme.notice))
        }
        StatusBar(left: Line(left), right: right, separator: Span("  "), style: Theme.statusBar).render(into: &buffer, area: area)
    }
}
