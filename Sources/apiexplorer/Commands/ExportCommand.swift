import ArgumentParser

/// `apiexplorer export curl|har`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Exports an endpoint as a curl command, or the history as HAR.",
        subcommands: [ExportCurlCommand.self, ExportHARCommand.self])
}
