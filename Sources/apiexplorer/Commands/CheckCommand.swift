import ArgumentParser
import Catalog
import DispatcherCore
import DriftCheck
import FoundationEssentials
import Sessions
import StateStore
import SystemSupport

/// `apiexplorer check SERVICE`: drift between the stubs and the live API, for CI.
struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compares every endpoint's live response with its stub (drift check).",
        discussion: """
            Each endpoint is sent live and compared with its stub: status, content type, and the JSON shape (members \
            present or missing, value types, nullability, array element shapes). Values are not compared. Endpoints \
            that change data (POST, PUT, PATCH, DELETE) are skipped unless --include-unsafe. The last result of each \
            endpoint is kept in the state directory for the explorer's drift badge. Exit status: 0 no drift, 1 drift \
            or an endpoint that could not be checked, 2 a usage or catalog error.
            """)

    @Argument(help: ArgumentHelp("The service to check.", valueName: "SERVICE"))
    var service: String

    @Option(name: .customLong("env"), help: ArgumentHelp("The environment (default: the service's first).", valueName: "NAME"))
    var environment: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("A run-time value for {{NAME}} (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Flag(help: "Also send endpoints whose method may change data.")
    var includeUnsafe = false

    @Flag(help: "Print the report as JSON.")
    var json = false

    @OptionGroup var catalogOptions: CatalogOptions

    @OptionGroup var bodyLimit: BodyLimitOption

    func run() async throws {
        var catalog = catalogOptions.load().limitingBodies(to: bodyLimit.maximumBodySize)
        var target: Service
        var chosen: Environment
        let values: [String: String]
        do throws(CatalogLookupError) {
            target = try EndpointSelection.resolveService(service, in: catalog)
            chosen = try EndpointSelection.resolveEnvironment(environment, of: target)
            values = try RuntimeValues.parse(variables)
        } catch {
            throw ExitStatus.fail(error)
        }
        // A check goes live: an untrusted catalog is asked about first.
        if !target.isTrusted {
            catalog = try TrustGate.require(target, in: catalog, to: "send requests over the network").limitingBodies(to: bodyLimit.maximumBodySize)
            do throws(CatalogLookupError) {
                target = try EndpointSelection.resolveService(service, in: catalog)
                chosen = try EndpointSelection.resolveEnvironment(environment, of: target)
            } catch {
                throw ExitStatus.fail(error)
            }
        }
        let report = try await withCallTransport(catalog) { transport in
            await DriftChecker.check(
                service: target, environment: chosen, caller: EndpointCaller(catalog: catalog, transport: transport),
                includeUnsafe: includeUnsafe, values: values, date: Date())
        }
        do throws(SystemError) {
            try DriftStore().save(report, of: target.catalogID)
        } catch {
            Console.error("warning: the result was not kept for the explorer: \(error)")
        }
        if json {
            Console.out(report.jsonText)
        } else {
            Console.out(report.text)
        }
        if report.hasProblems { throw ExitCode.failure }
    }
}
