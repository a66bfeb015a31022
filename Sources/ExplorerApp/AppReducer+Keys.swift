import Catalog
import DispatcherCore
import RequestExport
import Sessions
import TerminalKit

extension AppReducer {
    static func handleKey(_ event: KeyEvent, state: inout AppState) -> [AppEffect] {
        let context = state.keyContext
        guard var command = Keymap.command(for: event, in: context, bindings: state.config.bindings) else { return [] }
        if command == .quit { return quit(&state) }
        if command == .acceptAndSend {
            let elsewhere = state.finder.isOpen || state.overlay != nil || state.filter?.isEditing == true
                || state.body.prompt(state.selectedBodyKey) != nil
            if !elsewhere, let effects = acceptAndSend(state: &state) { return effects }
            command = .accept
        }
        if state.finder.isOpen { return scope(FinderFeature.self, \.finder, .key(command), &state) }
        if let overlay = state.overlay { return handleWindow(command, overlay: overlay, state: &state) }
        if state.filter?.isEditing == true { return navigate(.filterKey(command), state: &state) }
        if state.body.prompt(state.selectedBodyKey) != nil { return scope(BodyFeature.self, \.body, .promptKey(command), &state) }
        if state.isInEditor, let input = state.editor.input { return typeInEditor(command, input: input, state: &state) }
        if state.isInVariables, let input = state.variablesTab.input { return typeValue(command, input: input, state: &state) }
        return perform(command, state: &state)
    }

