import Catalog
import DispatcherCore
import Sessions
import TerminalKit

/// A floating window over the panes.
package enum Dialog: Sendable, Hashable {
    /// The keys, generated from the keymap.
    case help(scroll: Int)
    /// The endpoint's examples to pick from.
    case examplePicker(endpoint: EndpointKey, list: ListState)
    /// Asks before a request that changes data in production.
    case confirmSend(EndpointCall)
    /// Shows what an untrusted catalog declares and asks whether to trust it, before its request
    /// reaches outside it (the network, a download).
    case confirmTrust(TrustQuestion)
    /// Asks before a download replaces a file that exists.
    case confirmReplace(EndpointCall)
    /// The catalog diagnostics.
    case diagnostics(scroll: Int)
    /// Requests sent before, to read and send again.
    case history(list: ListState)
    /// Asks the `{{prompt.NAME}}` questions of a request before it is sent.
    case prompt(PromptDialog)
    /// Asks for a scratch request, or where to save one.
    case scratch(ScratchDialog)
    /// The formats the last request can be copied as.
    case copyAs(list: ListState)
    /// Asks where the selected endpoint's body is downloaded to.
    case download(DownloadDialog)
    /// The tokens of an environment and mode, as they were at `shownAt`.
    case tokens(TokensWindow)
    /// The cookies of an environment and mode, as they were when read.
    case cookies(CookiesWindow)
    /// A message being typed for an open WebSocket.
    case message(MessageComposer)
    /// Asks before `W` writes a draft into its catalog file.
    case confirmWrite(WriteQuestion)
    /// Every notice and error of this run, newest last.
    case messages(scroll: Int)
    /// The active service's flows, to run one.
    case flows(list: ListState)
}

/// The question asked before a draft is written into its catalog file.
package struct WriteQuestion: Sendable, Hashable {
    /// The draft.
    package var key: DraftKey
    /// Its edits, as they will be written.
    package var edits: EndpointEdits
    /// The catalog file, as shown.
    package var file: String
    /// What changes, one line each (method, path, a header …).
    package var changes: [String]
}

/// The file a download goes to, being typed.
package struct DownloadDialog: Sendable, Hashable {
    /// The endpoint sent.
    package var endpoint: EndpointKey
    /// The example it is sent with.
    package var example: String?
    /// The path typed (relative to where the explorer runs).
    package var input: InputState
}

/// The questions of a request being asked, one at a time.
package struct PromptDialog: Sendable, Hashable {
    /// The request, its answers so far among its values.
    package var call: EndpointCall
    /// The questions left, the current one first.
    package var prompts: [Prompt]
    /// The answer being typed.
    package var input: InputState
    /// The choice under the cursor when the question has choices (↑/↓ or Tab pick one; it is typed in).
    package var choice: Int?

    /// Starts with the first question, its default typed in.
    package init(call: EndpointCall, prompts: [Prompt]) {
        self.call = call
        self.prompts = prompts
        input = InputState()
        ask(prompts.first)
    }

    /// Shows `prompt`: its default typed in, and its cursor on that choice (or the first).
    mutating func ask(_ prompt: Prompt?) {
        input = InputState(text: prompt?.defaultValue ?? "")
        guard let prompt, !prompt.choices.isEmpty else {
            choice = nil
            return
        }
        choice = prompt.defaultValue.flatMap { prompt.choices.firstIndex(of: $0) }
        if choice == nil, prompt.defaultValue == nil { pick(0, of: prompt) }
    }

    /// Puts the cursor on choice `index` (wrapping around) and types it in.
    mutating func pick(_ index: Int, of prompt: Prompt) {
        guard !prompt.choices.isEmpty else { return }
        let count = prompt.choices.count
        let wrapped = ((index % count) + count) % count
        choice = wrapped
        input = InputState(text: prompt.choices[wrapped])
    }
}

/// The question asked before an untrusted catalog's request reaches outside it.
package struct TrustQuestion: Sendable, Hashable {
    /// The request waiting for the answer.
    package var call: EndpointCall
    /// What the catalog declares.
    package var declaration: TrustDeclaration
    /// The catalog file's content hash: what trusting remembers.
    package var contentHash: String
    /// What the request would do (`send requests over the network`).
    package var reason: String
}
