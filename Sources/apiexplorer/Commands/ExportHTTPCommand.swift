import ArgumentParser
import Catalog
import CatalogAuthoring

/// `apiexplorer export http SERVICE[/ENDPOINT]`: endpoints as a `.http` file.
struct ExportHTTPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Writes a service's endpoints (or one) as a .http file (JetBrains HTTP Client, VS Code REST Client).",
        discussion: """
            The environment's base URL becomes @baseUrl, the service's and environment's variables @name = value lines, \
            each endpoint a ### block with its # @name, headers (environment, group, endpoint) and body. Placeholders \
            stay placeholders: {{secret.NAME}} values are never written.
            """)

    @Argument(help: ArgumentHelp("A service, or one endpoint as SERVICE/ENDPOINT.", valueName: "SERVICE[/ENDPOINT]"))
    var target: String

    @Option(name: .customLong("env"), help: ArgumentHelp("The environment (default: the service's first).", valueName: "NAME"))
    var environment: String?

    @OptionGroup var output: ExportDocumentOptions

    func run() throws {
        try output.emit { catalog throws(CatalogLookupError) in
            guard target.contains("/") else {
                let service = try EndpointSelection.resolveService(target, in: catalog)
                return HTTPFileExporter.text(service: service, environment: try EndpointSelection.resolveEnvironment(environment, of: service))
            }
            let selection = try EndpointSelection.resolve(target, environment: environment, in: catalog)
            return HTTPFileExporter.text(service: selection.service, environment: selection.environment, endpoints: [selection.endpoint])
        }
    }
}
