import ArgumentParser

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
            // The usual launch, no arguments at all, opens the explorer without parsing (see `ExplorerLaunch`).
            if CommandLine.arguments.count <= 1 {
                try await ExplorerLaunch().run()
                return
            }
            var command = try parseAsRoot()
            if var asyncCommand = command as? any AsyncParsableCommand {
                try await asyncCommand.run()
            } else {
                try command.run()
            }
        } catch {
            if exitCode(for: error) == .validationFailure {
                Console.error(fullMessage(for: error))
                exit(withError: ExitStatus.usage)
            }
            exit(withError: error)
        }
    }
}

/// The version printed by `--version`.
enum APIExplorerVersion {
    static let current = "0.1.0"
}
