import Catalog
import TerminalKit
import TextSupport

/// Scratch requests: typed or pasted (`C-n`), read by the runner into a one-endpoint service, sent
/// live at once, and kept in a catalog file on request (`W`).
extension AppReducer {
    /// The mode the selected endpoint is sent in: a scratch request has no fixtures and always goes live.
    static func sendMode(_ state: AppState) -> RequestMode {
        state.activeService.map { isScratch($0.id, in: state) } == true ? .live : state.mode
    }

    /// Whether `service` is a scratch request's.
    static func isScratch(_ service: String, in state: AppState) -> Bool {
        state.scratch.contains { $0.service.id == service }
    }

    /// `W` on a scratch request: asks which catalog service to save it into.
    static func askWhereToSave(_ entry: ScratchEntry, state: inout AppState) -> [AppEffect] {
        guard state.catalog.source.directory != nil else {
            state.notice = "The bundled catalogs cannot be written: copy environments/ to a folder and use --catalog."
            return []
        }
        let first = state.catalog.services.first { !isScratch($0.id, in: state) }?.id
        state.overlay = .scratch(ScratchDialog(step: .save(scratch: entry.service.id), text: entry.matched?.service ?? first ?? ""))
        return []
    }

    /// Keys while the scratch window is open.
    static func typeInScratch(_ command: Command, dialog: ScratchDialog, state: inout AppState) -> [AppEffect] {
        var dialog = dialog
        switch command {
        case .cancelInput:
            state.overlay = nil
        case .edit(let edit):
            dialog.input.apply(edit)
            state.overlay = .scratch(dialog)
        case .accept:
            let text = dialog.input.text.trimmed
            switch dialog.step {
            case .compose:
                // A pasted multi-line curl command: a line ending in `\` goes on.
                if dialog.input.text.hasSuffix("\\") {
                    dialog.input = InputState(text: String(dialog.input.text.dropLast()) + " ")
                    state.overlay = .scratch(dialog)
                    return []
                }
                guard !text.isEmpty else {
                    state.notice = "Type a URL, METHOD URL, or paste a curl command (Esc closes)."
                    return []
                }
                state.overlay = nil
                let id = "scratch-\(state.nextScratchNumber)"
                state.nextScratchNumber += 1
                let effect = AppEffect.makeScratchRequest(text: dialog.input.text, id: id, preferring: state.activeEnvironmentKey)
                state.pendingLoads.insert(effect)
                return [effect]
            case .save(let scratchID):
                guard let entry = state.scratch.first(where: { $0.service.id == scratchID }) else {
                    state.overlay = nil
                    return []
                }
                let services = state.catalog.services.map(\.id).filter { !isScratch($0, in: state) }
                guard services.contains(text) else {
                    state.notice = "No service '\(text)' in the catalogs: one of \(services.joined(separator: ", "))."
                    return []
                }
                state.overlay = nil
                state.notice = "Saving the request into \(text)…"
                let key = DraftKey(endpoint: entry.endpoint ?? EndpointKey(service: scratchID, endpoint: "request"), environment: entry.service.environments.first?.name ?? "")
                let effect = AppEffect.saveScratchRequest(entry, edits: state.drafts[key], into: text)
                state.pendingLoads.insert(effect)
                return [effect]
            }
        default:
            break
        }
        return []
    }

    /// The runner read a scratch request: it joins the list, is selected and sent live.
    static func scratchRequestMade(_ entry: ScratchEntry?, error: String?, state: inout AppState) -> [AppEffect] {
        state.pendingLoads = state.pendingLoads.filter { if case .makeScratchRequest = $0 { false } else { true } }
        guard let entry, let environment = entry.service.environments.first else {
            state.notice = "Not sent: \(error ?? "the request could not be read")."
            return []
        }
        state.scratch.append(entry)
        state.catalog = state.catalog.addingScratch(state.scratch)
        state.selectEnvironment(EnvironmentKey(service: entry.service.id, environment: environment.name))
        state.endpointList = ListState(selected: 0)
        state.focus = .endpoints
        let effects = send(state: &state, example: nil)
        state.notice = entry.matched.map { "Sent with the settings of \($0) (W saves it there)." }
            ?? "Sent as is, outside the catalogs (W saves it into a service)."
        return effects
    }

    /// The runner saved a scratch request into a catalog file: the new endpoint takes its place.
    static func scratchRequestSaved(scratch id: String, endpoint: EndpointKey?, secretNames: [String], error: String?, state: inout AppState) -> [AppEffect] {
        state.pendingLoads = state.pendingLoads.filter { if case .saveScratchRequest = $0 { false } else { true } }
        guard let endpoint, error == nil else {
            state.notice = "Not saved: \(error ?? "unknown error")"
            return []
        }
        let environment = state.scratch.first { $0.service.id == id }?.matched
        state.scratch.removeAll { $0.service.id == id }
        state.catalog.services.removeAll { $0.id == id }
        if let environment, environment.service == endpoint.service {
            state.selectEnvironment(environment)
        } else if let first = state.catalog.service(endpoint.service)?.environments.first {
            state.selectEnvironment(EnvironmentKey(service: endpoint.service, environment: first.name))
        }
        state.selectEndpoint(endpoint)
        state.notice = "Saved as \(endpoint) in its catalog file"
            + (secretNames.isEmpty ? "." : "; its secrets were not written: set \(secretNames.joined(separator: ", ")) in .env beside the catalog (or $APIEXPLORER_SECRET_NAME).")
        return []
    }
}
