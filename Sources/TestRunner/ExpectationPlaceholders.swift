import Catalog
import Expectations

/// `{{placeholders}}` in `expect:` and `until:` that nothing in the catalog gives a value: no
/// variable (the service's or an environment's), no parameter of the endpoint, no value of the
/// flow step, no capture of the service. Such a value comes from `--var` alone, and without it
/// the test errs before sending; `validate` warns about each where it is written.
package enum ExpectationPlaceholders {
    /// Prefixes of names whose values come from elsewhere (the secret store, a prompt, a
    /// response reference, a generator or an environment read): not the catalog's to give.
    static let elsewhere = ["secret.", "prompt.", "response.", "$"]

    /// A warning per unknown placeholder, at the place of the assertion that uses it.
    package static func warnings(in catalog: CatalogSet) -> [Diagnostic] {
        catalog.services.flatMap(warnings(in:))
    }

    /// The warnings of one service.
    package static func warnings(in service: Service) -> [Diagnostic] {
        var known = Set(service.variables.keys)
        for environment in service.environments { known.formUnion(environment.variables.keys) }
        for endpoint in service.endpoints { known.formUnion(endpoint.captures.map(\.name)) }
        for flow in service.flows {
            for step in flow.steps { known.formUnion(step.captures.map(\.name)) }
        }
        var diagnostics: [Diagnostic] = []
        func check(_ expectations: ResponseExpectations?, of owner: String, also: some Sequence<String>) {
            guard let expectations else { return }
            let names = known.union(also)
            for assertion in expectations.assertions {
                var seen = Set<String>()
                for name in assertion.predicate.placeholders where seen.insert(name).inserted {
                    guard !names.contains(name), !elsewhere.contains(where: { name.hasPrefix($0) }) else { continue }
                    let message = "'{{\(name)}}' in the expect of \(owner) has no value in the catalog (no variable, parameter or capture "
                        + "of that name): it must be given with --var \(name)=VALUE, or the test errs before sending"
                    diagnostics.append(diagnostic(message, at: assertion.place, fallback: service.file))
                }
            }
        }
        for endpoint in service.endpoints {
            check(endpoint.expectations, of: endpoint.key.description, also: endpoint.parameters.keys)
            for example in endpoint.examples {
                check(example.expectations, of: "\(endpoint.key)#\(example.name)", also: endpoint.parameters.keys)
            }
        }
        for flow in service.flows {
            for step in flow.steps {
                let parameters = service.endpoint(step.endpoint)?.parameters.keys.map { $0 } ?? []
                let owner = "step '\(step.name)' of flow \(service.id)/\(flow.id)"
                check(step.expectations, of: owner, also: parameters + step.values.keys)
                check(step.until, of: owner, also: parameters + step.values.keys)
            }
        }
        return diagnostics
    }

    /// A warning at `place` (`file:line:column`, as assertions keep it).
    static func diagnostic(_ message: String, at place: String, fallback file: String) -> Diagnostic {
        let parts = place.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count >= 3, let line = Int(parts[parts.count - 2]), let column = Int(parts[parts.count - 1]) else {
            return Diagnostic(file: file, line: 1, column: 1, severity: .warning, message: message)
        }
        return Diagnostic(file: parts.dropLast(2).joined(separator: ":"), line: line, column: column, severity: .warning, message: message)
    }
}
