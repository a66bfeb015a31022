import ArgumentParser

/// `apiexplorer import openapi|curl`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Makes catalogs from OpenAPI documents and endpoints from curl commands.",
        subcommands: [ImportOpenAPICommand.self, ImportCurlCommand.self])
}
