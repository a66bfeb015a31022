import Catalog

/// A request typed or pasted in the explorer (`C-n`), kept as a service of its own while the
/// explorer runs.
package struct ScratchEntry: Sendable, Hashable {
    /// The one-endpoint service that sends it (`scratch-1`, `scratch-2` …).
    package var service: Service
    /// What the user typed: `METHOD URL`, a URL, or a curl command.
    package var text: String
    /// The environment whose settings it borrowed, when its URL lies under one's base URL.
    package var matched: EnvironmentKey?

    /// Makes an entry.
    package init(service: Service, text: String, matched: EnvironmentKey?) {
        self.service = service
        self.text = text
        self.matched = matched
    }

    /// The key of the request's endpoint.
    package var endpoint: EndpointKey? { service.endpoints.first?.key }
}

extension CatalogSet {
    /// These catalogs with the scratch requests' services after their own.
    func addingScratch(_ entries: [ScratchEntry]) -> CatalogSet {
        var catalog = self
        catalog.services.removeAll { service in entries.contains { $0.service.id == service.id } }
        catalog.services += entries.map(\.service)
        return catalog
    }
}
