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
            parameters with their values as examples), groups tags, headers holding secrets security schemes, bodies \
            (body files inlined, never a local path) and fixtures request and response examples (network-error \
            examples cannot be said in OpenAPI). Endpoints sharing a method and path with an earlier one are kept under \
            x-apiexplorer-alternatives (a note names them). What OpenAPI has no place for is kept under extensions other \
            tools skip: each endpoint's request as written (x-apiexplorer-request: headers such as Accept and \
            Content-Type, templated values, response references), the environments with their headers and variables \
            (x-apiexplorer-environments), the service's variables, the groups' headers and body files' paths. Secret \
            values are never written. `apiexplorer import openapi` reads the document back to the same requests.
            """)

    @Argument(help: ArgumentHelp("The service.", valueName: "SERVICE"))
    var service: String

    @OptionGroup var output: ExportDocumentOptions

    func run() throws {
        var notes: [String] = []
        try output.emit { catalog throws(CatalogLookupError) in
            let exported = OpenAPIExporter.export(try EndpointSelection.resolveService(service, in: catalog))
            notes = exported.notes
            return exported.document.prettyText() + "\n"
        }
        notes.forEach { Console.error("note: \($0)") }
    }
}
