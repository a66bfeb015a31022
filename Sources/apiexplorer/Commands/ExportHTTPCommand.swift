import ArgumentParser
import Catalog
import CatalogAuthoring
import FoundationEssentials
import SystemSupport

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

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "FILE"))
    var out: String?

    @OptionGroup var catalogOptions: CatalogOptions

    func run() throws {
        let catalog = catalogOptions.load()
        let text: String
        do throws(CatalogLookupError) {
            if target.contains("/") {
                let selection = try EndpointSelection.resolve(target, environment: environment, in: catalog)
                text = HTTPFileExporter.text(service: selection.service, environment: selection.environment, endpoints: [selection.endpoint])
            } else {
                let service = try EndpointSelection.resolveService(target, in: catalog)
                text = HTTPFileExporter.text(service: service, environment: try EndpointSelection.resolveEnvironment(environment, of: service))
            }
        } catch {
            throw ExitStatus.fail(error)
        }
        guard let out else {
            Console.out(text, terminator: "")
            return
        }
        do throws(SystemError) {
            try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: out))
        } catch {
            throw ExitStatus.fail(error)
        }
        Console.error("Wrote \(out)")
    }
}
