import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerTestSupport
import TerminalKit
import Testing
import TestTraits

/// The endpoints pane as a tree of groups (Features/Navigation): folding, counts, the selection
/// path, rows that fit, and the filter's ranking.
@Suite(.offPool) struct EndpointTreeTests {
    static let github = """
        service: hub
        environments:
          local:
            baseURL: http://127.0.0.1:9/hub
        groups:
          repos:
            title: Repositories
          issues: {}
        endpoints:
          meta:
            path: /meta
          reposGet:
            title: Get a repository
            group: repos
            path: /repos/{{owner}}/{{repo}}
          reposListCommentsForCommit:
            title: List commit comments
            group: repos
            path: /repos/{{owner}}/{{repo}}/commits/{{commit_sha}}/comments
          issuesCreate:
            title: Create an issue
            group: issues
            method: POST
            path: /repos/{{owner}}/{{repo}}/issues
          patch:
            title: Echo a PATCH
            method: PATCH
            path: /patch
          chat:
            title: Chat completion
            group: issues
            method: POST
            path: /v1/chat/completions
        """

    static func state(size: Size = Size(width: 120, height: 40)) -> AppState {
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["hub.yaml": github]), source: .bundled)
        return AppState(catalog: catalog, size: size)
    }

    static func describe(_ state: AppState) -> [String] {
        let service = state.activeService!
        return state.endpointRows.map { row in
            switch row.kind {
            case .group(let id, let count, let folded): "\(folded ? "+" : "-")\(id)(\(count))"
            case .endpoint(let index): String(repeating: " ", count: row.depth) + service.endpoints[index].id
            }
        }
    }

    @Test func groupsAreHeadingsWithCountsAtTheirFirstEndpoint() {
        let state = Self.state()
        #expect(Self.describe(state) == ["meta", "-repos(2)", " reposGet", " reposListCommentsForCommit", "-issues(2)", " issuesCreate", " chat", "patch"])
        #expect(state.screen.contains("▾ repos (2)  Repositories"))
        #expect(state.screen.contains("hub › meta"))
    }

    @Test func enterOnAHeadingFoldsAndMinusFoldsFromAnEndpoint() {
        var state = Self.state()
        _ = state.press("j")
        #expect(state.selectedEndpoint == nil)
        #expect(state.selectedRow?.groupID == "repos")
        let effects = state.press("Enter")
        #expect(effects.sent.isEmpty, "Enter on a heading folds, it sends nothing")
        #expect(Self.describe(state) == ["meta", "+repos(2)", "-issues(2)", " issuesCreate", " chat", "patch"])
        #expect(state.screen.contains("▸ repos (2)"))
        _ = state.press("Enter")
        #expect(Self.describe(state).count == 8)
        _ = state.press("j j j j")  // issuesCreate
        #expect(state.selectedEndpoint?.id == "issuesCreate")
        #expect(state.screen.contains("hub › issues › issuesCreate"))
        _ = state.press("-")
        #expect(state.selectedRow?.groupID == "issues", "folding from an endpoint puts the cursor on its heading")
        #expect(Self.describe(state) == ["meta", "-repos(2)", " reposGet", " reposListCommentsForCommit", "+issues(2)", "patch"])
        _ = state.press("+ j")
        #expect(state.selectedEndpoint?.id == "issuesCreate")
    }

    @Test func rowsLeadWithTitlesOrPathsAndLongPathsAreShortened() {
        var state = Self.state(size: Size(width: 80, height: 24))
        _ = state.press("j j j")  // reposListCommentsForCommit
        #expect(state.screen.contains("/repos/{{owner}}/{{repo}}/commits/{{commit_sha}}/comments") == false)
        #expect(state.screen.contains("…"))
        _ = state.press("t")
        #expect(state.navigation.rowStyle == .titles)
        #expect(state.screen.contains("List commit"))
        _ = state.press("t")
        #expect(state.navigation.rowStyle == .paths)
        #expect(EndpointsPaneView.shortened("/repos/{{owner}}/{{repo}}/commits", toWidth: 16) == "/repos/…/commits")
    }

    /// Issue 49: paths cut in the middle (`/repos/{{…}/comments`) looked alike; shortened, they
    /// keep their own segments and their end: placeholders go first, then leading segments.
    @Test func shortenedPathsKeepWhatTellsThemApart() {
        let paths = [
            "/repos/{{owner}}/{{repo}}/issues/{{issue_number}}/comments", "/repos/{{owner}}/{{repo}}/pulls/{{pull_number}}/comments",
            "/repos/{{owner}}/{{repo}}/commits/{{commit_sha}}/comments", "/repos/{{owner}}/{{repo}}/issues/comments",
        ]
        for width in [12, 16, 20, 26, 40] {
            let shown = paths.map { EndpointsPaneView.shortened($0, toWidth: width) }
            #expect(shown.allSatisfy { $0.displayWidth <= width }, "\(width): \(shown)")
            if width >= 16 { #expect(Set(shown).count == paths.count, "\(width): \(shown)") }
            #expect(shown.allSatisfy { $0.hasSuffix("comments") }, "\(width): \(shown)")
        }
        #expect(EndpointsPaneView.shortened(paths[0], toWidth: 26) == "/repos/…/issues/…/comments")
        #expect(EndpointsPaneView.shortened(paths[0], toWidth: 20) == "…/issues/…/comments")
        #expect(EndpointsPaneView.shortened(paths[0], toWidth: 16) == "…sues/…/comments")
        #expect(EndpointsPaneView.shortened(paths[0], toWidth: 5) == "…ents")
        #expect(EndpointsPaneView.shortened("/short", toWidth: 20) == "/short")
    }

    @Test func theFilterRanksAndEnterPicksTheBest() {
        var state = Self.state()
        _ = state.press("/ c h a t")
        #expect(state.endpointRows.first?.endpointIndex.map { state.activeService!.endpoints[$0].id } == "chat")
        #expect(Self.describe(state).contains("patch"), "PATCH /patch matches too, below")
        let effects = state.press("Enter Enter")
        #expect(effects.sent.map(\.call.endpoint) == ["hub/chat"])
    }

    /// The finder keeps the best `limit` by a bounded heap once matches are many: the same rows,
    /// in the same order, as sorting them all.
    @Test func theFinderKeepsTheSameBestRowsAsAFullSort() {
        var text = "service: big\nenvironments:\n  local:\n    baseURL: http://127.0.0.1:9\nendpoints:\n"
        for index in 0..<600 {
            text += "  op\(index):\n    title: \(["List", "Get", "Create"][index % 3]) item \(index % 37)\n    path: /items/\(index % 53)/\(index)\n"
        }
        let catalog = CatalogLoader.load(fileSystem: InMemoryFileSystem(texts: ["big.yaml": text]), source: .bundled)
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
        for query in ["i", "item 1", "lst", "op4", "get 2"] {
            let all = EndpointTree.rankedAcross(catalog.services, query: query, recency: ["big": ["op7": 0, "op300": 1]], limit: .max)
            let best = EndpointTree.rankedAcross(catalog.services, query: query, recency: ["big": ["op7": 0, "op300": 1]], limit: 20)
            #expect(all.count > 80, "enough matches for the heap: \(query)")
            #expect(best.map(\.index) == all.prefix(20).map(\.index), "\(query)")
        }
    }

    @Test func smallestIsTheSortedPrefix() {
        var generator = SystemRandomNumberGenerator()
        for count in [0, 1, 5, 50] {
            let items = (0..<300).map { _ in Int.random(in: 0..<100, using: &generator) }
            #expect(EndpointTree.smallest(count, of: items, by: <) == Array(items.sorted().prefix(count)))
        }
    }

    @Test func aFoldedEndpointIsUnfoldedWhenShownFromTheHistory() {
        var state = Self.state()
        _ = state.press("j Enter")  // fold repos
        state.selectEnvironment(TestCatalog.key("hub", "local"))
        _ = AppReducer.reduce(&state, .navigation(.show("hub/reposGet", in: TestCatalog.key("hub", "local"))))
        #expect(state.selectedEndpoint?.id == "reposGet")
        #expect(Self.describe(state).contains("-repos(2)"))
    }

    @Test(arguments: [Size(width: 80, height: 24), Size(width: 120, height: 40), Size(width: 200, height: 60)])
    func theTreeOnScreen(size: Size) {
        var state = Self.state(size: size)
        _ = state.press("j Enter j j")
        assertSnapshot(state.screen, named: "tree-\(size)")
    }
}
