import Catalog
import DispatcherCore
import RequestExport
import Sessions
import TerminalKit

/// The window over the panes. Every feature opens and closes it through `AppShell.overlay`; this
/// slice holds it and answers the keys of the windows no other slice owns: help, diagnostics,
/// examples, copy-as, the questions before a send (production, trust, replacing a file, writing a
/// catalog file) and a request's `{{prompt.…}}` questions.
package struct OverlaysState: Sendable {
    /// The window shown, if any. Set through `AppShell.overlay` (the root copies it in and out
    /// around every feature), never directly by a reducer.
    package internal(set) var window: Dialog?
}

/// What happens to the windows this slice answers.
package enum OverlaysAction: Sendable {
    /// A key while one of them is open.
    case key(Command)
}

enum OverlaysFeature: AppFeature {
    /// What the windows read of the rest of the app.
    struct Context {
        /// How far the help or diagnostics window may scroll.
        var maximumScroll: Int
        /// Rows a page key moves by.
        var pageHeight: Int
        /// The selected endpoint's examples (the default first).
        var exampleNames: [String]
        /// The selected endpoint's last result, for copy-as.
        var lastResult: CallOutcome?
        /// Whether secrets are shown in clear.
        var revealsSecrets: Bool
    }

    static func context(of app: AppState) -> Context {
        Context(
            maximumScroll: app.overlay.map { OverlayText.maximumScroll($0, state: app) } ?? 0, pageHeight: app.pageHeight,
            exampleNames: app.selectedEndpoint?.exampleNames ?? [], lastResult: app.selectedResponse, revealsSecrets: app.revealsSecrets)
    }

    static func reduce(_ state: inout OverlaysState, _ action: OverlaysAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .key(let command):
            guard let window = shell.overlay else { return [] }
            if case .prompt(let dialog) = window { return answerPrompt(command, dialog: dialog, &shell) }
            switch window {
            case .confirmSend, .confirmTrust, .confirmReplace, .confirmWrite: return answer(command, window: window, &shell)
            default: return handleWindow(command, window: window, &shell, context)
            }
        }
    }

    /// Keys while a request's question is asked: Enter answers (the next question, or the send),
    /// ↑/↓ and Tab pick a choice, Esc drops the request.
    static func answerPrompt(_ command: Command, dialog: PromptDialog, _ shell: inout AppShell) -> [AppEffect] {
        var dialog = dialog
        guard let prompt = dialog.prompts.first else {
            shell.overlay = nil
            return []
        }
        switch command {
        case .cancelInput:
            shell.overlay = nil
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
                shell.overlay = .prompt(dialog)
                return []
            }
            shell.overlay = nil
            shell.requests.append(.dispatch(dialog.call, asking: .everything))
        case .moveDown, .nextNamedMessage, .moveUp:
            guard !prompt.choices.isEmpty else { return [] }
            let step = command == .moveUp ? -1 : 1
            dialog.pick((dialog.choice ?? (step > 0 ? -1 : 0)) + step, of: prompt)
            shell.overlay = .prompt(dialog)
        case .edit(let edit):
            dialog.input.apply(edit)
            // A choice typed in full puts the cursor on it.
            if !prompt.choices.isEmpty { dialog.choice = prompt.choices.firstIndex(of: dialog.input.text) }
            shell.overlay = .prompt(dialog)
        default:
            break
        }
        return []
    }

    /// Moves a window's list cursor by a line or to an end (the caller passes only those commands).
    static func move(_ list: inout ListState, _ command: Command, count: Int) {
        switch command {
        case .moveDown: list.selectNext(itemCount: count)
        case .moveUp: list.selectPrevious(itemCount: count)
        case .moveToTop: list.selectFirst(itemCount: count)
        case .moveToBottom: list.selectLast(itemCount: count)
        default: break
        }
    }

    /// A key in the help, diagnostics, examples or copy-as window.
    static func handleWindow(_ command: Command, window: Dialog, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        if command == .close {
            shell.overlay = nil
            return []
        }
        switch window {
        case .help(let scroll), .diagnostics(let scroll), .messages(let scroll):
            var newScroll = scroll
            switch command {
            case .moveDown: newScroll += 1
            case .moveUp: newScroll = max(0, scroll - 1)
            case .pageDown: newScroll += context.pageHeight
            case .pageUp: newScroll = max(0, scroll - context.pageHeight)
            case .moveToTop: newScroll = 0
            case .moveToBottom: newScroll = .max
            default: return []
            }
            newScroll = min(newScroll, context.maximumScroll)
            switch window {
            case .help: shell.overlay = .help(scroll: newScroll)
            case .messages: shell.overlay = .messages(scroll: newScroll)
            default: shell.overlay = .diagnostics(scroll: newScroll)
            }
        case .copyAs(var list):
            let formats = RequestCode.allCases
            switch command {
            case .moveDown, .moveUp, .moveToTop, .moveToBottom: move(&list, command, count: formats.count)
            case .choose:
                shell.overlay = nil
                guard let selected = list.selected, formats.indices.contains(selected), let record = context.lastResult else { return [] }
                let format = formats[selected]
                let redactor: Redactor? = context.revealsSecrets ? nil : record.redactor
                let code = format.render(record.exchange.request, redactor: redactor)
                return [.copyToClipboard(text: code, description: "the request as \(format.title)" + (context.revealsSecrets ? "" : " (secrets masked; v reveals)"))]
            default: return []
            }
            shell.overlay = .copyAs(list: list)
        case .examplePicker(let key, var list):
            let names = context.exampleNames
            switch command {
            case .moveDown, .moveUp, .moveToTop, .moveToBottom: move(&list, command, count: names.count)
            case .choose:
                shell.overlay = nil
                guard let selected = list.selected, names.indices.contains(selected) else { return [] }
                shell.requests.append(.sendExample(key, selected == 0 ? nil : names[selected]))
                return []
            default: return []
            }
            shell.overlay = .examplePicker(endpoint: key, list: list)
        default:
            break
        }
        return []
    }

    /// The answer to a question: production send, trust, replacing a download's file, writing a catalog file.
    static func answer(_ command: Command, window: Dialog, _ shell: inout AppShell) -> [AppEffect] {
        guard command == .confirm || command == .decline else { return [] }
        shell.overlay = nil
        let yes = command == .confirm
        switch window {
        case .confirmTrust(let question):
            guard yes else {
                shell.notice = "Not sent: \(question.declaration.file) is not trusted (stub mode works without trust)."
                return []
            }
            shell.notice = "Trusting \(question.declaration.file)…"
            let effect = AppEffect.trustCatalog(contentHashes: [question.contentHash], then: question.call)
            shell.pendingLoads.insert(effect)
            return [effect]
        case .confirmReplace(var call):
            guard yes else {
                shell.notice = "Not downloaded: \(call.downloadPath ?? "the file") is kept."
                return []
            }
            call.downloadPlace = .checked(replaces: true)
            shell.requests.append(.dispatch(call, asking: .nothing))
        case .confirmSend(let call):
            guard yes else {
                shell.notice = "Not sent."
                return []
            }
            shell.requests.append(.dispatch(call, asking: .download))
        case .confirmWrite(let question):
            guard yes else {
                shell.notice = "Not written: \(question.file) is as it was."
                return []
            }
            return [.writeDraft(key: question.key, edits: question.edits)]
        default:
            break
        }
        return []
    }
}