    /// Carries out a command from the keymap.
    static func perform(_ command: Command, state: inout AppState) -> [AppEffect] {
        switch command {
        case .focusNext:
            state.focus = Pane(rawValue: (state.focus.rawValue + 1) % Pane.allCases.count) ?? .endpoints
        case .focusPrevious:
            state.focus = Pane(rawValue: (state.focus.rawValue + Pane.allCases.count - 1) % Pane.allCases.count) ?? .endpoints
        case .moveDown: move(.down(1), state: &state)
        case .moveUp: move(.up(1), state: &state)
        case .pageDown:
            if state.focus == .response, moveInEvents(.down(1), paging: true, state: &state) || moveInFrames(.down(1), paging: true, state: &state) || moveInBody(.down(1), paging: true, state: &state) {
                return []
            }
            move(.down(state.pageHeight), state: &state)
        case .pageUp:
            if state.focus == .response, moveInEvents(.up(1), paging: true, state: &state) || moveInFrames(.up(1), paging: true, state: &state) || moveInBody(.up(1), paging: true, state: &state) {
                return []
            }
            move(.up(state.pageHeight), state: &state)
        case .moveToTop: move(.top, state: &state)
        case .moveToBottom: move(.bottom, state: &state)
        case .send:
            if state.focus == .environments {
                state.focus = .endpoints
                return []
            }
            if state.focus == .endpoints, state.selectedRow?.groupID != nil { return navigate(.toggleGroup, state: &state) }
            return send(state: &state, example: state.selectedExample)
        case .resend:
            guard let last = state.selectedResponse?.call else {
                state.notice = "Nothing to resend yet: press Enter to send."
                return []
            }
            return dispatch(last, state: &state)
        case .cancelOrClose:
            return cancelOrClose(state: &state)
        case .sendMessage:
            guard let endpoint = state.selectedEndpoint else { return [] }
            return scope(WebSocketFeature.self, \.webSocket, .openComposer(endpoint), &state)
        case .newRequest:
            return scope(ScratchFeature.self, \.scratch, .compose, &state)
        case .download:
            askWhereToDownload(state: &state)
        case .showCookies:
            return scope(AuthFeature.self, \.auth, .showCookies, &state)
        case .showTokens:
            return scope(AuthFeature.self, \.auth, .showTokens, &state)
        case .saveRequest:
            if let service = state.activeService?.id, let entry = state.scratch.entry(service: service) {
                return scope(ScratchFeature.self, \.scratch, .askWhereToSave(entry), &state)
            }
            return perform(EditorCommand.writeToCatalog, state: &state)
        case .toggleMode:
            state.mode = state.mode.toggled
            state.notice = state.mode == .live
                ? "LIVE: requests go to \(state.activeEnvironment?.baseURL.absoluteString ?? "the network")."
                : "STUB: requests are answered by the catalog's fixtures."
        case .nextEnvironment: return navigate(.switchEnvironment(by: 1), state: &state)
        case .previousEnvironment: return navigate(.switchEnvironment(by: -1), state: &state)
        case .pickExample:
            guard let endpoint = state.selectedEndpoint else { return [] }
            let names = endpoint.exampleNames
            let current = state.chosenExample[endpoint.key].flatMap { names.firstIndex(of: $0) } ?? 0
            state.overlay = .examplePicker(endpoint: endpoint.key, list: ListState(selected: current))
        case .showTab(let tab):
            state.tab = tab
        case .nextTab:
            state.tab = ResponseTab(rawValue: state.tab.rawValue % ResponseTab.allCases.count + 1) ?? .body
        case .previousTab:
            state.tab = ResponseTab(rawValue: (state.tab.rawValue + ResponseTab.allCases.count - 2) % ResponseTab.allCases.count + 1) ?? .body
        case .filter:
            state.focus = .endpoints
            return navigate(.openFilter, state: &state)
        case .copyCurl:
            guard let record = state.selectedResponse else {
                state.notice = "Send the request first; then c copies it as curl."
                return []
            }
            let redactor: Redactor? = state.revealsSecrets ? nil : record.redactor
            let curl = record.exchange.request.curlCommand(redactor: redactor)
            return [.copyToClipboard(text: curl, description: state.revealsSecrets ? "the curl command" : "the curl command (secrets masked; v reveals)")]
        case .copyAs:
            guard state.selectedResponse != nil else {
                state.notice = "Send the request first; then C copies it as code."
                return []
            }
            state.overlay = .copyAs(list: ListState(selected: 0))
        case .revealSecrets:
            state.revealsSecrets.toggle()
            state.notice = state.revealsSecrets ? "Secrets are shown in clear: v masks them again." : "Secrets are masked."
            return scope(BodyFeature.self, \.body, .maskingChanged, &state)
        case .showHistory:
            return scope(HistoryFeature.self, \.history, .show, &state)
        case .showDiagnostics:
            if state.catalog.diagnostics.isEmpty {
                state.notice = "The catalog has no problems (\(state.catalog.source.displayPath))."
            } else {
                state.overlay = .diagnostics(scroll: 0)
            }
        case .showMessages:
            return scope(MessagesFeature.self, \.messages, .show, &state)
        case .help:
            state.overlay = .help(scroll: 0)
        case .quit:
            return quit(&state)
        case .body(let command):
            return scope(BodyFeature.self, \.body, .command(command), &state)
        case .editor(let command):
            return perform(command, state: &state)
        case .variables(let command):
            return perform(command, state: &state)
        case .findEndpoint:
            return scope(FinderFeature.self, \.finder, .open(.endpoints), &state)
        case .commandPalette:
            return scope(FinderFeature.self, \.finder, .open(.commands), &state)
        case .runFlow:
            return scope(TestsFeature.self, \.tests, .runFlow, &state)
        case .runServiceTests:
            return scope(TestsFeature.self, \.tests, .runServiceTests, &state)
        case .tests(let command):
            return scope(TestsFeature.self, \.tests, .key(command), &state)
        case .navigation(let command):
            return state.focus == .endpoints || command == .toggleRowStyle ? navigate(.tree(command), state: &state) : []
        case .widenList:
            return scope(PanesFeature.self, \.panes, .widen(by: PanesState.step), &state)
        case .narrowList:
            return scope(PanesFeature.self, \.panes, .widen(by: -PanesState.step), &state)
        case .zoom:
            return scope(PanesFeature.self, \.panes, .toggleZoom, &state)
        case .setQueryItem:
            return startDirectEdit(.setQuery, state: &state)
        case .setHeader:
            return startDirectEdit(.setHeader, state: &state)
        case .choose, .close, .confirm, .decline, .accept, .acceptAndSend, .cancelInput, .edit, .nextNamedMessage, .deleteItem, .signInAgain:
            break  // bound only in windows, questions and typing
        }
        return []
    }

