import ArgumentParser
import CatalogAuthoring
import FoundationEssentials

/// `apiexplorer import graphql FILE`: a GraphQL schema becomes a catalog.
struct ImportGraphQLCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graphql",
        abstract: "Turns a GraphQL schema (SDL, or an introspection result as JSON) into a catalog: one endpoint per query and mutation.",
        discussion: """
            Each endpoint is a graphql: body whose operation declares every argument as a variable and selects the \
            field's scalar members two levels deep. Required arguments become {{placeholders}} with sample values; \
            optional ones are sent as null until you fill them. The stub answers a sample of the selection, so every \
            endpoint runs in stub mode; errors GraphQL returns inside a 200 are mapped by the built-in rule. \
            Subscriptions are left out with a note. The catalog is checked before anything is written.
            """)

    @Argument(help: ArgumentHelp("The schema: SDL (.graphql) or the JSON result of the introspection query.", valueName: "FILE"))
    var file: String

    @Option(help: ArgumentHelp("The GraphQL endpoint requests go to.", valueName: "URL"))
    var url = "http://localhost:4000/graphql"

    @OptionGroup var output: ImportOutputOptions

    func run() throws {
        let result: CatalogImport
        do throws(AuthoringError) {
            guard let endpoint = URL(string: url) else { throw .usage("--url '\(url)' is not a URL") }
            if output.root != nil { throw .usage("a GraphQL schema names no other file; --root does not apply") }
            let data = try ImportOutputOptions.read(file, limit: ImportOutputOptions.documentLimit)
            result = try GraphQLImporter.catalog(
                schema: data, documentName: URL(fileURLWithPath: file).lastPathComponent, url: endpoint, service: output.service)
        } catch {
            throw ExitStatus.fail(error)
        }
        // The endpoint's URL is the person's own (--url, or the default on this machine).
        let typed = URL(string: url).flatMap { url in url.scheme.flatMap { scheme in url.host.map { "\(scheme)://\($0)\(url.port.map { ":\($0)" } ?? "")" } } }
        try output.write(result, command: "import graphql \(file)", ownHosts: typed.map { [$0] } ?? [])
    }
}
