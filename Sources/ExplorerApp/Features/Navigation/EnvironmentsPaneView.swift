import TerminalKit

/// Services with their environments; the row under the cursor is where requests go.
enum EnvironmentsPaneView {
    static func render(_ state: AppState, area: Rect, into buffer: inout Buffer) {
        let focused = state.focus == .environments
        let rows = state.environmentRows
        let selected = state.environmentList.selected
        let items = rows.enumerated().map { index, row -> Line in
            let service = state.catalog.services[row.serviceIndex]
            guard let environmentIndex = row.environmentIndex else {
                var spans = [Span(service.id, style: Theme.heading)]
                if service.title != service.id { spans.append(Span("  \(service.title)", style: Theme.dim)) }
                if service.isPartial { spans.append(Span("  ⚠", style: Theme.notice)) }
                return Line(spans)
            }
            let environment = service.environments[environmentIndex]
            let marker = index == selected ? Span(" ● ", style: Style(foreground: .cyan, modifiers: .bold)) : Span("   ")
            return Line([marker, Span(environment.name + "  "), Theme.badge(environment.type)])
        }
        let list = ListView(
            items, block: AppView.block("Environments", focused: focused),
            highlightStyle: focused ? Theme.highlight : .plain, showsScrollbar: true,
            placeholder: state.isLoadingCatalog ? Line(state.loadingText, style: Theme.dim) : Line("No catalogs loaded"))
        list.render(into: &buffer, area: area, state: state.environmentList)
    }
}
