import Catalog
import DispatcherCore
import FoundationEssentials
import TerminalKit

/// Where the person is: the environment cursor (the active service and environment), each
/// service's endpoint cursor, and the filter over the endpoints.
package struct NavigationState: Sendable {
    /// Cursor and scroll of the environments pane (rows of `AppState.environmentRows`). The row under
    /// the cursor is the active service and environment.
    package fileprivate(set) var environmentList = ListState(selected: 0)
    /// Cursor and scroll of the endpoints pane, per service id (rows of `AppState.visibleEndpoints`).
    package fileprivate(set) var endpointLists: [String: ListState] = [:]
    /// The endpoint filter typed after `/`; nil when no filter is open.
    package fileprivate(set) var filter: FilterState?
    /// Groups folded or unfolded by hand, per service id: they differ from how the service starts
    /// (`startsFolded`).
    package fileprivate(set) var toggledGroups: [String: Set<String>] = [:]
    /// What an endpoint row leads with.
    package fileprivate(set) var rowStyle = EndpointRowStyle.paths
    /// How recently each endpoint was sent (0: the latest), from the history: ties in the filter go to the recent.
    package fileprivate(set) var recency: [String: [String: Int]] = [:]
    /// The rows last made, kept while what they are made of is unchanged (a list of 10,000
    /// endpoints is asked for its rows many times a frame).
    fileprivate(set) var cache: RowsCache?
    /// The history the recency was taken from (its size and newest date).
    fileprivate(set) var recencyStamp: RecencyStamp?

    /// Puts the environments cursor on `row` as is, even off the rows (tests check what such a cursor means).
    package mutating func placeEnvironmentCursor(at row: Int?) { environmentList.selected = row }
}

/// What moves the cursors and the filter.
package enum NavigationAction: Sendable {
    /// A cursor key in the environments or endpoints pane.
    case move(Pane, AppReducer.Movement)
    /// The next or previous environment of the active service (`e` / `E`).
    case switchEnvironment(by: Int)
    /// `/`: the filter opens, with the last query.
    case openFilter
    /// A key while the filter is typed.
    case filterKey(Command)
    /// The filter closes and the endpoint cursor goes to the top.
    case closeFilter
    /// A click on the `line`-th row shown in a list pane (0: the first row under the border).
    case click(Pane, line: Int)
    /// Show an endpoint in an environment: its environment becomes the active one, the filter closes.
    case show(EndpointKey, in: EnvironmentKey)
    /// A key of the tree (fold, unfold, titles or paths).
    case tree(NavigationCommand)
    /// Enter on a group's heading: fold or unfold it.
    case toggleGroup
}

enum NavigationFeature: AppFeature {
    /// The catalogs the cursors are over, and how many rows each list shows.
    struct Context {
        var catalog: CatalogSet
        var environmentViewport: Int
        var endpointViewport: Int
    }

    static func context(of app: AppState) -> Context {
        Context(catalog: app.catalog, environmentViewport: max(1, app.layout.environments.height - 2), endpointViewport: app.endpointViewportHeight)
    }

