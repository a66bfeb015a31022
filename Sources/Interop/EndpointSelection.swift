import Catalog
import DispatcherCore
import Foundation

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
    public init(service: Service, endpoint: CatalogEndpoint, environment: Environment) {
        self.service = service
        self.endpoint = endpoint
        self.environment = environment
    }

    /// Picks `SERVICE/ENDPOINT` in `environment` (nil: the service's first) from `catalog`.
    public static func resolve(_ reference: String, environment: String?, in catalog: CatalogSet) throws(InteropError) -> EndpointSelection {
        let parts = reference.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
            throw .usage("'\(reference)' is not SERVICE/ENDPOINT (for example petstore/findPet); `apiexplorer list` shows them")
        }
        let service = try resolveService(parts[0], in: catalog)
        guard let endpoint = service.endpoint(parts[1]) else {
            let hint = DidYouMean.hint(for: parts[1], among: service.endpoints.map(\.id))
            throw .usage("service '\(service.id)' has no endpoint '\(parts[1])'\(hint); `apiexplorer list` shows them")
        }
        return EndpointSelection(service: service, endpoint: endpoint, environment: try resolveEnvironment(environment, of: service))
    }

    /// The service with id `id`, or a usage error naming the known ones.
    public static func resolveService(_ id: String, in catalog: CatalogSet) throws(InteropError) -> Service {
        if let service = catalog.service(id) { return service }
        let known = catalog.services.map(\.id)
        let hint = DidYouMean.hint(for: id, among: known)
        let list = known.isEmpty ? "none loaded (run `apiexplorer validate`)" : known.joined(separator: ", ")
        throw .usage("no service '\(id)' in \(catalog.source)\(hint); known services: \(list)")
    }

    /// The environment named `name` (nil: the first), or a usage error naming the known ones.
    public static func resolveEnvironment(_ name: String?, of service: Service) throws(InteropError) -> Environment {
        guard let name else {
            guard let first = service.environments.first else { throw .usage("service '\(service.id)' has no environment") }
            return first
        }
        if let environment = service.environment(named: name) { return environment }
        let known = service.environments.map(\.name)
        throw .usage(
            "service '\(service.id)' has no environment '\(name)'\(DidYouMean.hint(for: name, among: known)); known: \(known.joined(separator: ", "))")
    }

    /// `service/endpoint`.
    public var qualifiedID: String { endpoint.qualifiedID }

    /// The endpoint's example named `name` (nil or `default`: the stub), or a usage error.
    public func example(_ name: String?) throws(InteropError) -> CatalogExample {
        if let example = endpoint.example(named: name) { return example }
        let names = endpoint.exampleNames
        throw .usage(
            "\(qualifiedID) has no example '\(name ?? "")'\(DidYouMean.hint(for: name ?? "", among: names)); examples: \(names.joined(separator: ", "))")
    }
}

/// Parses `NAME=VALUE` run-time values as given with `--var`.
public enum RuntimeValues {
    /// The values, later ones winning; a malformed item is a usage error.
    public static func parse(_ items: [String]) throws(InteropError) -> [String: String] {
        var values: [String: String] = [:]
        for item in items {
            guard let equals = item.firstIndex(of: "="), equals != item.startIndex else {
                throw .usage("'\(item)' is not NAME=VALUE (for example --var petId=7)")
            }
            values[String(item[..<equals])] = String(item[item.index(after: equals)...])
        }
        return values
    }
}
