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
}

/// The version printed by `--version`.
enum APIExplorerVersion {
    static let current = "0.1.0"
}
