import ArgumentParser

/// Every subcommand, one file each under Commands/.
enum CommandList {
    static let all: [any ParsableCommand.Type] = [
        ExploreCommand.self,
        SnapshotCommand.self,
        ValidateCommand.self,
        MockCommand.self,
        ListCommand.self,
        DescribeCommand.self,
        CallCommand.self,
        DiffCommand.self,
        CheckCommand.self,
        TestCommand.self,
        RecordCommand.self,
        HistoryCommand.self,
        ExportCommand.self,
        ImportCommand.self,
        AuthCommand.self,
        TrustCommand.self,
        ManCommand.self,
    ]

    /// What `apiexplorer` with no subcommand runs.
    static let defaultCommand: (any ParsableCommand.Type)? = ExploreCommand.self
}
