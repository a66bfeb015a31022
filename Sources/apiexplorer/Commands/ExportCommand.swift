import ArgumentParser

/// `apiexplorer export curl|grpcurl|httpie|python|javascript|http|openapi|swift|har`.
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Exports an endpoint as a curl, grpcurl, HTTPie, Python or JavaScript command, a service as a .http file, an OpenAPI document or Swift, the history as HAR, or a flow as a Locust locustfile.",
        subcommands: [
            ExportCurlCommand.self, ExportGrpcurlCommand.self, ExportHTTPieCommand.self, ExportPythonCommand.self, ExportJavaScriptCommand.self, ExportHTTPCommand.self,
            ExportOpenAPICommand.self, ExportSwiftCommand.self, ExportHARCommand.self, ExportLocustCommand.self,
        ])
}
