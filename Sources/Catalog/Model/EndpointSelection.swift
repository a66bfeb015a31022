import DispatcherCore

/// A name a person typed that the catalog does not have (`call`, `--env`, `--var` …): the
/// command line reports it as a usage error.
public struct CatalogLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence for a person, with a did-you-mean when one is close.
    public var message: String

    /// Makes an error.
    public init(_ message: String) { self.message = message }

    public var description: String { message }
}

/// A service, one of its endpoints and an environment, picked by the names a person typed
/// (`petstore/findPet`, `--env staging`); unknown names fail with a did-you-mean.
public struct EndpointSelection: Sendable {
    /// The service.
    public var service: Service
    /// The endpoint.
    public var endpoint: CatalogEndpoint
    /// The environment (the service's first when none was named).
    public var environment: Environment

    /// Makes a selection.
    package init(service: Service, endpoint: CatalogEndpoint, environment: Environment) {
        self.service = service
        self.endpoint = endpoint
        self.environment = environment
    }

    /// Picks `SERVICE/ENDPOINT` in `environment` (nil: the service's first) from `catalog`.
    public static func resolve(_ reference: String, environment: String?, in catalog: CatalogSet) throws(CatalogLookupError) -> EndpointSelection {
        guard let key = EndpointKey(reference) else {
            throw CatalogLookupError("'\(reference)' is not SERVICE/ENDPOINT (for example petstore/findPet); `apiexplorer list` shows them")
        }
        return try resolve(key, environment: environment, in: catalog)
    }

    /// Picks an endpoint in `environment` (nil: the service's first) from `catalog`.
    public static func resolve(_ key: EndpointKey, environment: String?, in catalog: CatalogSet) throws(CatalogLookupError) -> EndpointSelection {
        let service = try resolveService(key.service, in: catalog)
        guard let endpoint = service.endpoint(key.endpoint) else {
            let hint = DidYouMean.hint(for: key.endpoint, among: service.endpoints.map { $0.id })
            throw CatalogLookupError("service '\(service.id)' has no endpoint '\(key.endpoint)'\(hint); `apiexplorer list` shows them")
        }
        return EndpointSelection(service: service, endpoint: endpoint, environment: try resolveEnvironment(environment, of: service))
    }

    /// The service with id `id`, or an error naming the known ones.
    package static func resolveService(_ id: String, in catalog: CatalogSet) throws(CatalogLookupError) -> Service {
        if let service = catalog.service(id) { return service }
        let known = catalog.services.map(\.id)
        let hint = DidYouMean.hint(for: id, among: known)
        let list = known.isEmpty ? "none loaded (run `apiexplorer validate`)" : known.joined(separator: ", ")
        throw CatalogLookupError("no service '\(id)' in \(catalog.source)\(hint); known services: \(list)")
    }

    /// The environment named `name` (nil: the first), or an error naming the known ones.
    package static func resolveEnvironment(_ name: String?, of service: Service) throws(CatalogLookupError) -> Environment {
        guard let name else {
            guard let first = service.environments.first else { throw CatalogLookupError("service '\(service.id)' has no environment") }
            return first
        }
        if let environment = service.environment(named: name) { return environment }
        let known = service.environments.map(\.name)
        throw CatalogLookupError(
            "service '\(service.id)' has no environment '\(name)'\(DidYouMean.hint(for: name, among: known)); known: \(known.joined(separator: ", "))")
    }

    /// The endpoint's key.
    public var key: EndpointKey { endpoint.key }

    /// The endpoint's example named `name` (nil or `default`: the stub), or an error.
    package func example(_ name: String?) throws(CatalogLookupError) -> CatalogExample {
        if let example = endpoint.example(named: name) { return example }
        let names = endpoint.exampleNames
        throw CatalogLookupError(
            "\(key) has no example '\(name ?? "")'\(DidYouMean.hint(for: name ?? "", among: names)); examples: \(names.joined(separator: ", "))")
    }
}

/// Parses `NAME=VALUE` run-time values as given with `--var`.
package enum RuntimeValues {
    /// The values, later ones winning; a malformed item is an error.
    package static func parse(_ items: [String]) throws(CatalogLookupError) -> [String: String] {
        var values: [String: String] = [:]
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw CatalogLookupError("'\(item)' is not NAME=VALUE (for example --var petId=7)")
            }
            values[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return values
    }
}
