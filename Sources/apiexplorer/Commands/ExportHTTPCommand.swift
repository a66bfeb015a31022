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
            each endpoint a ### block with its # @name, headers (environment, group, endpoint) and body; files it sends are \
            written as `< ./path` relative to the file's folder (multipart parts too). Placeholders \
            stay placeholders; {{secret.NAME}} is written {{NAME}}, and with --out an http-client.private.env.json \
            beside the file names each secret under the environment, empty (values are never written).
            """)

    @Argument(help: ArgumentHelp("A service, or one endpoint as SERVICE/ENDPOINT.", valueName: "SERVICE[/ENDPOINT]"))
    var target: String

    @Option(name: .customLong("env"), help: ArgumentHelp("The environment (default: the service's first).", valueName: "NAME"))
    var environment: String?

    @OptionGroup var output: ExportDocumentOptions

    func run() throws {
        var secrets: [String] = []
        var environmentName = ""
        var notes: [String] = []
        // Files are named relative to where the .http file goes (the current folder for standard output).
        let folder = URL(fileURLWithPath: output.out ?? "x").deletingLastPathComponent().standardizedFileURL.path
        try output.emit { catalog throws(CatalogLookupError) in
            guard target.contains("/") else {
                let service = try EndpointSelection.resolveService(target, in: catalog)
                let chosen = try EndpointSelection.resolveEnvironment(environment, of: service)
                secrets = HTTPFileExporter.secrets(service: service, environment: chosen)
                environmentName = chosen.name
                let exported = HTTPFileExporter.export(service: service, environment: chosen, folder: folder)
                notes = exported.notes
                return exported.text
            }
            let selection = try EndpointSelection.resolve(target, environment: environment, in: catalog)
            secrets = HTTPFileExporter.secrets(service: selection.service, environment: selection.environment, endpoints: [selection.endpoint])
            environmentName = selection.environment.name
            let exported = HTTPFileExporter.export(service: selection.service, environment: selection.environment, endpoints: [selection.endpoint], folder: folder)
            notes = exported.notes
            return exported.text
        }
        notes.forEach { Console.error("note: \($0)") }
        guard !secrets.isEmpty else { return }
        guard let out = output.out else {
            Console.error("note: the file uses the secrets \(secrets.joined(separator: ", ")) as {{NAME}}: give them in http-client.private.env.json beside it (--out writes one)")
            return
        }
        // Beside the file, as the HTTP clients look for it; what the user filled in already is kept.
        let file = URL(fileURLWithPath: out).deletingLastPathComponent().appendingPathComponent(HTTPFileExporter.privateEnvironmentFile)
        let text = HTTPFileExporter.privateEnvironment(secrets: secrets, environment: environmentName, existing: FileContents.read(atPath: file.path, atMost: 1 << 20))
        do throws(SystemError) {
            try AtomicFile.write(Data(text.utf8), to: file, permissions: 0o600)
        } catch {
            throw ExitStatus.fail(error)
        }
        Console.error("Wrote \(file.path): \(secrets.joined(separator: ", ")) for environment \(environmentName), empty: fill them in (keep the file out of git)")
    }
}
