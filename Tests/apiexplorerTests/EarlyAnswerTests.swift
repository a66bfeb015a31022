@testable import apiexplorer
import ExplorerApp
import Testing
import TestTraits

/// `apiexplorer` alone and `apiexplorer --version` are answered without the argument parser, and a
/// subcommand named first is parsed on its own: each answer must be exactly what the whole
/// command tree's parse would have given.
@Suite(.offPool) struct EarlyAnswerTests {
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

    @Test func aSubcommandParsedAloneIsWhatTheWholeTreeParses() throws {
        let commandLines: [[String]] = [
            ["call", "shop/list"],
            ["call", "shop/list", "--live", "--env", "staging", "--var", "id=7", "--var", "q=a b", "-i", "--json", "-o", "out.json",
             "--message", "hi", "--message", "@ping", "--listen", "2.5", "-b", "in.txt", "-c", "jar.txt", "--no-history", "--reveal",
             "--catalog", "apis", "--max-body-size", "2MiB", "--example", "notFound"],
            ["call", "--stub", "--", "shop/get"],
            ["list", "--json", "--catalog", "apis"],
            ["validate", "apis", "--json"],
            ["history", "--limit", "5", "--json"],
            ["check", "shop", "--env", "local", "--var", "a=1", "--include-unsafe", "--json"],
            ["mock", "--service", "shop", "--port", "0", "--host", "127.0.0.1", "--no-delay", "--tls", "--tls-port", "0"],
            ["snapshot", "--size", "80x24", "--keys", "j j Enter", "--env", "shop/local", "--live", "--mock", "--out", "s.txt"],
            ["record", "shop/list", "--force", "--env", "local"],
            ["explore", "--live", "--no-mouse"],
            ["man"],
        ]
        for arguments in commandLines {
            let alone = try #require(APIExplorerCommand.parseNamedSubcommand(arguments), "\(arguments)")
            let whole = try APIExplorerCommand.parseAsRoot(arguments)
            #expect(ObjectIdentifier(type(of: alone)) == ObjectIdentifier(type(of: whole)), "\(arguments)")
            #expect(Self.dumped(alone) == Self.dumped(whole), "\(arguments)")
        }
        // The comparison sees the values parsed, not only the command's type.
        let call = Self.dumped(try #require(APIExplorerCommand.parseNamedSubcommand(commandLines[1])))
        for value in ["staging", "q=a b", "jar.txt", "@ping", "notFound", "2.5"] { #expect(call.contains(value), "\(value)") }
    }

    @Test func whatDoesNotParseAloneIsLeftToTheWholeTree() {
        let commandLines: [[String]] = [
            [], ["call"], ["call", "--help"], ["call", "shop/list", "-h"], ["call", "shop/list", "--", "extra"], ["call", "shop/list", "--version"], ["call", "--live", "--stub"],
            ["call", "shop/list", "--listen", "soon"], ["call", "--generate-completion-script", "bash"], ["list", "--bogus"],
            ["auth", "status", "shop"], ["import", "curl", "x"], ["export", "curl", "shop/list"], ["help", "call"], ["Call", "shop/list"],
            ["--live"], ["---completion", "call", "--", "endpoint", "0", "0"],
        ]
        for arguments in commandLines {
            #expect(APIExplorerCommand.parseNamedSubcommand(arguments) == nil, "\(arguments)")
        }
    }

    /// Everything a parsed command holds, as text.
    private static func dumped(_ command: Any) -> String {
        var text = ""
        dump(command, to: &text)
        return text
    }
}
