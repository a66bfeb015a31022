import ArgumentParser
import Catalog
import CatalogAuthoring

/// `apiexplorer export openapi SERVICE`: a service as an OpenAPI 3.1 document.
struct ExportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Writes a service as an OpenAPI 3.1 document (JSON).",
        discussion: """
            Environments become servers (but `local`), endpoints operations (their id the operationId, placeholders \
            parameters with their values as examples), groups whose headers hold secrets security schemes, bodies and \
            fixtures request and response examples (network-error examples cannot be said in OpenAPI). Secret values are \
            never written. `apiexplorer import openapi` reads the document back to the same endpoints.
            """)

    @Argument(help: ArgumentHelp("The service.", valueName: "SERVICE"))
    var service: String

    @OptionGroup var output: ExportDocumentOptions

    func run() throws {
        try output.emit { catalog throws(CatalogLookupError) in
            OpenAPIExporter.document(try EndpointSelection.resolveService(service, in: catalog)).prettyText() + "\n"
        }
    }
}
