import ArgumentParser
import CatalogAuthoring
import FoundationEssentials
import StateStore

/// `apiexplorer import openapi FILE`: an OpenAPI document becomes a catalog file with fixtures.
struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Turns an OpenAPI 3.0 / 3.1 document (JSON or YAML) into a catalog with fixtures.",
        discussion: """
            Writes SERVICE.yaml into the output folder with one endpoint per operation (parameters as {{placeholders}} \
            holding their examples or defaults), a `local` environment for `apiexplorer mock` plus one environment per \
            server, one group per security scheme (its secret as {{secret.NAME}}), and example responses (or samples \
            built from their schemas) as fixture files under fixtures/SERVICE/. Existing files are replaced only with --force.
            """)

    @Argument(help: ArgumentHelp("The OpenAPI document.", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("The catalog folder to write into.", valueName: "DIR"))
    var out = "environments"

    @Option(help: ArgumentHelp("The service id (default: from the document's title).", valueName: "ID"))
    var service: String?

    @Flag(help: "Replace existing files.")
    var force = false

    func run() throws {
        do throws(AuthoringError) {
            guard let data = FileManager.default.contents(atPath: file) else { throw .usage("cannot read \(file)") }
            let draft = try OpenAPIImporter.draft(from: data, documentName: URL(fileURLWithPath: file).lastPathComponent, service: service)
            let written = try draft.write(into: URL(fileURLWithPath: out), force: force)
            Console.out(
                "Wrote \(written.path): service \(draft.service), \(draft.endpoints.count) endpoints, \(draft.environments.count) environments, "
                    + "\(draft.fixtures.count) fixtures")
            draft.notes.forEach { Console.error("note: \($0)") }
            Console.out("Check it with `apiexplorer validate \(out)`; try it with `apiexplorer list --catalog \(out)`.")
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
