import YAMLSupport

/// `captures:` and `prompts:` of an endpoint.
extension CatalogFileDecoder {
    /// `captures: { petId: $.id, etag: header ETag, code: status }`.
    func decodeCaptures(_ node: YAMLNode, _ subject: String) -> [Capture] {
        guard let entries = entries(node, "the captures of \(subject)") else { return [] }
        var captures: [Capture] = []
        for entry in entries {
            guard identifier(entry.key, at: entry.keyNode, "capture name"),
                let selector = nonEmptyText(entry.value, "capture '\(entry.key)' of \(subject)")
            else { continue }
            switch ResponseSelector.parse(selector) {
            case .success(let selector): captures.append(Capture(name: entry.key, selector: selector))
            case .failure(let problem): error("capture '\(entry.key)' of \(subject): \(problem.message)", at: entry.value)
            }
        }
        return captures
    }

    /// `prompts: { petName: { message: "Name?", default: Rex, choices: [Rex, Fido], secret: false } }`,
    /// or a prompt's question alone: `prompts: { petName: "Name of the pet" }`.
    func decodePrompts(_ node: YAMLNode, _ subject: String) -> [Prompt] {
        guard let entries = entries(node, "the prompts of \(subject)") else { return [] }
        var prompts: [Prompt] = []
        for entry in entries {
            guard identifier(entry.key, at: entry.keyNode, "prompt name") else { continue }
            var prompt = Prompt(name: entry.key)
            let what = "prompt '\(entry.key)' of \(subject)"
            if case .scalar = entry.value.content {
                prompt.message = text(entry.value, what)
                prompts.append(prompt)
                continue
            }
            guard let fields = self.entries(entry.value, what, allowed: ["message", "default", "choices", "secret"]) else { continue }
            for field in fields {
                switch field.key {
                case "message": prompt.message = text(field.value, "the message of \(what)")
                case "default": prompt.defaultValue = text(field.value, "the default of \(what)")
                case "choices": prompt.choices = list(field.value, "the choices of \(what)").compactMap { text($0, "a choice of \(what)") }
                case "secret": prompt.isSecret = boolean(field.value, "'secret' of \(what)") ?? false
                default: break
                }
            }
            if let value = prompt.defaultValue, !prompt.choices.isEmpty, !prompt.choices.contains(value) {
                error("the default of \(what) is not one of its choices", at: entry.value)
            }
            prompts.append(prompt)
        }
        return prompts
    }
}
