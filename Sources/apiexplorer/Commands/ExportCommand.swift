import ArgumentParser

/// `apiexplorer export curl|har|http`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Exports an endpoint as a curl command, endpoints as a .http file, or the history as HAR.",
        subcommands: [ExportCurlCommand.self, ExportHARCommand.self, ExportHTTPCommand.self])
}
