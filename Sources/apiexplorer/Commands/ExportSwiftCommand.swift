import ArgumentParser
import Catalog
import CatalogAuthoring

/// `apiexplorer export swift SERVICE`: a typed client for the DispatcherCore library.
struct ExportSwiftCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "swift",
        abstract: "Writes a service as Swift for DispatcherCore: a TargetType enum and its Environment values.",
        discussion: """
            One case per endpoint, each placeholder an associated value with the catalog's value as its default; path \
            placeholders go through pathParameters, the others are filled in the query, headers and body; one static \
            Environment per environment. Secrets ({{secret.NAME}}) are read from the process environment when a request \
            is made: their values are never written.
            """)

    @Argument(help: ArgumentHelp("The service.", valueName: "SERVICE"))
    var service: String

    @OptionGroup var output: ExportDocumentOptions

    func run() throws {
        try output.emit { catalog throws(CatalogLookupError) in
            SwiftExporter.source(try EndpointSelection.resolveService(service, in: catalog))
        }
    }
}
