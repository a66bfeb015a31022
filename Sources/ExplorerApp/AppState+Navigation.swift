import Catalog
import DispatcherCore
import TerminalKit

/// A row of the environments pane: a service heading or one of its environments.
package struct EnvironmentRow: Sendable, Hashable {
    /// Index of the service in the catalog.
    package var serviceIndex: Int
    /// Index of the environment in the service, nil for the service heading.
    package var environmentIndex: Int?

    /// Whether the row is an environment (selectable) rather than a heading.
    package var isEnvironment: Bool { environmentIndex != nil }
}

extension AppState {
    /// Service headings, each followed by its environments.
    package var environmentRows: [EnvironmentRow] {
        var rows: [EnvironmentRow] = []
        for (serviceIndex, service) in catalog.services.enumerated() {
            rows.append(EnvironmentRow(serviceIndex: serviceIndex, environmentIndex: nil))
            for environmentIndex in service.environments.indices {
                rows.append(EnvironmentRow(serviceIndex: serviceIndex, environmentIndex: environmentIndex))
            }
        }
        return rows
    }

    /// Moves the environment cursor to `name` (an environment name, or `service/environment`);
    /// false when no environment matches.
    @discardableResult
    package mutating func selectEnvironment(named name: String) -> Bool {
        let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
        if parts.count == 2 { return selectEnvironment(EnvironmentKey(service: parts[0], environment: parts[1])) }
        return selectEnvironment(service: nil, environment: name)
    }

    /// Moves the environment cursor to an environment; false when the catalog does not have it.
    @discardableResult
    package mutating func selectEnvironment(_ key: EnvironmentKey) -> Bool {
        selectEnvironment(service: key.service, environment: key.environment)
    }

    private mutating func selectEnvironment(service serviceID: String?, environment environmentName: String) -> Bool {
        let rows = environmentRows
        guard let index = rows.firstIndex(where: { row in
            guard let environmentIndex = row.environmentIndex else { return false }
            let service = catalog.services[row.serviceIndex]
            return (serviceID == nil || service.id == serviceID) && service.environments[environmentIndex].name == environmentName
        }) else { return false }
        environmentList.selected = index
        return true
    }

    /// The row under the environments cursor (the first row when the cursor is on none). Counted
    /// through the services, not read from `environmentRows`: views and the reducer ask for it
    /// many times a frame, and building every row each time was a tenth of the first frame.
    package var currentEnvironmentRow: EnvironmentRow? {
        let services = catalog.services
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
    package var activeService: Service? {
        guard let row = currentEnvironmentRow else { return nil }
        return catalog.services[row.serviceIndex]
    }

    /// The active service and environment.
    package var activeEnvironmentKey: EnvironmentKey? {
        guard let service = activeService, let environment = activeEnvironment else { return nil }
        return EnvironmentKey(service: service.id, environment: environment.name)
    }

    /// Stub or live in the active environment: as `s` switched it there, else live with `--live`,
    /// else as the environment's `fixtures:` say (`never`: live), as `call` decides.
    package var mode: RequestMode {
        get {
            guard let key = activeEnvironmentKey, let environment = activeEnvironment else { return startsLive ? .live : .stub }
            if let chosen = chosenModes[key] { return chosen }
            return startsLive ? .live : EndpointCaller.defaultMode(of: environment)
        }
        set {
            guard let key = activeEnvironmentKey else {
                startsLive = newValue == .live
                return
            }
            chosenModes[key] = newValue
        }
    }

    /// The environment requests go to.
    package var activeEnvironment: Environment? {
        guard let row = currentEnvironmentRow, let service = activeService else { return nil }
        let index = row.environmentIndex ?? 0
        return service.environments.indices.contains(index) ? service.environments[index] : nil
    }

    /// The endpoints of the active service that pass the filter, in catalog order.
    package var visibleEndpoints: [CatalogEndpoint] {
        guard let service = activeService else { return [] }
        guard let query = filter?.query, !query.isEmpty else { return service.endpoints }
        return service.endpoints.filter { FuzzyMatch.matches(query, in: "\($0.method.rawValue) \($0.path) \($0.title) \($0.id)") }
    }

    /// Cursor and scroll of the endpoints pane for the active service.
    package var endpointList: ListState {
        get { activeService.flatMap { endpointLists[$0.id] } ?? ListState(selected: 0) }
        set {
            guard let service = activeService else { return }
            endpointLists[service.id] = newValue
        }
    }

    /// Moves the endpoint cursor to `key` when the active service lists it.
    mutating func selectEndpoint(_ key: EndpointKey) {
        let endpoints = visibleEndpoints
        guard let index = endpoints.firstIndex(where: { $0.key == key }) else { return }
        var list = endpointList
        list.select(index, itemCount: endpoints.count)
        endpointList = list
    }

    /// The endpoint under the cursor.
    package var selectedEndpoint: CatalogEndpoint? {
        let endpoints = visibleEndpoints
        guard let selected = endpointList.selected, endpoints.indices.contains(selected) else { return endpoints.first }
        return endpoints[selected]
    }

    /// The last result of the selected endpoint.
    package var selectedResponse: CallOutcome? {
        selectedEndpoint.flatMap { responses[$0.key] }
    }

    /// The request in flight for the selected endpoint, newest first.
    package var selectedInFlight: RequestTicket? {
        guard let endpoint = selectedEndpoint else { return nil }
        return inFlight.values.filter { $0.endpoint == endpoint.key }.max { $0.id < $1.id }
    }

    /// The example the selected endpoint sends.
    package var selectedExample: String? {
        selectedEndpoint.flatMap { chosenExample[$0.key] }
    }
}

/// Case-insensitive subsequence matching, as fuzzy finders do: `gpt` matches `GET /pet`.
package enum FuzzyMatch {
    /// Whether every character of `query` appears in `text` in order.
    package static func matches(_ query: String, in text: String) -> Bool {
        var remaining = text.lowercased()[...]
        for character in query.lowercased() where character != " " {
            guard let found = remaining.firstIndex(of: character) else { return false }
            remaining = remaining[remaining.index(after: found)...]
        }
        return true
    }
}
