import ArgumentParser

/// `apiexplorer export curl|httpie|python|javascript|http|har`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Exports an endpoint as a curl, HTTPie, Python or JavaScript command, endpoints as a .http file, or the history as HAR.",
        subcommands: [
            ExportCurlCommand.self, ExportHTTPieCommand.self, ExportPythonCommand.self, ExportJavaScriptCommand.self, ExportHTTPCommand.self,
            ExportHARCommand.self,
        ])
}