    static func reduce(_ state: inout NavigationState, _ action: NavigationAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        let catalog = context.catalog
        switch action {
        case .move(.environments, let movement):
            let rows = environmentRows(catalog.services)
            let selectable = rows.indices.filter { rows[$0].isEnvironment }
            guard !selectable.isEmpty else { return [] }
            let current = selectable.firstIndex(of: state.environmentList.selected ?? 0) ?? 0
            let target: Int
            switch movement {
            case .up(let count): target = max(0, current - count)
            case .down(let count): target = min(selectable.count - 1, current + count)
            case .top: target = 0
            case .bottom: target = selectable.count - 1
            }
            state.selectEnvironmentRow(selectable[target], catalog: catalog, viewport: context.environmentViewport)
        case .move(.endpoints, let movement):
            state.moveEndpointCursor(movement, catalog: catalog, viewport: context.endpointViewport)
        case .move(.response, _):
            break
        case .switchEnvironment(let step):
            let rows = environmentRows(catalog.services)
            guard let current = state.environmentList.selected, rows.indices.contains(current) else { return [] }
            let service = rows[current].serviceIndex
            let siblings = rows.indices.filter { rows[$0].serviceIndex == service && rows[$0].isEnvironment }
            guard let position = siblings.firstIndex(of: current), siblings.count > 1 else {
                shell.notice = "\(state.activeService(in: catalog)?.id ?? "This service") has only one environment."
                return []
            }
            let next = siblings[(position + step + siblings.count) % siblings.count]
            state.selectEnvironmentRow(next, catalog: catalog, viewport: context.environmentViewport)
            if let environment = state.activeEnvironment(in: catalog) {
                shell.notice = "Environment: \(environment.name) (\(environment.type.label)) · \(environment.baseURL.absoluteString)"
            }
        case .openFilter:
            state.filter = FilterState(input: InputState(text: state.filter?.query ?? ""))
        case .filterKey(let command):
            guard var filter = state.filter else { return [] }
            switch command {
            case .cancelInput:
                state.closeFilter(catalog: catalog)
            case .accept:
                filter.isEditing = false
                state.filter = filter.query.isEmpty ? nil : filter
            case .moveDown, .moveUp:
                state.moveEndpointCursor(command == .moveDown ? .down(1) : .up(1), catalog: catalog, viewport: context.endpointViewport)
            case .edit(let edit):
                filter.input.apply(edit)
                state.filter = filter
                state.refreshRows(in: catalog)
                state.setEndpointList(ListState(selected: 0), catalog: catalog)
            default:
                break
            }
        case .closeFilter:
            state.closeFilter(catalog: catalog)
        case .click(.environments, let line):
            let rows = environmentRows(catalog.services)
            let row = line + state.environmentList.visibleOffset(viewportHeight: context.environmentViewport, itemCount: rows.count)
            if rows.indices.contains(row), rows[row].isEnvironment {
                state.selectEnvironmentRow(row, catalog: catalog, viewport: context.environmentViewport)
            }
        case .click(.endpoints, let line):
            let count = state.rows(in: catalog).count
            var list = state.endpointList(in: catalog)
            let row = line + list.visibleOffset(viewportHeight: context.endpointViewport, itemCount: count)
            if (0..<count).contains(row) {
                list.selected = row
                state.setEndpointList(list, catalog: catalog)
            }
        case .click(.response, _):
            break
        case .show(let endpoint, let environment):
            state.filter = nil
            state.selectEnvironment(environment, catalog: catalog)
            state.selectEndpoint(endpoint, catalog: catalog)
        case .tree(.toggleRowStyle):
            state.rowStyle = state.rowStyle == .titles ? .paths : .titles
            shell.notice = state.rowStyle == .titles ? "Rows lead with titles (t: paths)." : "Rows lead with paths (t: titles)."
        case .tree(.fold), .tree(.unfold), .toggleGroup:
            state.fold(action, catalog: catalog, viewport: context.endpointViewport)
        case .tree(.nextEnvironment), .tree(.previousEnvironment), .tree(.filter):
            break  // their own actions: `.switchEnvironment`, `.openFilter`
        }
        return []
    }

    /// Service headings, each followed by its environments.
    static func environmentRows(_ services: [Service]) -> [EnvironmentRow] {
        var rows: [EnvironmentRow] = []
        for (serviceIndex, service) in services.enumerated() {
            rows.append(EnvironmentRow(serviceIndex: serviceIndex, environmentIndex: nil))
            for environmentIndex in service.environments.indices {
                rows.append(EnvironmentRow(serviceIndex: serviceIndex, environmentIndex: environmentIndex))
            }
        }
        return rows
    }
}

// The changes, here so that only this file sets the state's fields.
extension NavigationState {
    fileprivate mutating func setEndpointList(_ list: ListState, catalog: CatalogSet) {
        guard let service = activeService(in: catalog) else { return }
        endpointLists[service.id] = list
    }

    fileprivate mutating func moveEndpointCursor(_ movement: AppReducer.Movement, catalog: CatalogSet, viewport: Int) {
        let count = rows(in: catalog).count
        var list = endpointList(in: catalog)
        switch movement {
        case .up(let step): list.selectPrevious(itemCount: count, step: step)
        case .down(let step): list.selectNext(itemCount: count, step: step)
        case .top: list.selectFirst(itemCount: count)
        case .bottom: list.selectLast(itemCount: count)
        }
        list.scrollToSelection(viewportHeight: viewport, itemCount: count)
        setEndpointList(list, catalog: catalog)
    }

