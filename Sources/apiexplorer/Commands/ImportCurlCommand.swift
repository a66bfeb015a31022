import ArgumentParser
import Catalog
import CatalogAuthoring
import FoundationEssentials
import StateStore
import SystemSupport

/// `apiexplorer import curl '<command>'`: a curl command line becomes an endpoint.
struct ImportCurlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "curl",
        abstract: "Turns a curl command line into a catalog endpoint.",
        discussion: """
            Without --into or --out, prints a complete catalog file for the command. --into SERVICE adds the endpoint to \
            that service's catalog file (the URL must lie under one of its environments' base URLs); the rest of the file \
            is kept byte for byte. Secrets in the command (Authorization, cookies, API keys, token-like query items) become \
            {{secret.NAME}} placeholders: the command's values are never written. Pass - to read the command from standard input.
            """)

    @Argument(help: ArgumentHelp("The curl command line, quoted as one argument (or - for standard input).", valueName: "COMMAND"))
    var command: String

    @Option(help: ArgumentHelp("The service id (default: from the URL's host).", valueName: "ID"))
    var service: String?

    @Option(help: ArgumentHelp("The endpoint id (default: from the method and path).", valueName: "ID"))
    var name: String?

    @Option(help: ArgumentHelp("Add the endpoint to this service's catalog file.", valueName: "SERVICE"))
    var into: String?

    @Option(help: ArgumentHelp("Write the new catalog file here instead of printing it.", valueName: "FILE"))
    var out: String?

    @Flag(help: "Replace an existing --out file.")
    var force = false

    @OptionGroup var catalogOptions: CatalogOptions

    func validate() throws {
        if into != nil && out != nil { throw ValidationError("--into and --out exclude each other.") }
    }

    func run() throws {
        do throws(AuthoringError) {
            let text = command == "-" ? String(decoding: StandardStreams.readInput(), as: UTF8.self) : command
            let request = try CurlCommandParser.parse(text)
            if let into {
                try add(request, into: into)
                return
            }
            let draft = try CurlImporter.catalog(for: request, service: service, id: name)
            if let out {
                let url = URL(fileURLWithPath: out)
                try draft.write(into: url.deletingLastPathComponent(), fileName: url.lastPathComponent, force: force)
                // The person typed the command: the catalog is theirs, trusted as written.
                do throws(SystemError) {
                    try TrustFile().trust([CatalogTrust.contentHash(of: Data(draft.yaml.utf8))], in: url.deletingLastPathComponent())
                } catch {
                    Console.error("warning: \(out) is not trusted (\(error)): `apiexplorer trust \(url.deletingLastPathComponent().path)` trusts it")
                }
                Console.error("Wrote \(out)")
            } else {
                Console.out(draft.yaml, terminator: "")
            }
            draft.notes.forEach { Console.error("note: \($0)") }
        } catch {
            throw ExitStatus.fail(error)
        }
    }

    private func add(_ request: CurlRequest, into serviceID: String) throws(AuthoringError) {
        let catalog = catalogOptions.load()
        let target: Service
        do throws(CatalogLookupError) {
            target = try EndpointSelection.resolveService(serviceID, in: catalog)
        } catch {
            throw AuthoringError(error)
        }
        guard let environment = target.environments.first(where: { request.url.absoluteString.hasPrefix($0.baseURL.absoluteString) }) else {
            let bases = target.environments.map(\.baseURL.absoluteString).joined(separator: ", ")
            throw .usage("\(request.url.absoluteString) is not under a base URL of \(target.id) (\(bases))")
        }
        let (endpoint, secrets) = try CurlImporter.endpoint(for: request, service: target.id, id: name, baseURL: environment.baseURL)
        let update = try CatalogUpdate.adding(endpoint, to: target)
        try update.commit(keepingTrustOf: target, in: TrustFile())
        Console.out("Added \(target.id)/\(endpoint.id) to \(target.file) (environment \(environment.name) matches the URL).")
        secrets.forEach {
            Console.error("note: set $APIEXPLORER_SECRET_\($0.name) in the environment or \($0.name) in .env beside the catalog (the command's value is not written)")
        }
    }
}
