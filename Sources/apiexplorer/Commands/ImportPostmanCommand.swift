import ArgumentParser
import CatalogAuthoring
import FoundationEssentials

/// `apiexplorer import postman FILE [--environment FILE]…`: a Postman collection becomes catalogs.
struct ImportPostmanCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "postman",
        abstract: "Turns a Postman collection (v2.0 / v2.1) and its environment files into catalogs.",
        discussion: """
            Folders become groups, requests endpoints, collection variables service variables, auth blocks headers \
            holding {{secret.NAME}}, saved example responses fixtures (the first 2xx the stub, the others named \
            examples), and each --environment file an environment (secret-typed values become {{secret.NAME}}: their \
            values are never written). Requests are grouped by the base of their URL, one service each. Pre-request and \
            test scripts are not run: they are listed in the notes and kept as comments. Form-data and file bodies are \
            copied beside the catalog from the collection's folder only (--root widens it); others are marked missing. \
            Auth a request cannot carry as headers (OAuth 1.0, AWS Signature, Hawk …) is left out (exit 3). The catalog \
            is checked before anything is written; existing files are replaced only with --force.
            """)

    @Argument(help: ArgumentHelp("The collection (JSON).", valueName: "FILE"))
    var file: String

    @Option(name: .customLong("environment"), help: ArgumentHelp("A Postman environment file (repeatable).", valueName: "FILE"))
    var environments: [String] = []

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        let result: CatalogImport
        do throws(AuthoringError) {
            let data = try ImportOutputOptions.read(file, limit: ImportOutputOptions.documentLimit)
            var files: [PostmanImporter.EnvironmentFile] = []
            for path in environments {
                files.append(PostmanImporter.EnvironmentFile(fileName: URL(fileURLWithPath: path).lastPathComponent, data: try ImportOutputOptions.read(path, limit: ImportOutputOptions.settingsLimit)))
            }
            result = try PostmanImporter.catalog(
                collection: data, documentName: URL(fileURLWithPath: file).lastPathComponent, environments: files, service: output.service,
                files: try output.documentFiles(for: file))
        } catch {
            throw ExitStatus.fail(error)
        }
        try output.write(result, command: "import postman \(file)")
    }
}