    fileprivate mutating func selectEnvironmentRow(_ row: Int, catalog: CatalogSet, viewport: Int) {
        let before = activeService(in: catalog)?.id
        environmentList.selected = row
        environmentList.scrollToSelection(viewportHeight: viewport, itemCount: NavigationFeature.environmentRows(catalog.services).count)
        if activeService(in: catalog)?.id != before { filter = nil }
        refreshRows(in: catalog)
    }

    fileprivate mutating func closeFilter(catalog: CatalogSet) {
        filter = nil
        refreshRows(in: catalog)
        setEndpointList(ListState(selected: 0), catalog: catalog)
    }

    /// Puts the environments cursor on the first environment.
    mutating func resetEnvironmentCursor(in catalog: CatalogSet) {
        environmentList = ListState(selected: NavigationFeature.environmentRows(catalog.services).firstIndex { $0.isEnvironment } ?? 0)
    }

    /// Puts the active service's endpoint cursor on the first endpoint.
    mutating func resetEndpointCursor(in catalog: CatalogSet) {
        setEndpointList(ListState(selected: 0), catalog: catalog)
    }

    /// Moves the environment cursor to `name` (an environment name, or `service/environment`);
    /// false when no environment matches.
    mutating func selectEnvironment(named name: String, catalog: CatalogSet) -> Bool {
        let parts = name.split(separator: "/", maxSplits: 1).map(String.init)
        if parts.count == 2 { return selectEnvironment(service: parts[0], environment: parts[1], catalog: catalog) }
        return selectEnvironment(service: nil, environment: name, catalog: catalog)
    }

    /// Moves the environment cursor to an environment; false when the catalog does not have it.
    @discardableResult
    mutating func selectEnvironment(_ key: EnvironmentKey, catalog: CatalogSet) -> Bool {
        selectEnvironment(service: key.service, environment: key.environment, catalog: catalog)
    }

    private mutating func selectEnvironment(service serviceID: String?, environment environmentName: String, catalog: CatalogSet) -> Bool {
        let rows = NavigationFeature.environmentRows(catalog.services)
        guard let index = rows.firstIndex(where: { row in
            guard let environmentIndex = row.environmentIndex else { return false }
            let service = catalog.services[row.serviceIndex]
            return (serviceID == nil || service.id == serviceID) && service.environments[environmentIndex].name == environmentName
        }) else { return false }
        environmentList.selected = index
        return true
    }

    /// Moves the endpoint cursor to `key` when the active service lists it, unfolding its group.
    mutating func selectEndpoint(_ key: EndpointKey, catalog: CatalogSet) {
        guard let service = activeService(in: catalog), service.id == key.service,
            let endpointIndex = service.endpoints.firstIndex(where: { $0.id == key.endpoint })
        else { return }
        if let group = service.endpoints[endpointIndex].group, isFolded(group, in: service) {
            toggledGroups[service.id, default: []].formSymmetricDifference([group])
        }
        refreshRows(in: catalog)
        let rows = rows(in: catalog)
        guard let index = rows.firstIndex(where: { $0.endpointIndex == endpointIndex }) else { return }
        var list = endpointList(in: catalog)
        list.select(index, itemCount: rows.count)
        setEndpointList(list, catalog: catalog)
    }

    /// Folds or unfolds the group under the cursor (or the endpoint's under it).
    fileprivate mutating func fold(_ action: NavigationAction, catalog: CatalogSet, viewport: Int) {
        guard filter == nil, let service = activeService(in: catalog), let row = selectedRow(in: catalog) else { return }
        let group: String
        switch row.kind {
        case .group(let id, _, _): group = id
        case .endpoint(let index):
            guard let id = service.endpoints[index].group else { return }
            group = id
        }
        let folded = isFolded(group, in: service)
        let wanted: Bool = switch action {
        case .tree(.fold): true
        case .tree(.unfold): false
        default: !folded
        }
        // Unfolding from an endpoint row: it is unfolded already.
        if wanted != folded { toggledGroups[service.id, default: []].formSymmetricDifference([group]) }
        refreshRows(in: catalog)
        let rows = rows(in: catalog)
        if let heading = rows.firstIndex(where: { $0.groupID == group }), wanted {
            var list = endpointList(in: catalog)
            list.select(heading, itemCount: rows.count)
            list.scrollToSelection(viewportHeight: viewport, itemCount: rows.count)
            setEndpointList(list, catalog: catalog)
        }
    }