    package enum Movement: Sendable {
        case up(Int), down(Int), top, bottom

        /// A cursor at `row` of `count` rows after the movement, kept on a row.
        func applied(to row: Int, count: Int) -> Int {
            let moved: Int = switch self {
            case .up(let step): row - step
            case .down(let step): row + step
            case .top: 0
            case .bottom: count - 1
            }
            return max(0, min(count - 1, moved))
        }
    }

    static func move(_ movement: Movement, wheel: Bool = false, state: inout AppState) {
        switch state.focus {
        case .environments, .endpoints:
            _ = navigate(.move(state.focus, movement), state: &state)
        case .response:
            if moveInEvents(movement, state: &state) || moveInFrames(movement, state: &state) || moveInBody(movement, wheel: wheel, state: &state) { return }
            if moveInEditor(movement, state: &state) || moveInVariables(movement, state: &state) { return }
            let current = state.tabScroll[state.tab] ?? 0
            let limit = ResponseText.maximumScroll(state: state)
            switch movement {
            case .up(let count): state.tabScroll[state.tab] = max(0, current - count)
            case .down(let count): state.tabScroll[state.tab] = min(limit, current + count)
            case .top: state.tabScroll[state.tab] = 0
            case .bottom: state.tabScroll[state.tab] = limit
            }
        }
    }

    /// Sends the selected endpoint in the active environment and mode.
    static func send(state: inout AppState, example: String?, downloadPath: String? = nil) -> [AppEffect] {
        guard let environment = state.activeEnvironment, let endpoint = state.selectedEndpoint, let key = state.activeEnvironmentKey else {
            state.notice = "No endpoint to send."
            return []
        }
        let edits = state.selectedEdits
        let edited: CatalogEndpoint
        do throws(EditsError) {
            edited = try endpoint.applying(edits)
        } catch {
            state.notice = "Not sent: \(error.message) (Edit tab)."
            return []
        }
        // A scratch request has no fixtures: it always goes to the network.
        let mode = sendMode(state)
        // A picked example is a fixture: a live send goes to the server without it.
        let example = mode == .live ? nil : example
        var call = EndpointCall(
            endpoint: endpoint.key, catalog: key.catalog, environment: environment.name, mode: mode, example: example, values: state.activeValues,
            edits: edits.isEmpty ? nil : edits)
        // `download:` in the catalog makes every send of the endpoint a download; `d` asks where.
        call.downloadPath = downloadPath ?? endpoint.download
        if downloadPath == nil, endpoint.download != nil { call.downloadPlace = .downloadsFolder }
        call.captured = state.capturedValues(for: edited, environment: call.environmentKey, mode: mode)
        let prompts = state.unansweredPrompts(for: edited, values: call.values)
        if !prompts.isEmpty {
            state.overlay = .prompt(PromptDialog(call: call, prompts: prompts))
            return []
        }
        return confirmThenDispatch(call, state: &state)
    }

    /// Sends a call, asking first when its catalog is not trusted and it would reach outside it,
    /// and when it is live and changes data in production.
    static func confirmThenDispatch(_ call: EndpointCall, state: inout AppState) -> [AppEffect] {
        guard let (service, endpoint) = state.catalog.endpoint(call.endpoint), let environment = state.catalog.environment(call.environmentKey)?.environment
        else { return dispatch(call, state: &state) }
        if let question = trustQuestion(for: call, service: service, catalogDownload: endpoint.download) {
            state.overlay = .confirmTrust(question)
            return []
        }
        let method = call.edits?.method ?? endpoint.method
        if call.mode == .live, environment.type.isProduction, ![.get, .head, .options].contains(method) {
            state.overlay = .confirmSend(call)
            return []
        }
        return dispatchCheckingDownload(call, state: &state)
    }

    /// Sends a call; a download's file is checked first (`.checkDownload`): confined to the
    /// downloads folder when the catalog names it, and replaced only when the person says so.
    static func dispatchCheckingDownload(_ call: EndpointCall, state: inout AppState) -> [AppEffect] {
        if call.downloadPath != nil, !call.downloadIsChecked {
            state.pendingLoads.insert(.checkDownload(call))
            return [.checkDownload(call)]
        }
        return dispatch(call, state: &state)
    }

