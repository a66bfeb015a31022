import Catalog
import DispatcherCore
import Sessions
import TerminalKit

/// The bottom row: activity, where requests go, the mode, the last result and the main keys.
enum StatusBarView {
    static func render(_ state: AppState, area: Rect, into buffer: inout Buffer) {
        var left: [Span] = []
        if state.needsSpinner {
            let count = max(state.activity, state.visibleInFlightCount)
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
        left.append(Theme.modeBadge(AppReducer.sendMode(state), production: production))
        if let service = state.activeService, let environment = state.activeEnvironment {
            left.append(Span(" \(service.id) · \(environment.name) ", style: production ? Theme.error : Theme.heading))
        }
        if let service = state.activeService, let environment = state.activeEnvironment,
            let signedOut = state.auth.signedOut[EnvironmentKey(service: service.id, environment: environment.name)]
        {
            // The service and environment are named just before.
            let banner = signedOut.replacing("\(ServiceSession.signedOutPrefix) \(service.id) · \(environment.name)", with: "signed out")
            left.append(Span(" \(banner) ", style: Style(foreground: .black, background: .yellow, modifiers: .bold)))
        }
        if state.revealsSecrets { left.append(Span(" SECRETS SHOWN ", style: Style(foreground: .black, background: .magenta, modifiers: .bold))) }
        if let notice = state.notice {
            left.append(Span(" \(notice)", style: Theme.notice))
        } else if let exchange = state.selectedResponse?.exchange, let response = exchange.response {
            left.append(Span(" \(response.status)", style: Theme.status(response.status)))
            left.append(Span(" \(ResponseText.time(of: exchange, response)) \(ByteCount.format(response.bodySize))", style: Theme.dim))
        }
        // In the Edit and Vars tabs Enter changes the row under the cursor.
        // Key names from the keymap in effect: a key the config file moved shows where it went.
        func key(_ command: Command, _ shown: String) -> String {
            guard let binding = state.config.bindings.first(where: { $0.command == command }) else { return shown }
            if binding.triggers == Keymap.bindings.first(where: { $0.command == command })?.triggers { return shown }
            guard case .key(let event)? = binding.triggers.first else { return "—" }
            return event.description
        }
        let send: [(String, String)] = state.isInEditor || state.isInVariables
            ? [(key(state.isInEditor ? .editor(.change) : .variables(.change), "↵"), "change"), (key(.send, "C-s"), "send")] : [(key(.send, "↵"), "send")]
        let hints: [(String, String)] = send + [
            (key(.toggleMode, "s"), "stub/live"), (key(.nextEnvironment, "e"), "env"), (key(.pickExample, "x"), "example"), (key(.help, "?"), "help"),
            (key(.quit, "q"), "quit"),
        ]
        var right = hints.enumerated().map { index, hint in
            StatusBar.Segment(Line([Span(hint.0, style: Theme.key), Span(" \(hint.1)", style: Theme.dim)]), priority: hints.count - index)
        }
        // A notice cut to the bar's width says where its full text is.
        if state.notice != nil {
            let bar = StatusBar(left: Line(left), right: right, separator: Span("  "))
            let rightWidth = bar.visibleSegments(width: area.width).reduce(0) { $0 + right[$1].line.width + 2 }
            if Line(left).width > area.width - rightWidth - 1 {
                // The message matters more than the hints: only help stays, after where the rest is.
                right = [
                    StatusBar.Segment(Line([Span(key(.showMessages, "M"), style: Theme.key), Span(" full message", style: Theme.dim)]), priority: 2),
                    StatusBar.Segment(Line([Span(key(.help, "?"), style: Theme.key), Span(" help", style: Theme.dim)]), priority: 1),
                ]
            }
        }
        StatusBar(left: Line(left), right: right, separator: Span("  "), style: Theme.statusBar).render(into: &buffer, area: area)
    }
}
