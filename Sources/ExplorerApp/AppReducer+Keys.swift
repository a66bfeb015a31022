import Catalog
import TerminalKit

/// Where a key goes: the finder, the window over the panes (to the feature whose window it is),
/// a line being typed, or a command of the panes — each to the slice it is for, in one line.
extension AppReducer {
    static func handleKey(_ event: KeyEvent, state: inout AppState) -> [AppEffect] {
        let context = state.keyContext
        guard var command = Keymap.command(for: event, in: context, bindings: state.config.bindings) else { return [] }
        if command == .quit { return quit(&state) }
        if command == .acceptAndSend {
            let elsewhere = state.finder.isOpen || state.overlay != nil || state.filter?.isEditing == true
                || state.body.prompt(state.selectedBodyKey) != nil
            if !elsewhere, let inVariables = state.acceptsAndSends {
                return scope(EditingFeature.self, \.editing, .acceptAndSend(inVariables: inVariables), &state)
            }
            command = .accept
        }
        if state.finder.isOpen { return scope(FinderFeature.self, \.finder, .key(command), &state) }
        if let overlay = state.overlay { return windowKey(command, overlay: overlay, state: &state) }
        if state.filter?.isEditing == true { return navigate(.filterKey(command), state: &state) }
        if state.body.prompt(state.selectedBodyKey) != nil { return scope(BodyFeature.self, \.body, .promptKey(command), &state) }
        if state.isInEditor, state.editor.input != nil { return scope(EditingFeature.self, \.editing, .typeInEditor(command), &state) }
        if state.isInVariables, state.variablesTab.input != nil { return scope(EditingFeature.self, \.editing, .typeValue(command), &state) }
        return perform(command, state: &state)
    }

    /// A key while a window is open: to the slice whose window it is; a question's `y` and `n`
    /// arrive as its answer.
    static func windowKey(_ command: Command, overlay: Dialog, state: inout AppState) -> [AppEffect] {
        let input: WindowInput = overlay.keyContext == .question && (command == .confirm || command == .decline)
            ? .answer(command == .confirm) : .key(command)
        switch overlay {
        case .help, .diagnostics, .messages: return scope(OverlaysFeature.self, \.overlays, .key(command), &state)
        case .exchanges(let dialog): return scope(ExchangesFeature.self, \.exchanges, .dialog(dialog, input), &state)
        case .editing(let dialog): return scope(EditingFeature.self, \.editing, .dialog(dialog, input), &state)
        case .scratch: return scope(ScratchFeature.self, \.scratch, .dialog(command), &state)
        case .webSocket: return scope(WebSocketFeature.self, \.webSocket, .composer(command), &state)
        case .checks: return scope(ChecksFeature.self, \.checks, .window(command), &state)
        // The windows show masked values; `v` reveals them as it does in the panes.
        case .history where command == .revealSecrets, .auth where command == .revealSecrets: return perform(command, state: &state)
        case .history: return scope(HistoryFeature.self, \.history, .window(command), &state)
        case .auth: return scope(AuthFeature.self, \.auth, .window(command), &state)
        }
    }

