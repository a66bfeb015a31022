import ArgumentParser
import CatalogAuthoring
import FoundationEssentials

/// `apiexplorer import insomnia FILE`: an Insomnia v4 export becomes catalogs.
struct ImportInsomniaCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "insomnia",
        abstract: "Turns an Insomnia v4 export (JSON or YAML) into catalogs.",
        discussion: """
            Each workspace becomes a service (one per URL base), request groups groups (their environment the values \
            of their requests' placeholders), the base environment the service's variables and each sub-environment an \
            environment; {{ _.name }} becomes {{name}}. Secrets (secret-like names, credentials of auth blocks) become \
            {{secret.NAME}}: their values are never written. The catalog is checked before anything is written; \
            existing files are replaced only with --force.
            """)

    @Argument(help: ArgumentHelp("The export (JSON or YAML).", valueName: "FILE"))
    var file: String

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        let result: CatalogImport
        do throws(AuthoringError) {
            let data = try ImportOutputOptions.read(file, limit: ImportOutputOptions.documentLimit)
            result = try InsomniaImporter.catalog(
                export: data, documentName: URL(fileURLWithPath: file).lastPathComponent, service: output.service,
                files: try output.documentFiles(for: file))
        } catch {
            throw ExitStatus.fail(error)
        }
        try output.write(result, command: "import insomnia \(file)")
    }
}
