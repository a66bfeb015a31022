import ArgumentParser

/// `apiexplorer import openapi|curl|postman`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Makes catalogs from OpenAPI documents and Postman collections, and endpoints from curl commands.",
        subcommands: [ImportOpenAPICommand.self, ImportCurlCommand.self, ImportPostmanCommand.self])
}
