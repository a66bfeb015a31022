import ArgumentParser
import Catalog
import DispatcherCore
import StateStore

/// `apiexplorer export curl SERVICE/ENDPOINT [--reveal]`: the request as a curl command line.
struct ExportCurlCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Prints an endpoint's request as a curl command (secrets masked unless --reveal).",
        discussion: """
            The request is rendered exactly as `apiexplorer call` would send it in that environment: environment, \
            group and endpoint headers, placeholders filled, the body encoded. Nothing is sent.
            """)

    @Argument(help: ArgumentHelp("The endpoint, as SERVICE/ENDPOINT.", valueName: "SERVICE/ENDPOINT"))
    var endpoint: String

    @OptionGroup var request: RequestOptionGroup

    @Flag(help: "Show secrets (tokens, passwords, API keys) in clear.")
    var reveal = false

    @OptionGroup var catalogOptions: CatalogOptions

    func run() async throws {
        let catalog = catalogOptions.load()
        let (selection, values) = try request.resolve(endpoint, in: catalog, checkingExample: false)
        let outcome = await EndpointCaller(catalog: catalog, transport: nil).call(selection, mode: .stub, example: nil, values: values)
        if let error = outcome.exchange.error, error.kind == .invalidRequest { throw ExitStatus.fail(CatalogLookupError(error.message)) }
        Console.out(outcome.exchange.request.curlCommand(redactor: reveal ? nil : outcome.redactor))
    }
}
