import ArgumentParser
import GRPCReflection
import JSONSupport
import StateStore

/// `apiexplorer list [--json]`: services, environments and endpoints; `list --grpc [SERVICE]`:
/// gRPC services, or a service's methods, as grpcurl's `list` prints them.
struct ListCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Lists services, their environments and endpoints; with --grpc, gRPC services or a service's methods as grpcurl does.",
        discussion: """
            The JSON form is documented in docs/cli.md. `list --grpc` prints the full names of the gRPC services in the \
            catalogs' descriptor sets (or a protoset's, or a server's by reflection), one a line, sorted; `list SERVICE` \
            its methods (SERVICE.METHOD). `apiexplorer describe` shows their definitions.
            """)

    @Argument(help: ArgumentHelp("A gRPC service whose methods to list (implies --grpc).", valueName: "SERVICE"))
    var service: String?

    @Flag(help: "List gRPC services (implied by SERVICE, --reflect or --protoset).")
    var grpc = false

    @OptionGroup var descriptors: DescriptorSourceOptions

    @OptionGroup var catalogOptions: CatalogOptions

    @Flag(help: "Print the list as JSON.")
    var json = false

    func run() async throws {
        if grpc || service != nil || descriptors.isGiven || descriptors.plaintext {
            let index = try await descriptors.index { catalogOptions.load() }
            let names: [String]
            do {
                names = try GRPCDescriptorText.list(index, service: service)
            } catch {
                Console.error("error: \(error)")
                throw ExitCode(1)
            }
            Console.out(json ? JSONValue.array(names.map(JSONValue.string)).prettyText() : names.joined(separator: "\n"))
            return
        }
        let catalog = catalogOptions.load()
        Console.out(json ? CatalogListing.json(catalog).prettyText() : CatalogListing.text(catalog))
        if catalog.services.isEmpty { throw ExitStatus.usage }
    }
}
