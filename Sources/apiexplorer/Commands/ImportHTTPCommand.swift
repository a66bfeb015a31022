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
            variables the service's variables, and each environment of http-client.env.json beside the file (and of \
            REST Client's rest-client.environmentVariables setting) an environment, its name kept; values of http-client.private.env.json and secret-like variables become {{secret.NAME}} and are \
            never written. `< path` bodies are copied beside the catalog. Response handlers are not run: they are listed \
            in the notes and kept as comments. The catalog is checked before anything is written.
            """)

    @Argument(help: ArgumentHelp("The .http or .rest file.", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("The environments file (default: http-client.env.json beside FILE).", valueName: "FILE"))
    var environments: String?

    @Option(help: ArgumentHelp("The private environments file, all secrets (default: http-client.private.env.json beside FILE).", valueName: "FILE"))
    var privateEnvironments: String?

    @Option(help: ArgumentHelp(
        "VS Code settings with rest-client.environmentVariables (default: .vscode/settings.json in FILE's folder or up to three folders above it).",
        valueName: "FILE"))
    var settings: String?

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        let result: CatalogImport
        do throws(AuthoringError) {
            let data = try ImportOutputOptions.read(file)
            guard let text = String(validating: data, as: UTF8.self) else { throw .invalidInput("\(file) is not UTF-8 text") }
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            func optional(_ path: String?, default name: String) throws(AuthoringError) -> Data? {
                if let path { return try ImportOutputOptions.read(path) }
                return FileManager.default.contents(atPath: folder.appendingPathComponent(name).path)
            }
            result = try HTTPFileImporter.catalog(
                text: text, documentName: URL(fileURLWithPath: file).lastPathComponent,
                environments: try optional(environments, default: "http-client.env.json"),
                privateEnvironments: try optional(privateEnvironments, default: "http-client.private.env.json"),
                settings: try settings.map { path throws(AuthoringError) in try ImportOutputOptions.read(path) } ?? Self.vscodeSettings(above: folder),
                service: output.service,
                readFile: { FileManager.default.contents(atPath: $0.hasPrefix("/") ? $0 : folder.appendingPathComponent($0).path) })
        } catch {
            throw ExitStatus.fail(error)
        }
        try output.write(result, command: "import http \(file)")
    }

    /// `.vscode/settings.json` in `folder` or the folders above it (a workspace's), as REST Client reads it.
    static func vscodeSettings(above folder: URL) -> Data? {
        var current = folder.standardizedFileURL
        for _ in 0..<4 {
            if let data = FileManager.default.contents(atPath: current.appendingPathComponent(".vscode/settings.json").path) { return data }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
        return nil
    }
}
