import ArgumentParser
import SystemSupport

/// The `apiexplorer` command: the explorer by default, and subcommands for scripts and CI.
@main
struct APIExplorerCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "apiexplorer",
        abstract: "An interactive terminal API explorer: environments, endpoints, stub and live mode, mapped errors.",
        discussion: """
            Catalogs come from --catalog DIR, else $APIEXPLORER_CATALOG, else ./environments, \
            else the catalogs built into the binary.
            """,
        version: APIExplorerVersion.current,
        subcommands: CommandList.all,
        defaultSubcommand: CommandList.defaultCommand
    )

    /// Runs the command line; usage errors exit with 2 (as `call` documents) instead of
    /// argument-parser's 64, so every command agrees: 0 success, 1 failure, 2 usage.
    static func main() async {
        do {
            let arguments = Array(CommandLine.arguments.dropFirst())
            switch EarlyAnswer(arguments) {
            case .openExplorer:
                // Before the launch starts its threads (see WritableDataPrefault).
                WritableDataPrefault.run()
                try await ExplorerLaunch().run()
                return
            case .printVersion:
                print(APIExplorerVersion.current)
                return
            case nil:
                break
            }
            if arguments.first == CallArguments.commandName, let call = CallArguments.quickParse(Array(arguments.dropFirst())) {
                // What scripts run in a loop: read without the parser, or even `CallCommand`'s type, when plain
                // (see CallArguments and QuickParse).
                WritableDataPrefault.run()
                try await call.run()
                return
            }
            var command: any ParsableCommand
            if let subcommand = parseNamedSubcommand(arguments) {
                command = subcommand
            } else {
                command = try parseAsRoot(arguments)
            }
            if command is ExploreCommand { WritableDataPrefault.run() }
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch let status as ExitCode {
            // A command's own status (1 for a mapped error): argument-parser would first build the
            // root command's help, dozens of conformance scans, to find it has no message to print.
            StandardStreams.exit(status.rawValue)
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.error(fullMessage(for: error))
                exit(withError: ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}

extension APIExplorerCommand {
    /// A subcommand without subcommands of its own, named first (`call shop/list …`), parsed on
    /// its own: the whole tree's parse reflects over every command. Nil when the
    /// first argument names no such subcommand, or when the rest does not parse or asks for help:
    /// the whole tree's parse then gives the error, the help or the completion script with the
    /// full command path (so a command's `validate()` may run twice, and must not print).
    /// `EarlyAnswerTests` checks both parses give the same command.
    static func parseNamedSubcommand(_ arguments: [String]) -> sending (any ParsableCommand)? {
        guard let name = arguments.first,
            let subcommand = CommandList.all.first(where: { $0._commandName == name && $0.configuration.subcommands.isEmpty })
        else { return nil }
        // `--help` parses to a help command for the subcommand alone: left to the whole tree too.
        guard let parsed = try? subcommand.parseAsRoot(Array(arguments.dropFirst())), type(of: parsed) == subcommand else { return nil }
        return parsed
    }
}

/// What the two commonest command lines ask for, answered without the argument parser: its
/// reflection over the command tree (and its probe for a completion-script request) costs more
/// than the rest of `--version` (docs/performance.md, Start-up).
/// Anything else is parsed; `EarlyAnswerTests` checks both answers equal the parser's.
enum EarlyAnswer: Equatable {
    /// No arguments: the explorer, as `apiexplorer explore` with no options (see `ExplorerLaunch`).
    case openExplorer
    /// `--version` alone.
    case printVersion

    /// The answer for `arguments` (the program's name left out), nil when they need parsing.
    init?(_ arguments: some Collection<String>) {
        if arguments.isEmpty {
            self = .openExplorer
        } else if arguments.count == 1, arguments.first == "--version" {
            self = .printVersion
        } else {
            return nil
        }
    }
}

/// The version printed by `--version`.
enum APIExplorerVersion {
    static let current = "0.1.0"
}
