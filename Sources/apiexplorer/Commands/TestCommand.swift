import ArgumentParser
import Catalog
import ContractCheck
import DispatcherCore
import FoundationEssentials
import LiveTransport
import Sessions
import SystemSupport
import TestReports
import TestRunner

/// `apiexplorer test [TARGET…]`: the catalogs' `expect:` and flows as tests, for CI.
struct TestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "test",
        abstract: "Runs the catalogs' expectations and flows as tests.",
        discussion: """
            TARGET is all (the default), SERVICE, SERVICE/ENDPOINT, SERVICE/ENDPOINT#EXAMPLE or SERVICE/flow:FLOW. All and \
            a service run every endpoint and example with `expect:` and every flow; an endpoint named runs even without \
            `expect:` (then it must succeed). Stub mode answers from the fixtures (offline); --live sends to each \
            environment's baseURL (the bundled local environments point at `apiexplorer mock`). A progress line goes to \
            standard error on a terminal; a table of results, then the details of each failure (expected and actual, \
            the catalog place, a short diff and the request as curl, secrets masked), go to standard output, or to \
            standard error when a report goes to standard output (--report FORMAT:-). An exchange that failed (no \
            response, a reset or a deadline mid-body, a body over the size cap) is an error whatever `expect:` says: \
            nothing is checked against part of a response. \
            Exit status: 0 every test that ran passed; 1 a test failed; 2 a usage or catalog error; 3 no test failed \
            but one could not run (a failed exchange, a request that could not be built); 4 no test ran.
            """)

    @Argument(help: ArgumentHelp("What to run (default: all).", valueName: "TARGET"))
    var targets: [String] = []

    @Option(name: .customLong("env"), help: ArgumentHelp("The environment (default: each service's first; with all, services without it are left out).", valueName: "NAME"))
    var environment: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("A run-time value for {{NAME}} (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Flag(help: "Answer from the fixtures (the default for environments whose fixtures are not `never`).")
    var stub = false

    @Flag(help: "Send the requests over the network.")
    var live = false

    @Option(help: ArgumentHelp("How many tests run at the same time: up to N requests in flight, to each host too (1 to 64).", valueName: "N"))
    var jobs = 1

    @Flag(help: "Stop at the first failure or error; the tests not started are skipped.")
    var failFast = false

    @Flag(
        help: """
            Also check every response against the schema an import kept for its endpoint (`schemas:`); a break fails the test with its \
            JSON Pointer. All and a service then run every endpoint, the schema being the check of those without `expect:`; \
            the summary counts the operations checked and those not checkable, each with its reason.
            """)
    var contract = false

    @Option(help: ArgumentHelp("Run only the tests whose id (SERVICE/NAME) contains TEXT.", valueName: "TEXT"))
    var grep: String?

    @Option(
        help: ArgumentHelp(
            "Also write a report: junit:FILE (JUnit XML), tap:FILE (TAP 13) or json:FILE (repeatable). FILE - is standard output, for one report only: the table then goes to standard error.",
            valueName: "FORMAT:FILE"))
    var report: [String] = []

    @OptionGroup var catalogOptions: CatalogOptions

    @OptionGroup var bodyLimit: BodyLimitOption

    func validate() throws {
        if stub && live { throw ValidationError("--stub and --live exclude each other.") }
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be between 1 and 64.") }
        _ = try reports()
    }

    /// `--report` as formats and files; one report at most on standard output (`-`).
    func reports() throws -> [(format: TestReportFormat, path: String)] {
        let reports = try report.map { item in
            let parts = item.split(separator: ":", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[1].isEmpty, let format = TestReportFormat(rawValue: parts[0]) else {
                throw ValidationError("--report takes FORMAT:FILE with FORMAT junit, tap or json, not '\(item)'.")
            }
            return (format, parts[1])
        }
        if reports.count(where: { $0.1 == "-" }) > 1 {
            throw ValidationError("--report: only one report can go to standard output (-); give the others a FILE.")
        }
        return reports
    }

    /// Whether a report goes to standard output: then it is alone there, and the table and the
    /// details go to standard error.
    var reportsToStandardOutput: Bool { report.contains { $0.hasSuffix(":-") } }

    /// Each report file can be written: checked before the first request, so a run is not lost to
    /// a folder that is missing or read-only (the file is written atomically beside itself, as here).
    static func checkWritable(_ paths: [String]) throws(ExitCode) {
        for path in paths where path != "-" {
            let url = URL(fileURLWithPath: path)
            if FileStatus.isDirectory(url.path) {
                Console.error("error: --report \(path) is a folder; give a file (nothing was sent)")
                throw ExitStatus.usage
            }
            do throws(SystemError) {
                AtomicFile.discard(try AtomicFile.writeTemporary(Data(), beside: url))
            } catch {
                Console.error("error: --report \(path) cannot be written: \(error) (nothing was sent)")
                throw ExitStatus.usage
            }
        }
    }

    func run() async throws {
        let reports = try reports()
        try Self.checkWritable(reports.map(\.path))
        var catalog = catalogOptions.load().limitingBodies(to: bodyLimit.maximumBodySize)
        let mode: RequestMode? = stub ? .stub : live ? .live : nil
        let values: [String: String]
        var cases: [TestCase]
        do throws(CatalogLookupError) {
            values = try RuntimeValues.parse(variables)
            cases = try TestSelection.cases(targets, environment: environment, grep: grep, everyEndpoint: contract, in: catalog)
        } catch {
            throw ExitStatus.fail(error)
        }
        // Tests that go live need the catalog's trust, asked once per service.
        var asked = Set<String>()
        for testCase in cases where !testCase.service.isTrusted && (mode ?? EndpointCaller.defaultMode(of: testCase.environment)) == .live {
            guard asked.insert(testCase.service.id).inserted, let service = catalog.services.first(where: { $0.id == testCase.service.id }) else { continue }
            catalog = try TrustGate.require(service, in: catalog, to: "send requests over the network").limitingBodies(to: bodyLimit.maximumBodySize)
        }
        if !asked.isEmpty {
            do throws(CatalogLookupError) {
                cases = try TestSelection.cases(targets, environment: environment, grep: grep, everyEndpoint: contract, in: catalog)
            } catch {
                throw ExitStatus.fail(error)
            }
        }
        // `--jobs N`: N requests in flight, to one host too (parallel flow steps share them).
        let results = try await withCallTransport(catalog, connectionsPerHost: HTTPTransport.Configuration.connections(forJobs: jobs)) { transport in
            var runner = TestRunner(
                caller: EndpointCaller(catalog: catalog, transport: transport), mode: mode, jobs: jobs, failFast: failFast, values: values)
            if contract { runner.contract = try Self.contractCheck(for: catalog) }
            let progress = TestProgress(total: cases.count, shown: Console.errorIsTerminal)
            let results = await runner.run(cases) { progress.finished($0) }
            progress.end()
            return results
        }
        // A report asked for on standard output is alone there: the table goes to standard error.
        let table: (String) -> Void = reportsToStandardOutput ? { Console.error($0, terminator: "") } : { Console.out($0, terminator: "") }
        table(TestReport.summaryTable(results))
        if let tally = ContractTally(results) { table(tally.line + "\n") }
        for result in results where result.status == .failed || result.status == .errored {
            table("\n" + TestReport.details(result))
        }
        for (format, path) in reports {
            try Console.write(format.render(results), to: path == "-" ? nil : path)
        }
        let status = TestTally(results).exitStatus
        if status != 0 { throw ExitCode(status) }
    }

    /// The schemas each service keeps, read once; a service whose file is broken stops the run.
    static func contractCheck(for catalog: CatalogSet) throws -> ContractChecking {
        var contracts: [String: ResponseContract] = [:]
        for service in catalog.services {
            do throws(ContractError) {
                if let contract = try ResponseContract(service: service) { contracts[service.id] = contract }
            } catch {
                Console.error("error: \(error.message)")
                throw ExitStatus.usage
            }
        }
        if contracts.isEmpty { Console.error("--contract: no service of these catalogs keeps response schemas (`schemas:`, written by `import openapi`)") }
        return ContractChecking(
            hasSchemas: { [contracts] service, endpoint in contracts[service.id]?.hasSchemas(endpoint: endpoint) ?? false },
            check: { [contracts] service, endpoint, response in
                guard let contract = contracts[service.id] else { return .noSchema("\(service.id) keeps no response schemas") }
                switch contract.check(endpoint: endpoint, response: response) {
                case .checked(_, let violations): return .checked(violations.map(\.description))
                case .noSchema(let reason): return .noSchema(reason)
                }
            })
    }
}
