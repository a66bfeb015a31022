import DispatcherCore

/// Everything loaded from one catalog source: the services that loaded (in file order), every
/// diagnostic, and where the catalogs came from.
public struct CatalogSet: Sendable {
    /// The services, ordered by file name.
    public var services: [Service]
    /// Every problem found, file by file, in line order.
    public var diagnostics: [Diagnostic]
    /// Where the catalogs came from.
    public var source: CatalogSource
    /// Each catalog file's outcome by file name, so a reload reads only the files that changed.
    var parsedFiles: [String: CatalogLoader.ParsedFile] = [:]
    /// What was trusted when the files were read (a reload keeps it unless told otherwise).
    package internal(set) var trust = CatalogTrust.everything
    /// How the files this load read were read: parsed from their YAML, or taken parsed from the
    /// cache (files a reload kept count in neither). What tests check a launch's work by.
    package internal(set) var readCounts = CatalogReadCounts()

    /// Makes a catalog set.
    package init(services: [Service], diagnostics: [Diagnostic], source: CatalogSource) {
        self.services = services
        self.diagnostics = diagnostics
        self.source = source
    }

    /// Whether any diagnostic is an error.
    public var hasErrors: Bool { diagnostics.contains(where: \.isError) }

    /// The service with id `id`.
    public func service(_ id: String) -> Service? {
        services.first { $0.id == id }
    }

    /// The endpoint with `key`, and its service.
    public func endpoint(_ key: EndpointKey) -> (service: Service, endpoint: CatalogEndpoint)? {
        guard let service = service(key.service), let endpoint = service.endpoint(key.endpoint) else { return nil }
        return (service, endpoint)
    }

    /// The service and environment named by `key`: nil when the service of that id now comes from
    /// another catalog (state kept for one catalog is never used with another).
    public func environment(_ key: EnvironmentKey) -> (service: Service, environment: Environment)? {
        guard let service = service(key.service), service.catalogID == key.catalog, let environment = service.environment(named: key.environment) else { return nil }
        return (service, environment)
    }

    /// How many catalog files of the load declare the service id `id` (a duplicate is not loaded
    /// but still declares it).
    package func declarationCount(of id: String) -> Int {
        guard !parsedFiles.isEmpty else { return services.count { $0.id == id } }
        return parsedFiles.values.count { $0.service?.id == id }
    }

    /// How many endpoints all services hold.
    public var endpointCount: Int { services.reduce(0) { $0 + $1.endpoints.count } }

    /// `2 services, 31 endpoints; 1 error, 0 warnings in environments/`.
    package var summary: String {
        func plural(_ count: Int, _ word: String) -> String { "\(count) \(word)\(count == 1 ? "" : "s")" }
        let folder = source.origin == .bundled || source.displayPath.hasSuffix("/") ? source.displayPath : source.displayPath + "/"
        return "\(plural(services.count, "service")), \(plural(endpointCount, "endpoint")); "
            + "\(plural(diagnostics.errorCount, "error")), \(plural(diagnostics.warningCount, "warning")) in \(folder)"
    }
}

/// How many catalog files a load parsed, and how many it took parsed from the cache.
package struct CatalogReadCounts: Sendable, Hashable {
    package var parsed = 0
    package var cached = 0

    package init(parsed: Int = 0, cached: Int = 0) {
        self.parsed = parsed
        self.cached = cached
    }
}
