import Catalog
import DispatcherCore
import Sessions
import TerminalKit

/// What the navigation slice says about the whole state: the active service and environment, the
/// endpoints listed and the one under the cursor.
extension AppState {
    /// Service headings, each followed by its environments.
    package var environmentRows: [EnvironmentRow] { NavigationFeature.environmentRows(catalog.services) }

    /// Cursor and scroll of the environments pane.
    package var environmentList: ListState { navigation.environmentList }

    /// The endpoint filter typed after `/`; nil when no filter is open.
    package var filter: FilterState? { navigation.filter }

    /// Moves the environment cursor to `name` (an environment name, or `service/environment`);
    /// false when no environment matches.
    @discardableResult
    package mutating func selectEnvironment(named name: String) -> Bool {
        navigation.selectEnvironment(named: name, catalog: catalog)
    }

    /// Moves the environment cursor to an environment; false when the catalog does not have it.
    @discardableResult
    package mutating func selectEnvironment(_ key: EnvironmentKey) -> Bool {
        navigation.selectEnvironment(key, catalog: catalog)
    }

    /// The row under the environments cursor (the first row when the cursor is on none).
    package var currentEnvironmentRow: EnvironmentRow? { navigation.currentEnvironmentRow(in: catalog.services) }

    /// The service whose endpoints are listed.
    package var activeService: Service? { navigation.activeService(in: catalog) }

    /// The active service and environment.
    package var activeEnvironmentKey: EnvironmentKey? {
        guard let service = activeService, let environment = activeEnvironment else { return nil }
        return EnvironmentKey(service, environment: environment.name)
    }

    /// The environment requests go to.
    package var activeEnvironment: Environment? { navigation.activeEnvironment(in: catalog) }

    /// The endpoints of the active service that pass the filter, in catalog order.
    package var visibleEndpoints: [CatalogEndpoint] { navigation.visibleEndpoints(in: catalog) }

    /// Cursor and scroll of the endpoints pane for the active service.
    package var endpointList: ListState { navigation.endpointList(in: catalog) }

    /// Moves the endpoint cursor to `key` when the active service lists it.
    mutating func selectEndpoint(_ key: EndpointKey) {
        navigation.selectEndpoint(key, catalog: catalog)
    }

    /// The rows of the endpoints pane: the active service's tree, or the endpoints matching the filter.
    package var endpointRows: [EndpointRow] { navigation.rows(in: catalog) }

    /// The row under the endpoint cursor.
    package var selectedRow: EndpointRow? { navigation.selectedRow(in: catalog) }

    /// The endpoint under the cursor (nil on a group's heading).
    package var selectedEndpoint: CatalogEndpoint? {
        guard let service = activeService, let index = selectedRow?.endpointIndex else { return nil }
        return service.endpoints[index]
    }

    /// Rows of endpoints the endpoints pane shows (one fewer while the filter line is open).
    var endpointViewportHeight: Int {
        max(1, layout.endpoints.height - 2 - (filter == nil ? 0 : 1))
    }
}
