import Catalog
import TerminalKit

/// The finder (`C-p`: any endpoint of any service, by id, title, path, method, group or service,
/// and the requests sent before, by method and URL) and the command palette (`F1`: every command of the keymap with its key), ranked as the `/`
/// filter ranks.
package struct FinderState: Sendable {
    /// What the window searches.
    package enum Mode: Sendable, Hashable {
        case endpoints, commands
    }

    /// What the window searches; nil while it is closed.
    package fileprivate(set) var mode: Mode?
    /// The query typed.
    package fileprivate(set) var input = InputState()
    /// The cursor over the results.
    package fileprivate(set) var list = ListState(selected: 0)
    /// The results, best first (at most `FinderFeature.limit`).
    package fileprivate(set) var results: [FinderResult] = []
    /// The endpoints' parts searched, made when the window opens on endpoints.
    package fileprivate(set) var index = FinderIndex()

    /// Whether the window is open.
    package var isOpen: Bool { mode != nil }
}

/// A row of the finder: an endpoint or a command, and why it matched.
package struct FinderResult: Sendable, Hashable {
    /// What choosing it does.
    package enum Target: Sendable, Hashable {
        /// Show the endpoint (in the active environment when it is its service's, else in its first one).
        case endpoint(EndpointKey)
        /// Run the command, with the key shown beside it.
        case command(Command, key: String, help: String)
        /// Send a request of the history again, as `H` does.
        case history(HistoryItem)
    }

    /// What choosing it does.
    package var target: Target
    /// An endpoint's match (nil for a command or an empty query).
    package var match: EndpointMatch?
    /// Matched UTF-8 offsets in a command's help text or a past request's line.
    package var positions: [Int] = []
}

/// What happens to the finder.
package enum FinderAction: Sendable {
    /// Open it on endpoints or on commands.
    case open(FinderState.Mode)
    /// A key while it is open.
    case key(Command)
}

enum FinderFeature: AppFeature {
    /// The most results kept: more is noise, and fewer is faster over 10,000 endpoints.
    static let limit = 200
    /// The most past requests among them: the endpoints are what the finder is for.
    static let historyLimit = 20

    /// The catalogs searched, how recently each endpoint was sent, the requests sent (newest
    /// first), and how far a page moves.
    struct Context {
        var catalog: CatalogSet
        var recency: [String: [String: Int]]
        var history: [HistoryItem]
        var pageHeight: Int
    }

    static func context(of app: AppState) -> Context {
        Context(catalog: app.catalog, recency: app.navigation.recency, history: app.history.items, pageHeight: max(1, app.size.height - 8))
    }

    static func reduce(_ state: inout FinderState, _ action: FinderAction, _ shell: inout AppShell, _ context: Context) -> [AppEffect] {
        switch action {
        case .open(let mode):
            state.mode = mode
            state.input = InputState()
            state.index = mode == .endpoints ? FinderIndex(context.catalog.services) : FinderIndex()
            search(&state, context)
        case .key(let command):
            switch command {
            case .cancelInput, .close:
                state.mode = nil
                state.index = FinderIndex()
            case .accept, .choose:
                state.mode = nil
                state.index = FinderIndex()
                guard let selected = state.list.selected, state.results.indices.contains(selected) else { return [] }
                switch state.results[selected].target {
                case .endpoint(let key): shell.requests.append(.showEndpoint(key))
                case .command(let command, _, _): shell.requests.append(.run(command))
                case .history(let item): shell.requests.append(.sendAgain(item.call))
                }
            case .moveDown, .moveUp, .moveToTop, .moveToBottom:
                if case .moved(let list) = OverlaysFeature.listKey(command, state.list, count: state.results.count) { state.list = list }
            case .pageDown, .pageUp:
                let count = state.results.count
                let step = command == .pageDown ? context.pageHeight : -context.pageHeight
                state.list.select(max(0, min(count - 1, (state.list.selected ?? 0) + step)), itemCount: count)
            case .edit(let edit):
                state.input.apply(edit)
                search(&state, context)
            default:
                break
            }
        }
        return []
    }

