import ArgumentParser
import CatalogAuthoring
import FoundationEssentials
import SystemSupport

/// `apiexplorer import http FILE`: a `.http` / `.rest` file becomes catalogs.
struct ImportHTTPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "http",
        abstract: "Turns a .http / .rest file (JetBrains HTTP Client, VS Code REST Client) into catalogs.",
        discussion: """
            Each request becomes an endpoint (its id from `# @name`, its title from the `###` line), `@name = value` \
            variables the service's variables, and each environment of http-client.env.json beside the file (and of \
            REST Client's rest-client.environmentVariables setting) an environment, its name kept; values of http-client.private.env.json and secret-like variables become {{secret.NAME}} and are \
            never written. `< path` bodies and multipart parts are copied beside the catalog (only files in FILE's folder: \
            others are marked missing, named in the notes). Response handlers are not run: they are listed \
            in the notes and kept as comments. The catalog is checked before anything is written.
            """)

    @Argument(help: ArgumentHelp("The .http or .rest file.", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("The environments file (default: http-client.env.json beside FILE).", valueName: "FILE"))
    var environments: String?

    @Option(help: ArgumentHelp("The private environments file, all secrets (default: http-client.private.env.json beside FILE).", valueName: "FILE"))
    var privateEnvironments: String?

    @Option(help: ArgumentHelp(
        "VS Code settings with rest-client.environmentVariables (default: .vscode/settings.json in FILE's folder; one above it is named, not read).",
        valueName: "FILE"))
    var settings: String?

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        let result: CatalogImport
        var notes: [ImportNote] = []
        do throws(AuthoringError) {
            let data = try ImportOutputOptions.read(file, limit: ImportOutputOptions.documentLimit)
            let folder = URL(fileURLWithPath: file).deletingLastPathComponent()
            // Only the document's folder: a file beside it may be a link that leads elsewhere.
            let files = try output.documentFiles(for: file)
            func optional(_ path: String?, default name: String) throws(AuthoringError) -> Data? {
                if let path { return try ImportOutputOptions.read(path, limit: ImportOutputOptions.settingsLimit) }
                switch files.read(name) {
                case .read(let data, _): return data
                case .refused(.missing): return nil
                case .refused(let reason):
                    notes.append(ImportNote(.info, "\(name) beside the document \(reason): not read (name a file with its option to read one)"))
                    return nil
                }
            }
            var settingsData = try settings.map { path throws(AuthoringError) in try ImportOutputOptions.read(path, limit: ImportOutputOptions.settingsLimit) }
            if settings == nil {
                settingsData = try optional(nil, default: ".vscode/settings.json")
                if settingsData == nil, let above = Self.vscodeSettings(above: folder) {
                    notes.append(ImportNote(.info, "\(above) was not read: it is outside the document's folder (--settings \(above) reads it)"))
                }
            }
            result = try HTTPFileImporter.catalog(
                text: try ImportedDocument.text(data, what: file), documentName: URL(fileURLWithPath: file).lastPathComponent,
                environments: try optional(environments, default: "http-client.env.json"),
                privateEnvironments: try optional(privateEnvironments, default: "http-client.private.env.json"),
                settings: settingsData, service: output.service, files: files)
        } catch {
            throw ExitStatus.fail(error)
        }
        var all = result
        all.notes = notes + result.notes
        try output.write(all, command: "import http \(file)")
    }

    /// The `.vscode/settings.json` of a workspace above `folder` (up to three folders up), as
    /// REST Client would read it: named in a note, never read without `--settings`.
    static func vscodeSettings(above folder: URL) -> String? {
        var current = folder.standardizedFileURL.deletingLastPathComponent()
        for _ in 0..<3 {
            let path = current.appendingPathComponent(".vscode/settings.json").path
            if FileStatus.exists(path) { return path }
            let parent = current.deletingLastPathComponent()
            if parent.path == current.path { return nil }
            current = parent
        }
        return nil
    }
}
