import Catalog
import DispatcherCore
import FoundationEssentials
import TerminalKit

/// What the navigation state says over the catalogs it points into: the active service and
/// environment, the rows of the endpoints pane (a tree, or the endpoints a filter ranks) and the
/// one under the cursor.
extension NavigationState {
    /// The row under the environments cursor (the first row when the cursor is on none). Counted
    /// through the services, not read from `environmentRows`: views and the reducer ask for it
    /// many times a frame.
    func currentEnvironmentRow(in services: [Service]) -> EnvironmentRow? {
        guard !services.isEmpty else { return nil }
        let first = EnvironmentRow(serviceIndex: 0, environmentIndex: nil)
        guard var remaining = environmentList.selected, remaining >= 0 else { return first }
        for serviceIndex in services.indices {
            let rows = 1 + services[serviceIndex].environments.count
            if remaining < rows { return EnvironmentRow(serviceIndex: serviceIndex, environmentIndex: remaining == 0 ? nil : remaining - 1) }
            remaining -= rows
        }
        return first
    }

    /// The service whose endpoints are listed.
    func activeService(in catalog: CatalogSet) -> Service? {
        currentEnvironmentRow(in: catalog.services).map { catalog.services[$0.serviceIndex] }
    }

    /// The environment requests go to.
    func activeEnvironment(in catalog: CatalogSet) -> Environment? {
        guard let row = currentEnvironmentRow(in: catalog.services) else { return nil }
        let service = catalog.services[row.serviceIndex]
        let index = row.environmentIndex ?? 0
        return service.environments.indices.contains(index) ? service.environments[index] : nil
    }

    /// Whether a service's groups start folded: a service too long to read at a glance.
    static func startsFolded(_ service: Service) -> Bool { service.endpoints.count > 60 }

    /// Whether a group of a service is folded.
    func isFolded(_ group: String, in service: Service) -> Bool {
        Self.startsFolded(service) != toggledGroups[service.id, default: []].contains(group)
    }

    /// The rows of the endpoints pane: the active service's tree, or with a filter the endpoints
    /// that match it, best first.
    func rows(in catalog: CatalogSet) -> [EndpointRow] {
        guard let service = activeService(in: catalog) else { return [] }
        let query = filter?.query ?? ""
        let toggled = toggledGroups[service.id, default: []]
        let recent = recency[service.id, default: [:]]
        if let cache, cache.serviceID == service.id, cache.query == query, cache.toggled == toggled, cache.recency == recent,
            cache.endpoints == service.endpoints
        {
            return cache.rows
        }
        return Self.rows(of: service, query: query, recency: recent) { isFolded($0, in: service) }
    }

    static func rows(of service: Service, query: String, recency: [String: Int], isFolded: (String) -> Bool) -> [EndpointRow] {
        guard query.contains(where: { $0 != " " }) else { return EndpointTree.rows(service.endpoints, isFolded: isFolded) }
        return EndpointTree.ranked(service.endpoints, query: query, recency: recency).map { EndpointRow(kind: .endpoint($0.index), match: $0.match) }
    }

    /// The endpoints of the active service in the rows, in their order.
    func visibleEndpoints(in catalog: CatalogSet) -> [CatalogEndpoint] {
        guard let service = activeService(in: catalog) else { return [] }
        var endpoints: [CatalogEndpoint] = []
        for row in rows(in: catalog) {
            if case .endpoint(let index) = row.kind { endpoints.append(service.endpoints[index]) }
        }
        return endpoints
    }

    /// The row under the endpoint cursor (the first when the cursor is on none).
    func selectedRow(in catalog: CatalogSet) -> EndpointRow? {
        let rows = rows(in: catalog)
        guard let selected = endpointList(in: catalog).selected, rows.indices.contains(selected) else { return rows.first }
        return rows[selected]
    }

    /// Cursor and scroll of the endpoints pane for the active service.
    func endpointList(in catalog: CatalogSet) -> ListState {
        activeService(in: catalog).flatMap { endpointLists[$0.id] } ?? ListState(selected: 0)
    }
}

/// What an endpoint row leads with (`t` switches).
package enum EndpointRowStyle: Sendable, Hashable {
    /// The title (or the id when it has none), then the path shortened in the middle.
    case titles
    /// The path, then the title.
    case paths
}

/// The rows of a service as they were made, and what they were made of.
struct RowsCache: Sendable {
    var serviceID: String
    var endpoints: [CatalogEndpoint]
    var query: String
    var toggled: Set<String>
    var recency: [String: Int]
    var rows: [EndpointRow]
}

/// What the recency was taken from.
struct RecencyStamp: Sendable, Hashable {
    var count: Int
    var newest: Date?
}

/// The endpoint filter being typed.
package struct FilterState: Sendable, Hashable {
    /// The text typed so far.
    package internal(set) var input = InputState()
    /// Whether keys go to the input (false once Enter accepted it; the filter stays applied).
    package internal(set) var isEditing = true

    /// The query.
    package var query: String { input.text }
}

/// A row of the environments pane: a service heading or one of its environments.
package struct EnvironmentRow: Sendable, Hashable {
    /// Index of the service in the catalog.
    package var serviceIndex: Int
    /// Index of the environment in the service, nil for the service heading.
    package var environmentIndex: Int?

    /// Whether the row is an environment (selectable) rather than a heading.
    package var isEnvironment: Bool { environmentIndex != nil }
}
