import Catalog
import TerminalKit
import TextSupport

/// Scratch requests: typed or pasted (`C-n`), read by the runner into a one-endpoint service, sent
/// live at once, and kept in a catalog file on request (`W`).
package struct ScratchState: Sendable {
    /// The requests made while the explorer runs, oldest first (their services follow the catalog's).
    package fileprivate(set) var entries: [ScratchEntry] = []
    /// The number of the next one.
    package fileprivate(set) var nextNumber = 1

    /// Whether `service` is a scratch request's.
    package func holds(_ service: String) -> Bool {
        entries.contains { $0.service.id == service }
    }

    /// The scratch request whose service is `service`.
    package func entry(service: String) -> ScratchEntry? {
        entries.first { $0.service.id == service }
    }
}

/// What happens to scratch requests.
package enum ScratchAction: Sendable {
    /// `C-n`: ask for a request.
    case compose
    /// `W` (or the Edit tab's write) on a scratch request: ask which catalog service to save it into.
    case askWhereToSave(ScratchEntry)
    /// A key while the scratch window is open.
    case dialog(Command)
    /// The runner read a scratch request (or could not: the error).
    case made(ScratchEntry?, error: String?)
    /// A scratch request (by its service id) was saved as `endpoint`, whose secrets need values; or not (the error).
    case saved(scratch: String, endpoint: EndpointKey?, secretNames: [String], error: String?)
}

/// Work the runner does for scratch requests.
package enum ScratchEffect: Sendable, Hashable {
    /// Read a scratch request's text into service `id`, under `preferring`'s settings when its URL lies there; report `.made`.
    case make(text: String, id: String, preferring: EnvironmentKey?)
    /// Save a scratch request (with its edits) as a new endpoint of catalog service `into`; report `.saved`.
    case save(ScratchEntry, edits: EndpointEdits?, into: String)
}

enum ScratchFeature: AppFeature {
    /// What a scratch request is made and saved with.
    struct Context {
        /// Whether the catalogs are files that can be written (not the bundled ones).
        var catalogIsWritable: Bool
        /// The catalogs' own services (no scratch request's), in order.
        var catalogServices: [String]
        /// The environment the panes show: its settings are preferred for a new request.
        var activeEnvironment: EnvironmentKey?
        /// Edits not saved yet, which a saved request keeps.
        var drafts: [DraftKey: EndpointEdits]
    }

    static func context(of app: AppState) -> Context {
        Context(
            catalogIsWritable: app.catalog.source.directory != nil,
            catalogServices: app.catalog.services.map(\.id).filter { !app.scratch.holds($0) },
            activeEnvironment: app.activeEnvironmentKey, drafts: app.drafts)
    }

    static func reduce(_ state: inout ScratchState, _ action: ScratchAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .compose:
            shell.present(.scratch(ScratchDialog(step: .compose)))
        case .askWhereToSave(let entry):
            guard context.catalogIsWritable else {
                shell.notice = "The bundled catalogs cannot be written: start with --catalog DIR (an empty folder will do: W then makes a service there)."
                return []
            }
            shell.present(.scratch(ScratchDialog(step: .save(scratch: entry.service.id), text: entry.matched?.service ?? context.catalogServices.first ?? "")))
        case .dialog(let command):
            guard case .scratch(let dialog)? = shell.window else { return [] }
            return typeInDialog(command, dialog: dialog, state: &state, shell: &shell, context: context)
        case .made(let entry, let error):
            shell.pendingLoads = shell.pendingLoads.filter { if case .scratch(.make) = $0 { false } else { true } }
            guard let entry, let environment = entry.service.environments.first else {
                shell.notice = "Not sent: \(error ?? "the request could not be read")."
                return []
            }
            state.entries.append(entry)
            let notice = entry.matched.map { "Sent with the settings of \($0) (W saves it there)." }
                ?? "Sent as is, outside the catalogs (W saves it into a service)."
            shell.requests.append(.openScratch(EnvironmentKey(entry.service, environment: environment.name), notice: notice))
        case .saved(let id, let endpoint, let secretNames, let error):
            shell.pendingLoads = shell.pendingLoads.filter { if case .scratch(.save) = $0 { false } else { true } }
            guard let endpoint, error == nil else {
                shell.notice = "Not saved: \(error ?? "unknown error")"
                return []
            }
            let environment = state.entry(service: id)?.matched
            state.entries.removeAll { $0.service.id == id }
            let notice = "Saved as \(endpoint) in its catalog file"
                + (secretNames.isEmpty ? "." : "; its secrets were not written: set \(secretNames.joined(separator: ", ")) in .env beside the catalog (or $APIEXPLORER_SECRET_NAME).")
            shell.requests.append(.replaceScratch(id, by: endpoint, near: environment, notice: notice))
        }
        return []
    }

    /// Keys while the scratch window is open.
    static func typeInDialog(_ command: Command, dialog: ScratchDialog, state: inout ScratchState, shell: inout AppShell, context: Context) -> [AppEffect] {
        var dialog = dialog
        switch command {
        case .cancelInput:
            shell.dismiss()
        case .edit(let edit):
            dialog.input.apply(edit)
            shell.present(.scratch(dialog))
        case .accept:
            let text = dialog.input.text.trimmed
            switch dialog.step {
            case .compose:
                // A pasted multi-line curl command: a line ending in `\` goes on.
                if dialog.input.text.hasSuffix("\\") {
                    dialog.input = InputState(text: String(dialog.input.text.dropLast()) + " ")
                    shell.present(.scratch(dialog))
                    return []
                }
                guard !text.isEmpty else {
                    shell.notice = "Type a URL, METHOD URL, or paste a curl command (Esc closes)."
                    return []
                }
                shell.dismiss()
                let id = "scratch-\(state.nextNumber)"
                state.nextNumber += 1
                let effect = AppEffect.scratch(.make(text: dialog.input.text, id: id, preferring: context.activeEnvironment))
                shell.pendingLoads.insert(effect)
                return [effect]
            case .save(let scratchID):
                guard let entry = state.entry(service: scratchID) else {
                    shell.dismiss()
                    return []
                }
                // A name not in the catalogs makes a new service (its own file): the way to start a catalog.
                let isNew = !context.catalogServices.contains(text)
                guard !isNew || isServiceID(text) else {
                    shell.notice = "'\(text)' cannot name a service: letters, digits, - and _ (a new name makes a new service)."
                    return []
                }
                shell.dismiss()
                shell.notice = isNew ? "Making service \(text) (\(text).yaml) with the request…" : "Saving the request into \(text)…"
                let key = DraftKey(
                    endpoint: entry.endpoint ?? EndpointKey(service: scratchID, endpoint: "request"),
                    in: EnvironmentKey(entry.service, environment: entry.service.environments.first?.name ?? ""))
                let effect = AppEffect.scratch(.save(entry, edits: context.drafts[key], into: text))
                shell.pendingLoads.insert(effect)
                return [effect]
            }
        default:
            break
        }
        return []
    }
}

extension ScratchFeature {
    /// Whether `text` can be a new service's id (and its file's name).
    static func isServiceID(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, first.properties.isAlphabetic else { return false }
        return text.count <= 64 && text.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil)) || $0 == "-" || $0 == "_" }
    }
}
