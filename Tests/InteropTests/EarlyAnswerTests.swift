@testable import apiexplorer
import ExplorerApp
import Testing

/// `apiexplorer` alone and `apiexplorer --version` are answered without the argument parser: each
/// answer must be exactly what the parser would have given.
@Suite struct EarlyAnswerTests {
    @Test func noArgumentsOpenWhatTheParserWouldOpen() throws {
        #expect(EarlyAnswer([String]()) == .openExplorer)
        let parsed = try #require(try APIExplorerCommand.parseAsRoot([]) as? ExploreCommand, "explore is the default command")
        #expect(parsed.launch == ExplorerLaunch())
        #expect(try ExploreCommand.parse([]).launch == ExplorerLaunch())
    }

    @Test func versionPrintsWhatTheParserWouldPrint() {
        #expect(EarlyAnswer(["--version"]) == .printVersion)
        do {
            _ = try APIExplorerCommand.parseAsRoot(["--version"])
            Issue.record("the parser answers --version with an early exit")
        } catch {
            #expect(APIExplorerCommand.exitCode(for: error) == .success)
            #expect(APIExplorerCommand.fullMessage(for: error) == APIExplorerVersion.current)
        }
    }

    @Test func everythingElseIsParsed() {
        for arguments in [["--help"], ["--version", "--help"], ["explore"], ["call", "shop", "list"], ["--Version"], ["-v"], [""]] {
            #expect(EarlyAnswer(arguments) == nil, "\(arguments)")
        }
    }

    @Test func everyOptionReachesTheLaunch() throws {
        let parsed = try ExploreCommand.parse(["--catalog", "apis", "--max-body-size", "1KiB", "--env", "shop/local", "--live", "--mock", "--no-mouse"])
        #expect(parsed.launch == ExplorerLaunch(
            catalog: "apis", maximumBodySize: 1024, startingPoint: LaunchOptions(environment: "shop/local", live: true), mock: true, noMouse: true))
    }
}