    /// Keeps the rows of the active service made, and the recency taken from `history`.
    mutating func refresh(in catalog: CatalogSet, history: [HistoryItem]) {
        let stamp = RecencyStamp(count: history.count, newest: history.first?.date)
        if stamp != recencyStamp {
            recencyStamp = stamp
            var recency: [String: [String: Int]] = [:]
            for (rank, item) in history.enumerated() where recency[item.call.endpoint.service]?[item.call.endpoint.endpoint] == nil {
                recency[item.call.endpoint.service, default: [:]][item.call.endpoint.endpoint] = rank
            }
            self.recency = recency
        }
        refreshRows(in: catalog)
    }

    /// Makes the active service's rows again when what they are made of changed, so that the
    /// rest of the key's handling and the frame read them from the cache (ranking 10,000
    /// endpoints once a key, not once a question).
    mutating func refreshRows(in catalog: CatalogSet) {
        guard let service = activeService(in: catalog) else {
            cache = nil
            return
        }
        let query = filter?.query ?? ""
        let toggled = toggledGroups[service.id, default: []]
        let recent = recency[service.id, default: [:]]
        if let cache, cache.serviceID == service.id, cache.query == query, cache.toggled == toggled, cache.recency == recent,
            cache.endpoints == service.endpoints
        {
            return
        }
        let rows = Self.rows(of: service, query: query, recency: recent) { isFolded($0, in: service) }
        cache = RowsCache(serviceID: service.id, endpoints: service.endpoints, query: query, toggled: toggled, recency: recent, rows: rows)
    }

    /// The catalogs were read again (`previous` → `catalog`): the same service and environment
    /// stay active, or the same service, else the first environment; each service's endpoint
    /// cursor stays on the same endpoint id, else near where it was.
    mutating func keepPlace(from previous: CatalogSet, to catalog: CatalogSet) {
        let environment = activeEnvironment(in: previous).flatMap { environment in
            activeService(in: previous).map { EnvironmentKey($0, environment: environment.name) }
        }
        var cursors: [String: String] = [:]
        let active = activeService(in: previous)?.id
        for service in previous.services {
            let endpoints = endpointRowsIDs(service, active: service.id == active, catalog: previous)
            if let selected = endpointLists[service.id]?.selected, endpoints.indices.contains(selected), let id = endpoints[selected] {
                cursors[service.id] = id
            }
        }
        let serviceRow = currentEnvironmentRow(in: previous.services).map { previous.services[$0.serviceIndex].id }

        let restored = environment.map { selectEnvironment($0, catalog: catalog) } ?? false
        if restored {
            // The same service and environment.
        } else if let serviceRow, let index = NavigationFeature.environmentRows(catalog.services).firstIndex(where: { catalog.services[$0.serviceIndex].id == serviceRow }) {
            environmentList.selected = index
        } else {
            resetEnvironmentCursor(in: catalog)
        }
        let nowActive = activeService(in: catalog)?.id
        for (serviceID, endpointID) in cursors {
            guard let service = catalog.service(serviceID) else {
                endpointLists[serviceID] = nil
                continue
            }
            let endpoints = endpointRowsIDs(service, active: serviceID == nowActive, catalog: catalog)
            var list = endpointLists[serviceID] ?? ListState(selected: 0)
            if let index = endpoints.firstIndex(where: { $0 == endpointID }) {
                list.selected = index
            } else {
                list.selected = max(0, min(list.selected ?? 0, endpoints.count - 1))
            }
            endpointLists[serviceID] = list
        }
    }

    /// The endpoint id of each row of a service (nil for a heading): the rows shown when it is
    /// the active service, else its tree.
    private func endpointRowsIDs(_ service: Service, active: Bool, catalog: CatalogSet) -> [String?] {
        let rows = active ? rows(in: catalog) : EndpointTree.rows(service.endpoints) { isFolded($0, in: service) }
        // A plain loop: the optimizer of Swift 6.3.1 crashed (CopyPropagation, an ownership
        // error) on the nested `map` over the row's computed index in release builds.
        var ids: [String?] = []
        ids.reserveCapacity(rows.count)
        for row in rows {
            switch row.kind {
            case .endpoint(let index): ids.append(service.endpoints[index].id)
            case .group: ids.append(nil)
            }
        }
        return ids
    }
}
