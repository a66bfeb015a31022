import Catalog
import DispatcherCore

/// One test `apiexplorer test` runs: an endpoint (its `expect:`), one of its examples (the
/// example's `expect:`), or a flow, in one environment of a service.
package struct TestCase: Sendable, Hashable, Identifiable {
    /// What is run.
    package enum Kind: Sendable, Hashable {
        /// The endpoint with its default answer.
        case endpoint(String)
        /// The endpoint answering with a named example (stub mode only).
        case example(endpoint: String, example: String)
        /// A flow.
        case flow(String)
    }

    /// The service.
    package var service: Service
    /// The environment.
    package var environment: Environment
    /// What is run.
    package var kind: Kind

    /// Makes a case.
    package init(service: Service, environment: Environment, kind: Kind) {
        self.service = service
        self.environment = environment
        self.kind = kind
    }

    /// The name within the service: `getPet`, `getPet#missing`, `flow:adopt`.
    package var name: String {
        switch kind {
        case .endpoint(let id): id
        case .example(let endpoint, let example): "\(endpoint)#\(example)"
        case .flow(let id): "flow:\(id)"
        }
    }

    /// `shop/getPet#missing`: what `--grep` and reports show.
    package var id: String { "\(service.id)/\(name)" }

    package static func == (lhs: TestCase, rhs: TestCase) -> Bool {
        lhs.id == rhs.id && lhs.environment.name == rhs.environment.name
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(environment.name)
    }
}

/// Which tests a command line names.
package enum TestSelection {
    /// The cases of `targets` (`all`, `SERVICE`, `SERVICE/ENDPOINT`, `SERVICE/flow:FLOW`; none is
    /// all) in `environment` (each service's first when nil), whose id contains `grep` when given.
    /// A service or endpoint named is run even without `expect:` (then it must succeed); `all`
    /// and a whole service run what declares expectations, and every flow.
    /// With `everyEndpoint` (`--contract`), `all` and a whole service run every endpoint, with
    /// `expect:` or not: its kept schema is then its check.
    package static func cases(
        _ targets: [String], environment: String?, grep: String? = nil, everyEndpoint: Bool = false, in catalog: CatalogSet
    ) throws(CatalogLookupError) -> [TestCase] {
        var cases: [TestCase] = []
        let named = targets.isEmpty ? ["all"] : targets
        for target in named {
            if target == "all" {
                for service in catalog.services {
                    cases += try serviceCases(service, environment: environment, everyEndpoint: everyEndpoint)
                }
                continue
            }
            let parts = target.split(separator: "/", maxSplits: 1).map(String.init)
            let service = try EndpointSelection.resolveService(parts[0], in: catalog)
            guard parts.count == 2 else {
                cases += try serviceCases(service, environment: environment, everyEndpoint: everyEndpoint)
                continue
            }
            let chosen = try EndpointSelection.resolveEnvironment(environment, of: service)
            let name = parts[1]
            if name.hasPrefix("flow:") {
                let id = String(name.dropFirst("flow:".count))
                guard service.flow(id) != nil else {
                    let hint = DidYouMean.hint(for: id, among: service.flows.map(\.id))
                    throw CatalogLookupError("service '\(service.id)' has no flow '\(id)'\(hint)")
                }
                cases.append(TestCase(service: service, environment: chosen, kind: .flow(id)))
                continue
            }
            let endpointName = name.split(separator: "#", maxSplits: 1).map(String.init)
            let endpoint = try EndpointSelection.resolve(EndpointKey(service: service.id, endpoint: endpointName[0]), environment: chosen.name, in: catalog).endpoint
            if endpointName.count == 2 {
                let example = endpointName[1]
                guard endpoint.examples.contains(where: { $0.name == example }) else {
                    let hint = DidYouMean.hint(for: example, among: endpoint.examples.map(\.name))
                    throw CatalogLookupError("endpoint '\(endpoint.key)' has no example '\(example)'\(hint)")
                }
                cases.append(TestCase(service: service, environment: chosen, kind: .example(endpoint: endpoint.id, example: example)))
            } else {
                cases.append(TestCase(service: service, environment: chosen, kind: .endpoint(endpoint.id)))
                for example in endpoint.examples where !example.expectations.isEmpty {
                    cases.append(TestCase(service: service, environment: chosen, kind: .example(endpoint: endpoint.id, example: example.name)))
                }
            }
        }
        var seen = Set<TestCase>()
        cases = cases.filter { seen.insert($0).inserted }
        guard let grep, !grep.isEmpty else { return cases }
        return cases.filter { $0.id.contains(grep) }
    }

    /// What a whole service runs: endpoints (every one with `everyEndpoint`) and examples with
    /// `expect:`, and every flow.
    static func serviceCases(_ service: Service, environment: String?, everyEndpoint: Bool = false) throws(CatalogLookupError) -> [TestCase] {
        let chosen: Environment
        if let environment {
            // `all` with --env: services without that environment are left out.
            guard let found = service.environment(named: environment) else { return [] }
            chosen = found
        } else {
            chosen = try EndpointSelection.resolveEnvironment(nil, of: service)
        }
        var cases: [TestCase] = []
        for endpoint in service.endpoints {
            // A WebSocket conversation has no response body a schema describes.
            if (everyEndpoint && endpoint.webSocket == nil) || !endpoint.expectations.isEmpty { cases.append(TestCase(service: service, environment: chosen, kind: .endpoint(endpoint.id))) }
            for example in endpoint.examples where !example.expectations.isEmpty {
                cases.append(TestCase(service: service, environment: chosen, kind: .example(endpoint: endpoint.id, example: example.name)))
            }
        }
        cases += service.flows.map { TestCase(service: service, environment: chosen, kind: .flow($0.id)) }
        return cases
    }
}
