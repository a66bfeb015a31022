import Catalog
import DispatcherCore
import FoundationEssentials
import TextSupport

extension PostmanCollection {
    /// `local` (the mock server, stand-ins for the secrets), then one environment per Postman
    /// environment file that gives the base a value, else one from the collection's variables.
    mutating func environmentDrafts(for service: ServiceDraft) -> [CatalogDraft.Environment] {
        // The document's own environment names are kept: when one is `local`, the mock's is `mock`.
        let given = environments.map(environmentName)
        let mockName = given.contains("local") ? "mock" : "local"
        var local = CatalogDraft.Environment(
            name: mockName, baseURL: "http://127.0.0.1:4010/\(service.draft.service)", comment: "the mock server: `apiexplorer mock`")
        local.fixtures = "immediate"
        local.secretDefaults = secrets.standIns
        var result = [local]
        var names = UniqueNames(taken: [mockName])
        let collectionValues = Dictionary(collectionVariables.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        let baseVariable = Self.wholePlaceholder(service.base)
        for file in environments {
            var values = collectionValues
            for variable in file.values { values[variable.key] = variable.value }
            guard let url = BaseURLTemplate.resolve(service.base, values: values) else {
                notes.append("\(environmentLabel) '\(file.name)' gives \(service.base) no absolute URL: it is not an environment of \(service.draft.service)")
                continue
            }
            var environment = CatalogDraft.Environment(
                name: names.claim(environmentName(file)), type: BaseURLTemplate.environmentType(file.name),
                baseURL: url, comment: "\(environmentLabel) '\(file.name)'")
            environment.fixtures = "never"
            environment.variables = file.values.filter { !secretVariables.contains($0.key) && $0.key != baseVariable }.map { ($0.key, $0.value) }
            result.append(environment)
        }
        // The mock answers whatever the values, but a request needs every placeholder filled:
        // local borrows the first environment's values.
        if result.count > 1 { result[0].variables = result[1].variables }
        if result.count == 1 {
            if let url = BaseURLTemplate.resolve(service.base, values: collectionValues) {
                var environment = CatalogDraft.Environment(name: "default", baseURL: url, comment: "from the collection")
                environment.fixtures = "never"
                result.append(environment)
            } else {
                notes.append("\(service.draft.service): \(service.base) has no value in the collection; only the local environment was made (pass --environment FILE)")
            }
        }
        return result
    }

    /// An environment file's name as an environment id (as written for `.http` clients, lowercased for Postman's).
    func environmentName(_ file: PostmanEnvironment) -> String {
        Identifier.make(keepsEnvironmentNames ? file.name : file.name.lowercased(), fallback: "environment")
    }

    /// Notes for placeholders nothing gives a value (set by scripts or globals, Postman's dynamic
    /// variables the template language does not make).
    func unresolvedPlaceholderNotes(_ drafts: [CatalogDraft]) -> [ImportNote] {
        var notes: [ImportNote] = []
        for draft in drafts {
            var known = Set(draft.variables.map(\.0))
            for environment in draft.environments { known.formUnion(environment.variables.map(\.0)) }
            for endpoint in draft.endpoints {
                let names = Set(endpoint.parameters.map(\.0)).union(known)
                var texts: [String] = []
                var copy = endpoint
                copy.mapTexts { text in
                    texts.append(text)
                    return text
                }
                for name in Template(texts.joined(separator: "\n")).placeholders
                where !name.hasPrefix("secret.") && !name.hasPrefix(ResponseReference.prefix) && !names.contains(name) && !TemplateGenerators.isGenerator(name) {
                    let note: ImportNote
                    if let variable = TemplateGenerators.secretRead(name) {
                        note = ImportNote(.info, at: endpoint.source, "\(draft.service)/\(endpoint.id) reads {{\(name)}}: set $APIEXPLORER_SECRET_\(variable) in the environment or \(variable) in .env (it is a secret like {{secret.\(variable)}})")
                    } else if name.hasPrefix("$") {
                        note = ImportNote(.info, at: endpoint.source, "\(draft.service)/\(endpoint.id) uses \(tool)'s dynamic variable {{\(name)}}, which apiexplorer does not generate: give it a value with --var \(name)=… or in variables")
                    } else {
                        note = ImportNote(.info, at: endpoint.source, "\(draft.service)/\(endpoint.id) uses {{\(name)}}, which has no value in the collection or its environments (a script or a global sets it?)")
                    }
                    if !notes.contains(where: { $0.message == note.message }) { notes.append(note) }
                }
            }
        }
        return notes
    }
}

/// An environment's base URL from a URL base with placeholders (`{{baseUrl}}`, `https://{{host}}`).
enum BaseURLTemplate {
    /// The base with its placeholders filled (values may hold placeholders too), without a
    /// trailing `/`; nil unless it ends as an absolute http(s) URL.
    static func resolve(_ base: String, values: [String: String]) -> String? {
        var text = base
        for _ in 0..<8 where text.contains("{{") {
            guard let rendered = try? Template(text).render({ values[$0] }) else { return nil }
            text = rendered
        }
        text = text.trimmed
        while text.hasSuffix("/") { text.removeLast() }
        if !text.contains("://") { text = "http://" + text }
        guard !text.contains("{{"), let url = URL(string: text), let scheme = url.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = url.host, !host.isEmpty
        else { return nil }
        return text
    }

    /// `production`, `staging` or `development`, guessed from a name.
    static func environmentType(_ name: String) -> String {
        let lower = name.lowercased()
        return lower.contains("prod") ? "production" : lower.contains("stag") ? "staging" : "development"
    }
}
