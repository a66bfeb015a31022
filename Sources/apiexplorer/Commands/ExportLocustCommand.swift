import ArgumentParser
import Catalog
import DispatcherCore
import LoadExport

/// `apiexplorer export locust SERVICE/FLOW`: a flow as a Locust locustfile.
struct ExportLocustCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "locust",
        abstract: "Writes a flow as a Locust locustfile that replays it with its captures and checks.",
        discussion: """
            FLOW is SERVICE/FLOW (or SERVICE/flow:FLOW, or FLOW alone when one service has it). Each step's request is \
            built as `call` builds it in the chosen environment; the file's user class sends the steps in order (parallel \
            steps one after another), fills captured values in later steps, polls `until:`, and reports a request whose \
            `expect:` does not hold as a Locust failure. {{secret.NAME}} stays a placeholder: the file reads it at start \
            from the variable the catalog declares for it or APIEXPLORER_SECRET_NAME, and stops saying which are unset. \
            The environment's origin is the user's host (--host overrides it). Run: \
            locust -f FILE --headless -u 10 -r 10 -t 30s; distributed with --master and --worker.
            """)

    @Argument(help: ArgumentHelp("The flow.", valueName: "SERVICE/FLOW"))
    var flow: String

    @Option(name: .customLong("env"), help: ArgumentHelp("The environment (default: the service's first).", valueName: "NAME"))
    var environment: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("A run-time value for {{NAME}} (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @OptionGroup var output: ExportDocumentOptions

    func run() async throws {
        let catalog = output.catalogOptions.load()
        let (service, chosen, found, values): (Service, Environment, Flow, [String: String])
        do throws(CatalogLookupError) {
            (service, found) = try Self.resolve(flow, in: catalog)
            chosen = try EndpointSelection.resolveEnvironment(environment, of: service)
            values = try RuntimeValues.parse(variables)
        } catch {
            throw ExitStatus.fail(error)
        }
        let command = "apiexplorer export locust \(service.id)/\(found.id) --env \(chosen.name)"
        let text: String
        do throws(LoadExportError) {
            text = try await LocustExport(catalog: catalog).render(found, of: service, in: chosen, values: values, command: command)
        } catch {
            throw ExitStatus.fail(CatalogLookupError(error.message))
        }
        try Console.write(text, to: output.out)
    }

    /// `SERVICE/FLOW`, `SERVICE/flow:FLOW`, or `FLOW` that one service has.
    static func resolve(_ reference: String, in catalog: CatalogSet) throws(CatalogLookupError) -> (Service, Flow) {
        let parts = reference.split(separator: "/", maxSplits: 1).map(String.init)
        if parts.count == 2 {
            let service = try EndpointSelection.resolveService(parts[0], in: catalog)
            let id = parts[1].hasPrefix("flow:") ? String(parts[1].dropFirst("flow:".count)) : parts[1]
            guard let flow = service.flow(id) else {
                throw CatalogLookupError("service '\(service.id)' has no flow '\(id)'\(DidYouMean.hint(for: id, among: service.flows.map(\.id)))")
            }
            return (service, flow)
        }
        let id = reference.hasPrefix("flow:") ? String(reference.dropFirst("flow:".count)) : reference
        let owners = catalog.services.compactMap { service in service.flow(id).map { (service, $0) } }
        guard owners.count == 1, let owner = owners.first else {
            let all = catalog.services.flatMap { service in service.flows.map { "\(service.id)/\($0.id)" } }
            if owners.isEmpty { throw CatalogLookupError("no service has a flow '\(id)'\(DidYouMean.hint(for: id, among: all))") }
            throw CatalogLookupError("several services have a flow '\(id)': name one as \(owners.map { "\($0.0.id)/\(id)" }.joined(separator: " or "))")
        }
        return owner
    }
}
