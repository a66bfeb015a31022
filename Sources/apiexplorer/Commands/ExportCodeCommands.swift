import ArgumentParser
import Catalog
import CatalogAuthoring
import DispatcherCore
import RequestExport
import Sessions

/// What `export curl|httpie|python|javascript` share: the endpoint, rendered exactly as `call`
/// would send it (environment, group and endpoint headers, placeholders filled, the body
/// encoded), printed as code; secrets masked unless `--reveal`. Nothing is sent.
struct ExportCodeArguments: ParsableArguments {
    @Argument(help: ArgumentHelp("The endpoint, as SERVICE/ENDPOINT.", valueName: "SERVICE/ENDPOINT"))
    var endpoint: String

    @OptionGroup var request: RequestOptionGroup

    @Flag(help: "Show secrets (tokens, passwords, API keys) in clear.")
    var reveal = false

    @OptionGroup var catalogOptions: CatalogOptions

    /// Prints the endpoint's request as `render` writes it.
    func print(_ render: (Request, Redactor?) -> String) async throws {
        try await print { request, redactor, _ in render(request, redactor) }
    }

    /// Prints the endpoint's request as `render` writes it, given the endpoint it was rendered for.
    func print(_ render: (Request, Redactor?, EndpointSelection) throws -> String) async throws {
        let catalog = catalogOptions.load()
        let (selection, values) = try request.resolve(endpoint, in: catalog, checkingExample: false)
        let outcome = await EndpointCaller(catalog: catalog, transport: nil).call(selection, mode: .stub, example: nil, values: values)
        if let error = outcome.exchange.error, error.kind == .invalidRequest { throw ExitStatus.fail(CatalogLookupError(error.message)) }
        Console.out(try render(outcome.exchange.request, reveal ? nil : outcome.redactor, selection), terminator: "")
    }
}

/// `apiexplorer export httpie SERVICE/ENDPOINT`.
struct ExportHTTPieCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "httpie", abstract: "Prints an endpoint's request as an HTTPie command (secrets masked unless --reveal).")

    @OptionGroup var arguments: ExportCodeArguments

    func run() async throws { try await arguments.print { RequestCode.httpie.render($0, redactor: $1) } }
}

/// `apiexplorer export python SERVICE/ENDPOINT`.
struct ExportPythonCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "python", abstract: "Prints an endpoint's request as a Python requests script (secrets masked unless --reveal).")

    @OptionGroup var arguments: ExportCodeArguments

    func run() async throws { try await arguments.print { RequestCode.python.render($0, redactor: $1) } }
}

/// `apiexplorer export javascript SERVICE/ENDPOINT`.
struct ExportJavaScriptCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "javascript", abstract: "Prints an endpoint's request as a JavaScript fetch module (secrets masked unless --reveal).")

    @OptionGroup var arguments: ExportCodeArguments

    func run() async throws { try await arguments.print { RequestCode.javascript.render($0, redactor: $1) } }
}