    /// Fills the results for the query typed.
    static func search(_ state: inout FinderState, _ context: Context) {
        switch state.mode {
        case .endpoints?:
            let endpoints = state.index.ranked(state.input.text, recency: context.recency, limit: limit).map {
                FinderResult(target: .endpoint(context.catalog.services[$0.service].endpoints[$0.index].key), match: $0.match)
            }
            state.results = merged(endpoints, history(matching: state.input.text, in: context.history))
        case .commands?:
            state.results = commands(matching: state.input.text)
        case nil:
            state.results = []
        }
        state.list = ListState(selected: 0)
    }

    /// The past requests whose method and URL match every word of `query`, best kind first, the
    /// newest first on ties, each request line once; none for an empty query (the endpoints are
    /// listed then, the recently sent first).
    static func history(matching query: String, in items: [HistoryItem]) -> [(result: FinderResult, kind: FuzzyMatch.Kind)] {
        let terms = query.split(separator: " ").map { FuzzyMatch.lowered(String($0)) }
        guard !terms.isEmpty else { return [] }
        var seen: Set<String> = []
        var found: [(result: FinderResult, kind: FuzzyMatch.Kind, order: Int)] = []
        for (order, item) in items.enumerated() where seen.insert(item.requestLine).inserted {
            let line = Array(item.requestLine.utf8)
            var kind = FuzzyMatch.Kind.exact
            var positions: [Int] = []
            var matchedAll = true
            for term in terms {
                guard let match = FuzzyMatch.match(term, in: line) else {
                    matchedAll = false
                    break
                }
                kind = min(kind, match.kind)
                positions += match.positions
            }
            guard matchedAll else { continue }
            found.append((FinderResult(target: .history(item), positions: Array(Set(positions)).sorted()), kind, order))
        }
        found.sort { a, b in a.kind != b.kind ? a.kind > b.kind : a.order < b.order }
        return found.prefix(historyLimit).map { ($0.result, $0.kind) }
    }

    /// The endpoints (ranked, so by kind first) with the past requests placed among them by the
    /// kind of their match, after the endpoints of the same kind.
    static func merged(_ endpoints: [FinderResult], _ history: [(result: FinderResult, kind: FuzzyMatch.Kind)]) -> [FinderResult] {
        guard !history.isEmpty else { return endpoints }
        var results: [FinderResult] = []
        results.reserveCapacity(endpoints.count + history.count)
        var next = 0
        for endpoint in endpoints {
            let kind = endpoint.match?.kind ?? .subsequence
            while next < history.count, history[next].kind > kind {
                results.append(history[next].result)
                next += 1
            }
            results.append(endpoint)
        }
        results += history[next...].map(\.result)
        return results
    }

    /// The scopes whose commands the palette runs: those of the panes, whatever has focus.
    static let paletteScopes: [KeyScope] = [.requests, .response, .panes, .other]

    /// The keymap's commands whose key or help matches `query`, best first (keymap order on ties).
    static func commands(matching query: String) -> [FinderResult] {
        let terms = query.split(separator: " ").map { FuzzyMatch.lowered(String($0)) }
        var found: [(result: FinderResult, kind: FuzzyMatch.Kind, score: Int, order: Int)] = []
        for (order, binding) in Keymap.bindings.enumerated() where paletteScopes.contains(binding.scope) {
            guard let help = binding.help else { continue }
            let result = FinderResult(target: .command(binding.command, key: binding.keyLabel, help: help))
            guard !terms.isEmpty else {
                found.append((result, .subsequence, 0, order))
                continue
            }
            let helpBytes = Array(help.utf8)
            let keyBytes = Array(binding.keyLabel.utf8)
            var kind = FuzzyMatch.Kind.exact
            var score = 0
            var positions: [Int] = []
            var matchedAll = true
            for term in terms {
                let onKey = FuzzyMatch.match(term, in: keyBytes)
                let onHelp = FuzzyMatch.match(term, in: helpBytes)
                guard let best = [onKey, onHelp].compactMap({ $0 }).max() else {
                    matchedAll = false
                    break
                }
                kind = min(kind, best.kind)
                score += best.score
                if let onHelp, onHelp == best { positions += onHelp.positions }
            }
            guard matchedAll else { continue }
            var ranked = result
            ranked.positions = positions.sorted()
            found.append((ranked, kind, score, order))
        }
        found.sort { a, b in
            if a.kind != b.kind { return a.kind > b.kind }
            if a.score != b.score { return a.score > b.score }
            return a.order < b.order
        }
        return found.map(\.result)
    }
}
