@testable import apiexplorer
import ExplorerApp
import Testing

/// `apiexplorer` with no arguments opens the explorer without the argument parser: it must open
/// exactly what `apiexplorer explore` with no options parses to.
@Suite struct ExplorerLaunchTests {
    @Test func noArgumentsOpenWhatTheParserWouldOpen() throws {
        let parsed = try #require(try APIExplorerCommand.parseAsRoot([]) as? ExploreCommand, "explore is the default command")
        #expect(parsed.launch == ExplorerLaunch())
        #expect(try ExploreCommand.parse([]).launch == ExplorerLaunch())
    }

    @Test func everyOptionReachesTheLaunch() throws {
        let parsed = try ExploreCommand.parse(["--catalog", "apis", "--max-body-size", "1KiB", "--env", "shop/local", "--live", "--mock", "--no-mouse"])
        #expect(parsed.launch == ExplorerLaunch(
            catalog: "apis", maximumBodySize: 1024, startingPoint: LaunchOptions(environment: "shop/local", live: true), mock: true, noMouse: true))
    }
}