    /// Where a download's file turned out to be: a problem stops it, an existing file is asked about.
    static func downloadChecked(_ call: EndpointCall, path: String, exists: Bool, problem: String?, state: inout AppState) -> [AppEffect] {
        state.pendingLoads.remove(.checkDownload(call))
        if let problem {
            state.notice = "Not downloaded: \(problem)."
            return []
        }
        var checked = call
        checked.downloadPath = path
        checked.downloadPlace = .checked(replaces: false)
        if exists {
            state.overlay = .confirmReplace(checked)
            return []
        }
        return dispatch(checked, state: &state)
    }

    /// Sends a request from the history as it was sent (endpoint, environment, mode, example),
    /// asking first where a live request changes data in production.
    static func sendAgain(_ call: EndpointCall, state: inout AppState) -> [AppEffect] {
        guard let found = state.catalog.endpoint(call.endpoint), let environment = state.catalog.environment(call.environmentKey)?.environment else {
            state.notice = "\(call.endpoint) in \(call.environment) is no longer in the catalog."
            return []
        }
        if let question = trustQuestion(for: call, service: found.service, catalogDownload: found.endpoint.download) {
            state.overlay = .confirmTrust(question)
            return []
        }
        if call.mode == .live, environment.type.isProduction, ![.get, .head, .options].contains(found.endpoint.method) {
            state.overlay = .confirmSend(call)
            return []
        }
        // Show where it goes: its environment and endpoint become the current ones, so the
        // response appears in the response pane.
        _ = scope(NavigationFeature.self, \.navigation, .show(call.endpoint, in: call.environmentKey), &state)
        state.notice = "Sending \(call.endpoint) to \(call.environment) (\(call.mode.badge)) again."
        return dispatchCheckingDownload(call, state: &state)
    }

    /// Gives the call a ticket, marks it in flight and asks the runtime to send it.
    static func dispatch(_ call: EndpointCall, state: inout AppState) -> [AppEffect] {
        var ticket = RequestTicket(id: state.nextTicket, call: call)
        ticket.showsActivity = state.catalog.endpoint(call.endpoint)?.endpoint.showsActivity ?? true
        state.nextTicket += 1
        state.inFlight[ticket.id] = ticket
        // Weakened TLS is said each time a request goes out with it, not only by validate.
        if call.mode == .live, let environment = state.catalog.environment(call.environmentKey)?.environment,
            let weakness = environment.trust.weaknesses.first, environment.baseURL.scheme?.lowercased() == "https"
        {
            state.notice = "Warning: in \(call.environment), \(weakness)."
        }
        return [.send(ticket)]
    }

    static func cancelOrClose(state: inout AppState) -> [AppEffect] {
        if let ticket = state.selectedInFlight, state.webSocket.isClosable(ticket) {
            return scope(WebSocketFeature.self, \.webSocket, .close(ticket), &state)
        }
        if let ticket = state.selectedInFlight ?? state.inFlight.values.max(by: { $0.id < $1.id }) {
            state.notice = state.body.streams[ticket.endpoint]?.ticket == ticket.id ? "Closing the stream of \(ticket.endpoint)…" : "Cancelling \(ticket.endpoint)…"
            return [.cancel(ticket: ticket.id)]
        }
        if state.body.isBuilding(state.selectedBodyKey) { return scope(BodyFeature.self, \.body, .cancelBuild, &state) }
        if state.isInBody, state.body.hasLayerToClose(state.selectedBodyKey) { return scope(BodyFeature.self, \.body, .closeLayer, &state) }
        if state.filter != nil { return navigate(.closeFilter, state: &state) }
        // Last: with nothing else to cancel, Esc brings the zoomed panes back.
        return state.panes.isZoomed ? scope(PanesFeature.self, \.panes, .unzoom, &state) : []
    }

    /// Moves the cursor in the selected event stream; false when the Body tab shows no events.
    static func moveInEvents(_ movement: Movement, paging: Bool = false, state: inout AppState) -> Bool {
        guard state.tab == .body, state.body.showsEvents(state.selectedBodyKey) else { return false }
        _ = scope(BodyFeature.self, \.body, .moveInEvents(movement, paging: paging), &state)
        return true
    }

