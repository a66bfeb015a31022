import Catalog
import DispatcherCore
import RequestExport
import TerminalKit
import TextSupport

/// Keys and answers in the windows of sending: a request's questions, the trust, production and
/// replace questions, the examples, the download's file and copy as code.
extension ExchangesFeature {
    static func answer(
        _ dialog: ExchangesDialog, _ input: WindowInput, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        switch (dialog, input) {
        case (.confirmTrust(let question), .answer(let yes)):
            shell.dismiss()
            guard yes else {
                shell.notice = "Not sent: \(question.declaration.file) is not trusted (stub mode works without trust)."
                return []
            }
            shell.notice = "Trusting \(question.declaration.file)…"
            let effect = AppEffect.exchanges(.trustCatalog(contentHashes: [question.contentHash], then: question.call))
            shell.pendingLoads.insert(effect)
            return [effect]
        case (.confirmReplace(var call), .answer(let yes)):
            shell.dismiss()
            guard yes else {
                shell.notice = "Not downloaded: \(call.downloadPath ?? "the file") is kept."
                return []
            }
            call.downloadPlace = .checked(replaces: true)
            return dispatch(call, &state, &shell, context)
        case (.confirmSend(let call), .answer(let yes)):
            shell.dismiss()
            guard yes else {
                shell.notice = "Not sent."
                return []
            }
            return dispatchCheckingDownload(call, &state, &shell, context)
        case (.prompt(let prompt), .key(let command)):
            return answerPrompt(command, dialog: prompt, &state, &shell, context)
        case (.download(let download), .key(let command)):
            return typeDownloadPath(command, dialog: download, &state, &shell, context)
        case (.examplePicker(let key, let list), .key(let command)):
            let names = context.endpoint?.exampleNames ?? []
            switch OverlaysFeature.listKey(command, list, count: names.count) {
            case .moved(let list): shell.present(.exchanges(.examplePicker(endpoint: key, list: list)))
            case .chosen(let selected):
                shell.dismiss()
                let name = selected == 0 ? nil : names[selected]
                state.chosenExample[key] = name
                let effects = send(example: name, &state, &shell, context)
                // An example is a fixture: in LIVE the server answers, and the person is told so.
                if let name, context.sendMode(state) == .live, shell.notice == nil {
                    shell.notice = "Sent live: the example '\(name)' answers only in STUB (\(shell.keys(.exchanges(.toggleMode))) switches; it stays picked for STUB)."
                }
                return effects
            case .closed: shell.dismiss()
            case .ignored: break
            }
        case (.copyAs(let list), .key(let command)):
            let formats = RequestCode.allCases
            switch OverlaysFeature.listKey(command, list, count: formats.count) {
            case .moved(let list): shell.present(.exchanges(.copyAs(list: list)))
            case .chosen(let selected):
                shell.dismiss()
                guard let record = context.endpoint.flatMap({ state.responses[$0.key] }) else { return [] }
                let format = formats[selected]
                let redactor: Redactor? = context.revealsSecrets ? nil : record.redactor
                let code = format.render(record.exchange.request, redactor: redactor)
                shell.requests.append(.copy(text: code, description: "the request as \(format.title)" + (context.revealsSecrets ? "" : " (secrets masked; v reveals)")))
            case .closed: shell.dismiss()
            case .ignored: break
            }
        default:
            break
        }
        return []
    }

    /// Keys while a request's question is asked: Enter answers (the next question, or the send),
    /// ↑/↓ and Tab pick a choice, Esc drops the request.
    static func answerPrompt(
        _ command: Command, dialog: PromptDialog, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        var dialog = dialog
        guard let prompt = dialog.prompts.first else {
            shell.dismiss()
            return []
        }
        switch command {
        case .cancelInput:
            shell.dismiss()
            shell.notice = "Not sent: \(prompt.placeholder) was not answered."
        case .accept:
            let answer = dialog.input.text
            if !prompt.choices.isEmpty, !prompt.choices.contains(answer) {
                shell.notice = "Answer one of: \(prompt.choices.joined(separator: ", ")) (↑/↓ or Tab picks one)."
                return []
            }
            dialog.call.values[prompt.placeholder] = answer
            dialog.prompts.removeFirst()
            if let next = dialog.prompts.first {
                dialog.ask(next)
                shell.present(.exchanges(.prompt(dialog)))
                return []
            }
            shell.dismiss()
            return confirmThenDispatch(dialog.call, &state, &shell, context)
        case .moveDown, .nextNamedMessage, .moveUp:
            guard !prompt.choices.isEmpty else { return [] }
            let step = command == .moveUp ? -1 : 1
            dialog.pick((dialog.choice ?? (step > 0 ? -1 : 0)) + step, of: prompt)
            shell.present(.exchanges(.prompt(dialog)))
        case .edit(let edit):
            dialog.input.apply(edit)
            // A choice typed in full puts the cursor on it.
            if !prompt.choices.isEmpty { dialog.choice = prompt.choices.firstIndex(of: dialog.input.text) }
            shell.present(.exchanges(.prompt(dialog)))
        default:
            break
        }
        return []
    }

    /// Keys while a download's file is typed: Enter sends the endpoint to it.
    static func typeDownloadPath(
        _ command: Command, dialog: DownloadDialog, _ state: inout ExchangesState, _ shell: inout AppShell, _ context: Context
    ) -> [AppEffect] {
        var dialog = dialog
        switch command {
        case .cancelInput:
            shell.dismiss()
            shell.notice = "Not downloaded."
        case .accept:
            let path = dialog.input.text.trimmed
            guard !path.isEmpty else {
                shell.notice = "Give a file to download to."
                return []
            }
            shell.dismiss()
            guard context.endpoint?.key == dialog.endpoint else {
                shell.notice = "\(dialog.endpoint) is no longer selected: not downloaded."
                return []
            }
            shell.notice = "Downloading \(dialog.endpoint) to \(path)…"
            return send(example: dialog.example, downloadPath: path, &state, &shell, context)
        case .edit(let edit):
            dialog.input.apply(edit)
            shell.present(.exchanges(.download(dialog)))
        default:
            break
        }
        return []
    }
}
