import DispatcherCore

/// The network log (the Log tab): every request and result the logger saw, secrets masked, and
/// the same lines in clear for when secrets are revealed (`v`).
package struct LogState: Sendable {
    /// The lines, newest last, at most `limit`, secrets masked.
    package fileprivate(set) var lines: [String] = []
    /// The same lines in clear, shown while secrets are revealed; as many as `lines`.
    package fileprivate(set) var linesInClear: [String] = []

    /// The most lines kept.
    package static let limit = 2000
}

/// What happens to the log.
package enum LogAction: Sendable {
    /// Lines for the log, as shown.
    case logged([String])
    /// The network logger saw a request or a result: formatted here, on the app's loop, not on the
    /// request path.
    case networkLogged(NetworkLogEntry)
}

enum LogFeature: AppFeature {
    /// Secrets typed in the Vars tab and not sent yet: the logger's redactor cannot know them.
    struct Context {
        var typedSecrets: Set<String>
    }

    static func context(of app: AppState) -> Context { Context(typedSecrets: app.typedSecrets) }

    static func reduce(_ state: inout LogState, _ action: LogAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .logged(let lines):
            append(lines, to: &state)
        case .networkLogged(let entry):
            // The logger's redactor knows every secret the sessions resolved; secrets typed in the Vars
            // tab but not yet sent are masked too. `v` shows the lines in clear.
            let typed = context.typedSecrets
            let mask = typed.isEmpty ? nil : Redactor(headerNames: [], nameFragments: [], queryNames: [], secretValues: typed)
            var clear = entry
            clear.format.redactor = nil
            append(
                entry.lines.map { "#\(entry.request.id) \(mask?.text($0) ?? $0)" }, clear: clear.lines.map { "#\(entry.request.id) \($0)" },
                to: &state)
        }
        return []
    }

    /// Appends lines, dropping the oldest beyond `limit`; `clear` are the same lines with secrets in
    /// clear (the masked ones when they have none).
    private static func append(_ lines: [String], clear: [String]? = nil, to state: inout LogState) {
        state.lines.append(contentsOf: lines)
        state.linesInClear.append(contentsOf: clear ?? lines)
        if state.lines.count > LogState.limit { state.lines.removeFirst(state.lines.count - LogState.limit) }
        if state.linesInClear.count > LogState.limit { state.linesInClear.removeFirst(state.linesInClear.count - LogState.limit) }
    }
}