    /// Moves in the selected body; false when the Body tab has nothing to move in.
    static func moveInBody(_ movement: Movement, paging: Bool = false, wheel: Bool = false, state: inout AppState) -> Bool {
        guard state.tab == .body, state.body.canMove(state.selectedBodyKey) else { return false }
        _ = scope(BodyFeature.self, \.body, .move(movement, paging: paging, wheel: wheel), &state)
        return true
    }

    /// Moves the cursor in the selected conversation's frames; false when the Body tab shows none.
    static func moveInFrames(_ movement: Movement, paging: Bool = false, state: inout AppState) -> Bool {
        guard state.tab == .body, let key = state.selectedBodyKey, state.webSocket.panes[key]?.selectedIndex != nil else { return false }
        _ = scope(WebSocketFeature.self, \.webSocket, .moveCursor(key, movement, paging: paging, pageHeight: state.pageHeight), &state)
        return true
    }

    /// A key while a window is open: to the slice that owns the window.
    static func handleWindow(_ command: Command, overlay: Dialog, state: inout AppState) -> [AppEffect] {
        switch overlay {
        case .scratch: return scope(ScratchFeature.self, \.scratch, .dialog(command), &state)
        case .flows: return scope(TestsFeature.self, \.tests, .window(command), &state)
        case .download(let dialog): return typeDownloadPath(command, dialog: dialog, state: &state)
        case .message: return scope(WebSocketFeature.self, \.webSocket, .composer(command), &state)
        case .cookies, .tokens, .history:
            if command == .close {
                state.overlay = nil
                return []
            }
            // The windows show masked values; `v` reveals them as it does in the panes.
            if command == .revealSecrets { return perform(command, state: &state) }
            if case .history = overlay { return scope(HistoryFeature.self, \.history, .window(command), &state) }
            return scope(AuthFeature.self, \.auth, .window(command), &state)
        default:
            return scope(OverlaysFeature.self, \.overlays, .key(command), &state)
        }
    }

    /// What to ask before `call` when its catalog is not trusted and it would reach outside it:
    /// over the network, or to the catalog's download file. Nil when nothing needs asking.
    static func trustQuestion(for call: EndpointCall, service: Service, catalogDownload: String?) -> TrustQuestion? {
        guard !service.isTrusted, let contentHash = service.contentHash else { return nil }
        let reason: String
        if call.mode == .live {
            reason = "send requests over the network"
        } else if let download = call.downloadPath, call.downloadPlace == .downloadsFolder, download == catalogDownload {
            reason = "write \(download) in the downloads folder"
        } else {
            return nil
        }
        return TrustQuestion(call: call, declaration: TrustDeclaration(service), contentHash: contentHash, reason: reason)
    }
}

extension AppState {
    /// What the keyboard is doing now: a question, a window, typing, or the panes.
    package var keyContext: KeyContext {
        if finder.isOpen { return .typing }
        if let overlay {
            if case .confirmSend = overlay { return .question }
            if case .confirmTrust = overlay { return .question }
            if case .confirmReplace = overlay { return .question }
            if case .confirmWrite = overlay { return .question }
            if case .prompt = overlay { return .typing }
            if case .scratch = overlay { return .typing }
            if case .download = overlay { return .typing }
            if case .message = overlay { return .typing }
            return .window
        }
        if filter?.isEditing == true { return .typing }
        if let prompt = body.prompt(selectedBodyKey) {
            if case .confirmOverwrite = prompt.kind { return .question }
            return .typing
        }
        if isInEditor, editor.input != nil { return .typing }
        if isInVariables, variablesTab.input != nil { return .typing }
        if isInBody { return .panes(.body) }
        if isInEditor { return .panes(.edit) }
        if isInVariables { return .panes(.variables) }
        if tab == .tests, selectedEndpoint != nil { return .panes(.tests) }
        return .panes(.none)
    }

    /// Rows a page key moves by: the height of the pane that has focus.
    var pageHeight: Int {
        let layout = self.layout
        switch focus {
        case .environments: return max(1, layout.environments.height - 2)
        case .endpoints: return max(1, layout.endpoints.height - 2)
        case .response: return max(1, layout.responseContent.height)
        }
    }
}
