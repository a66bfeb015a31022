import ArgumentParser
import CatalogAuthoring
import FoundationEssentials

/// `apiexplorer import openapi FILE`: an OpenAPI document becomes a catalog file with fixtures.
struct ImportOpenAPICommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "openapi",
        abstract: "Turns an OpenAPI 3.0 / 3.1 / 3.2 or Swagger 2.0 document (JSON or YAML) into a catalog with fixtures.",
        discussion: """
            Writes SERVICE.yaml into the output folder with one endpoint per operation (parameters as {{placeholders}} \
            holding their examples or defaults), a `local` environment for `apiexplorer mock` plus one environment per \
            server, one group per security scheme (its secret as {{secret.NAME}}), and example responses (or samples \
            built from their schemas) as fixture files under fixtures/SERVICE/. The catalog is checked before anything is \
            written (an import that would not load writes nothing); existing files are replaced only with --force. \
            $refs are followed into other files of the document's folder (--root widens it), never elsewhere. \
            What `apiexplorer export openapi` kept under x-apiexplorer-… extensions (headers, variables, \
            environments, endpoint order) comes back as it was.
            """)

    @Argument(help: ArgumentHelp("The OpenAPI document.", valueName: "FILE"))
    var file: String

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        let result: CatalogImport
        do throws(AuthoringError) {
            let data = try ImportOutputOptions.read(file, limit: ImportOutputOptions.documentLimit)
            result = try OpenAPIImporter.catalog(
                from: data, documentName: URL(fileURLWithPath: file).lastPathComponent, service: output.service,
                files: try output.documentFiles(for: file))
        } catch {
            throw ExitStatus.fail(error)
        }
        try output.write(result, command: "import openapi \(file)")
    }
}