    /// Carries out a command of the panes: the app's own here, a feature's in its slice.
    static func perform(_ command: Command, state: inout AppState) -> [AppEffect] {
        switch command {
        case .focusNext:
            state.focus = Pane(rawValue: (state.focus.rawValue + 1) % Pane.allCases.count) ?? .endpoints
        case .focusPrevious:
            state.focus = Pane(rawValue: (state.focus.rawValue + Pane.allCases.count - 1) % Pane.allCases.count) ?? .endpoints
        case .moveDown: move(.down(1), state: &state)
        case .moveUp: move(.up(1), state: &state)
        case .pageDown, .pageUp:
            let step: Movement = command == .pageDown ? .down(1) : .up(1)
            if state.focus == .response, moveInEvents(step, paging: true, state: &state) || moveInFrames(step, paging: true, state: &state)
                || moveInBody(step, paging: true, state: &state)
            {
                return []
            }
            move(command == .pageDown ? .down(state.pageHeight) : .up(state.pageHeight), state: &state)
        case .moveToTop: move(.top, state: &state)
        case .moveToBottom: move(.bottom, state: &state)
        case .revealSecrets:
            state.revealsSecrets.toggle()
            state.notice = state.revealsSecrets ? "Secrets are shown in clear: v masks them again." : "Secrets are masked."
            return scope(BodyFeature.self, \.body, .maskingChanged, &state)
        case .quit:
            return quit(&state)
        // Features: each to its slice.
        case .exchanges(.send):
            if state.focus == .environments {
                state.focus = .endpoints
                return []
            }
            if state.focus == .endpoints, state.selectedRow?.groupID != nil { return navigate(.toggleGroup, state: &state) }
            return scope(ExchangesFeature.self, \.exchanges, .command(.send), &state)
        case .exchanges(.cancelOrClose):
            return cancelOrClose(state: &state)
        case .exchanges(let command): return scope(ExchangesFeature.self, \.exchanges, .command(command), &state)
        case .navigation(.filter):
            state.focus = .endpoints
            return navigate(.openFilter, state: &state)
        case .navigation(.nextEnvironment): return navigate(.switchEnvironment(by: 1), state: &state)
        case .navigation(.previousEnvironment): return navigate(.switchEnvironment(by: -1), state: &state)
        case .navigation(let command):
            return state.focus == .endpoints || command == .toggleRowStyle ? navigate(.tree(command), state: &state) : []
        case .finder(let command): return scope(FinderFeature.self, \.finder, .open(command == .findEndpoint ? .endpoints : .commands), &state)
        case .response(let command): return scope(ResponseFeature.self, \.response, .command(command), &state)
        case .panes(let command): return scope(PanesFeature.self, \.panes, .command(command), &state)
        case .overlays(let command): return scope(OverlaysFeature.self, \.overlays, .command(command), &state)
        case .messages(.showMessages): return scope(MessagesFeature.self, \.messages, .show, &state)
        case .history(.showHistory): return scope(HistoryFeature.self, \.history, .show, &state)
        case .auth(let command): return scope(AuthFeature.self, \.auth, .command(command), &state)
        case .checks(let command): return scope(ChecksFeature.self, \.checks, .command(command), &state)
        case .scratch(.newRequest): return scope(ScratchFeature.self, \.scratch, .compose, &state)
        case .webSocket(.sendMessage):
            guard let endpoint = state.selectedEndpoint else { return [] }
            return scope(WebSocketFeature.self, \.webSocket, .openComposer(endpoint), &state)
        case .editing(.saveRequest):
            if let service = state.activeService?.id, let entry = state.scratch.entry(service: service) {
                return scope(ScratchFeature.self, \.scratch, .askWhereToSave(entry), &state)
            }
            return perform(.editor(.writeToCatalog), state: &state)
        case .editing(.setQueryItem): return scope(EditingFeature.self, \.editing, .startDirectEdit(.setQuery), &state)
        case .editing(.setHeader): return scope(EditingFeature.self, \.editing, .startDirectEdit(.setHeader), &state)
        case .editor(let command):
            // Keeping a scratch request is the scratch slice's: it becomes an endpoint of a service.
            if command == .writeToCatalog || command == .saveAsNewEndpoint, state.selectedDraftKey != nil,
                let service = state.activeService?.id, let entry = state.scratch.entry(service: service)
            {
                return scope(ScratchFeature.self, \.scratch, .askWhereToSave(entry), &state)
            }
            return scope(EditingFeature.self, \.editing, .editor(command), &state)
        case .variables(let command): return scope(EditingFeature.self, \.editing, .variables(command, rows: state.variableRows), &state)
        case .body(let command): return scope(BodyFeature.self, \.body, .command(command), &state)
        case .choose, .close, .confirm, .decline, .accept, .acceptAndSend, .cancelInput, .edit, .nextNamedMessage:
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

        /// Where a cursor goes in a list that grows while it is shown (events, frames): nil when the
        /// newest item is chosen, which means following the list again.
        func followingCursor(paging: Bool, from current: Int, count: Int, pageHeight: Int) -> Int? {
            let page = max(1, pageHeight - 1)
            let step: Movement = switch self {
            case .down(let lines): .down(paging ? page : lines)
            case .up(let lines): .up(paging ? page : lines)
            default: self
            }
            let target = step.applied(to: current, count: count)
            return target == count - 1 ? nil : target
        }
    }

    /// Moves in the focused pane: a list's cursor, or in the response pane what its tab shows.
    static func move(_ movement: Movement, wheel: Bool = false, state: inout AppState) {
        switch state.focus {
        case .environments, .endpoints:
            _ = navigate(.move(state.focus, movement), state: &state)
        case .response:
            if moveInEvents(movement, state: &state) || moveInFrames(movement, state: &state) || moveInBody(movement, wheel: wheel, state: &state) { return }
            if state.isInEditor, state.editedRequest != nil {
                _ = scope(EditingFeature.self, \.editing, .moveEditor(movement), &state)
                return
            }
            if state.isInVariables {
                _ = scope(EditingFeature.self, \.editing, .moveVariables(movement, count: state.variableRows.count), &state)
                return
            }
            _ = scope(ResponseFeature.self, \.response, .scroll(movement, limit: ResponseText.maximumScroll(state: state)), &state)
        }
    }

    /// Esc: a conversation's closing handshake, a request cancelled (a stream closed), a body's
    /// formatting or layer, the filter, the zoom — the first that applies.
    static func cancelOrClose(state: inout AppState) -> [AppEffect] {
        if let ticket = state.selectedInFlight, state.webSocket.isClosable(ticket) {
            return scope(WebSocketFeature.self, \.webSocket, .close(ticket), &state)
        }
        if let ticket = state.selectedInFlight ?? state.inFlight.values.max(by: { $0.id < $1.id }) {
            let closingStream = state.body.streams[ticket.endpoint]?.ticket == ticket.id
            return scope(ExchangesFeature.self, \.exchanges, .cancel(ticket, closingStream: closingStream), &state)
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
}

extension AppState {
    /// What the keyboard is doing now: a question, a window, typing, or the panes. The selected
    /// endpoint is looked up once (texts ask this for the keys they name, on every frame).
    package var keyContext: KeyContext {
        if finder.isOpen { return .typing }
        if let overlay { return overlay.keyContext }
        if filter?.isEditing == true { return .typing }
        let selected = selectedBodyKey
        if let prompt = body.prompt(selected) {
            if case .confirmOverwrite = prompt.kind { return .question }
            return .typing
        }
        if selected != nil, tab == .edit, editor.input != nil { return .typing }
        if selected != nil, tab == .variables, variablesTab.input != nil { return .typing }
        return panesKeyContext(selected: selected)
    }

    /// The panes' keys with those of the tab shown: where the keyboard is once nothing is typed
    /// and no window is open.
    var panesKeyContext: KeyContext { panesKeyContext(selected: selectedBodyKey) }

    /// The tab shown, when its own keys apply (`isInBody`, `isInEditor` … with the endpoint given).
    private func panesKeyContext(selected: EndpointKey?) -> KeyContext {
        guard let selected else { return .panes(nil) }
        switch tab {
        case .body: return focus == .response && body.panes[selected] != nil ? .panes(.bodyTab) : .panes(nil)
        case .edit: return .panes(.editTab)
        case .variables: return .panes(.variablesTab)
        case .tests: return .panes(.checksTab)
        default: return .panes(nil)
        }
    }

    /// Whether `C-s` accepts what is typed in the Edit tab (false) or the Vars tab (true) and
    /// sends; nil when nothing is typed there (then `C-s` is Enter).
    var acceptsAndSends: Bool? {
        // Naming a secret or a new endpoint writes the catalog: nothing to send.
        if isInEditor, let input = editor.input { return input.row == .secretName || input.row == .newEndpointID ? nil : false }
        if isInVariables, variablesTab.input != nil { return true }
        return nil
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
