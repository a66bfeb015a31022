/// An endpoint of a service: `petstore/findPet` on the command line, in logs and in history.
public struct EndpointKey: Sendable, Hashable, Comparable, CustomStringConvertible, Codable {
    /// The service's id.
    public var service: String
    /// The endpoint's id within the service.
    public var endpoint: String

    /// Makes a key.
    public init(service: String, endpoint: String) {
        self.service = service
        self.endpoint = endpoint
    }

    /// Reads `SERVICE/ENDPOINT`; nil unless both parts are there.
    public init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { return nil }
        self.init(service: String(parts[0]), endpoint: String(parts[1]))
    }

    /// `service/endpoint`.
    public var description: String { "\(service)/\(endpoint)" }

    public static func < (lhs: EndpointKey, rhs: EndpointKey) -> Bool {
        (lhs.service, lhs.endpoint) < (rhs.service, rhs.endpoint)
    }
}

/// A service in one of its environments: where requests go, and what kept state is filed under.
/// It names the catalog the service came from (`CatalogID`), so two catalogs declaring the same
/// `service:` id never share a token, a cookie or a captured value.
public struct EnvironmentKey: Sendable, Hashable, CustomStringConvertible, Codable {
    /// The catalog that declares the service.
    package var catalog: CatalogID
    /// The service's id.
    public var service: String
    /// The environment's name within the service.
    public var environment: String

    /// Makes a key.
    package init(catalog: CatalogID, service: String, environment: String) {
        self.catalog = catalog
        self.service = service
        self.environment = environment
    }

    /// The key of `service` (from its catalog) in the environment `environment`.
    package init(_ service: Service, environment: String) {
        self.init(catalog: service.catalogID, service: service.id, environment: environment)
    }

    /// `service/environment`.
    public var description: String { "\(service)/\(environment)" }
}

/// Whether a request is answered by the catalog's fixtures or sent over the network.
public enum RequestMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Answered by a fixture (the endpoint's stub or a named example).
    case stub
    /// Sent over the network.
    case live

    /// The other mode.
    public var toggled: RequestMode { self == .stub ? .live : .stub }

    /// `STUB` or `LIVE`, as the status bar shows it.
    package var badge: String { rawValue.uppercased() }
}
