import ArgumentParser
import Catalog
import DispatcherCore
import FoundationEssentials
import Sessions
import StateStore
import SystemSupport

/// What `call` shares with the explorer's chaining: values captured in earlier runs (the state
/// folder), `{{response.…}}` references read from the history, captures kept after the response,
/// and `{{prompt.NAME}}` questions asked on the terminal.
struct CallChain {
    let selection: EndpointSelection
    let mode: RequestMode
    var capturedFile = ExplorerStateFiles.captured()
    var history = HistoryStore()

    private var environmentKey: EnvironmentKey { EnvironmentKey(selection.service, environment: selection.environment.name) }

    /// Captured values of this service, environment and mode, with the response references the endpoint uses.
    func capturedValues() -> [String: CapturedValue] {
        var values = capturedFile.load()[environmentKey]?[mode] ?? [:]
        let endpoint = selection.endpoint
        let names = endpoint.templateTexts.flatMap { Template($0).placeholders }
        let references = ResponseReference.values(for: names, service: endpoint.serviceID) { key in
            history.latestResponse(of: key, in: environmentKey, mode: mode)
        }
        // A value the history kept masked cannot be sent: it counts as missing.
        values.merge(references.filter { $0.value.value != Redactor.mask }) { _, reference in reference }
        return values
    }

    /// `values` with an answer to every question the endpoint asks: from `--var prompt.NAME=…`,
    /// else asked on the terminal; without a terminal, a usage error saying how to answer.
    func answeringPrompts(_ values: [String: String]) throws -> [String: String] {
        var values = values
        let endpoint = selection.endpoint
        let names = endpoint.templateTexts.flatMap { Template($0).placeholders }
        var asked = Set<String>()
        for prompt in endpoint.prompts(among: names) where values[prompt.placeholder] == nil && asked.insert(prompt.name).inserted {
            let question = prompt.message ?? "A value for {{\(prompt.placeholder)}}"
            guard TerminalQuestion.isAvailable else {
                Console.error("error: \(endpoint.key) asks \"\(question)\" ({{\(prompt.placeholder)}}) and there is no terminal to ask on: give --var \(prompt.placeholder)=VALUE")
                throw ExitStatus.usage
            }
            var hint = ""
            if !prompt.choices.isEmpty { hint += " (\(prompt.choices.joined(separator: ", ")))" }
            if let value = prompt.defaultValue { hint += " [\(value)]" }
            while true {
                guard let typed = TerminalQuestion.ask("\(question)\(hint): ", secret: prompt.isSecret) else { throw ExitStatus.usage }
                let answer = typed.isEmpty ? prompt.defaultValue ?? "" : typed
                if prompt.choices.isEmpty || prompt.choices.contains(answer) {
                    values[prompt.placeholder] = answer
                    break
                }
                Console.error("Answer one of: \(prompt.choices.joined(separator: ", ")).")
            }
        }
        return values
    }

    /// Keeps what the endpoint captures from the response, as the explorer does.
    func keepCaptures(of outcome: CallOutcome) {
        guard let response = outcome.exchange.response, !selection.endpoint.captures.isEmpty else { return }
        let taken = selection.endpoint.capturedValues(from: CapturedResponse(response), at: Date())
        guard !taken.isEmpty else { return }
        do throws(SystemError) {
            // Under the file's lock, read again: parallel calls all keep what they captured.
            try capturedFile.update { $0[environmentKey, default: CapturedValues()][mode].merge(taken) { _, new in new } }
        } catch {
            Console.error("warning: the captured values were not kept: \(error)")
        }
    }
}
