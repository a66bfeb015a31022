import ArgumentParser
import CatalogAuthoring
import FoundationEssentials

/// `apiexplorer import http FILE`: a `.http` / `.rest` file becomes catalogs.
struct ImportHTTPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Turns a .http / .rest file (JetBrains HTTP Client, VS Code REST Client) into catalogs.",
        discussion: """
            Each request becomes an endpoint (its id from `# @name`, its title from the `###` line), `@name = value` \
            variables the service's variables, and each environment of http-client.env.json beside the file an \
            environment; values of http-client.private.env.json and secret-like variables become {{secret.NAME}} and are \
            never written. `< path` bodies are copied beside the catalog. Response handlers are not run: they are listed \
            in the notes and kept as comments. The catalog is checked before anything is written.
            """)

    @Argument(help: ArgumentHelp("The .http or .rest file.", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("The environments file (default: http-client.env.json beside FILE).", valueName: "FILE"))
    var environments: String?

    @Option(help: ArgumentHelp("The private environments file, all secrets (default: http-client.private.env.json beside FILE).", valueName: "FILE"))
    var privateEnvironments: String?

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        do throws(AuthoringError) {
            let data = try ImportOutputOptions.read(file)
            guard let text = String(validating: data, as: UTF8.self) else { throw .invalidInput("\(file) is not UTF-8 text") }
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            func optional(_ path: String?, default name: String) throws(AuthoringError) -> Data? {
                if let path { return try ImportOutputOptions.read(path) }
                return FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            }
            let result = try HTTPFileImporter.catalog(
                text: text, documentName: URL(fileURLWithPath: file).lastPathComponent,
                environments: try optional(environments, default: "http-client.env.json"),
                privateEnvironments: try optional(privateEnvironments, default: "http-client.private.env.json"),
                service: output.service,
                readFile: { FileManager.default.contents(atPath: $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).path) })
            try output.write(result)
        } catch {
            throw ExitStatus.fail(error)
        }
    }
}
