import ArgumentParser

/// `apiexplorer import openapi|curl|postman|insomnia`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Makes catalogs from OpenAPI documents, Postman collections and Insomnia exports, and endpoints from curl commands.",
        subcommands: [ImportOpenAPICommand.self, ImportCurlCommand.self, ImportPostmanCommand.self, ImportInsomniaCommand.self])
}
