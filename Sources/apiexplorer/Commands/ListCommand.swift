import ArgumentParser
import StateStore

/// `apiexplorer list [--json]`: services, environments and endpoints.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Lists services, their environments and endpoints.",
        discussion: "The JSON form is documented in docs/cli.md.")

    @OptionGroup var catalogOptions: CatalogOptions

    @Flag(help: "Print the list as JSON.")
    var json = false

    func run() throws {
        let catalog = catalogOptions.load()
        Console.out(json ? CatalogListing.json(catalog).prettyText() : CatalogListing.text(catalog))
        if catalog.services.isEmpty { throw ExitStatus.usage }
    }
}
