import ArgumentParser
import Catalog
import CatalogAuthoring
import FoundationEssentials
import LiveTransport
import StateStore
import SystemSupport

/// Exit statuses shared by the commands: 0 success, 1 a mapped error (or drift), 2 a usage or catalog error.
enum ExitStatus {
    /// A usage or catalog error.
    static let usage = ExitCode(2)
    /// An import that wrote what it could while some part of the document did not come in.
    static let partial = ExitCode(3)

    /// Prints `error: message` and returns the exit code for an import, record or edit that failed.
    static func fail(_ error: AuthoringError) -> ExitCode {
        Console.error("error: \(error.message)")
        switch error {
        case .usage, .invalidInput, .wouldOverwrite: return usage
        case .file: return .failure
        }
    }

    /// Prints `error: message` and returns 2 for a name the catalog does not have.
    static func fail(_ error: CatalogLookupError) -> ExitCode {
        Console.error("error: \(error.message)")
        return usage
    }

    /// Prints `error: message` and returns 1 for a file that could not be read or written.
    static func fail(_ error: SystemError) -> ExitCode {
        Console.error("error: \(error)")
        return .failure
    }
}

extension CatalogOptions {
    /// Loads the catalogs; says on standard error when some file has errors (the rest still loads).
    func load() -> CatalogSet { Self.load(source(), trustingEverything: trust) }

    /// Loads the catalogs of `source`, as `load()`: trusted as the state folder remembers, or all
    /// of them with `--trust`.
    static func load(_ source: CatalogSource, trustingEverything: Bool = false) -> CatalogSet {
        let catalog = CatalogLoader.load(source, trust: trust(of: source, trustingEverything: trustingEverything))
        let errors = catalog.diagnostics.filter(\.isError).count
        if errors > 0 {
            Console.error("warning: \(errors) catalog error\(errors == 1 ? "" : "s") in \(catalog.source); `apiexplorer validate` shows them")
        }
        // State kept by service id alone (an older version's) goes to the catalogs that made it, once.
        for outcome in StateMigration.migrate(into: catalog) { Console.error("note: \(outcome.note)") }
        return catalog
    }
}

/// `--env`, `--var` and `--example`, shared by the commands that send or render an endpoint.
struct RequestOptionGroup: ParsableArguments {
    @Option(name: .customLong("env"), help: ArgumentHelp("The environment (default: the service's first).", valueName: "NAME"))
    var environment: String?

    @Option(name: .customLong("var"), help: ArgumentHelp("A run-time value for {{NAME}} (repeatable).", valueName: "NAME=VALUE"))
    var variables: [String] = []

    @Option(help: ArgumentHelp("The named example (fixture) to answer with or ask the mock server for.", valueName: "NAME"))
    var example: String?

    /// `resolveRequest` with these options.
    func resolve(_ reference: String, in catalog: CatalogSet, checkingExample: Bool) throws(ExitCode) -> (EndpointSelection, [String: String]) {
        try resolveRequest(reference, environment: environment, variables: variables, example: example, in: catalog, checkingExample: checkingExample)
    }
}

/// `SERVICE/ENDPOINT` in `environment`, and the `--var` values; `example` must exist when
/// `checkingExample`. A usage error is printed and becomes exit status 2.
func resolveRequest(
    _ reference: String, environment: String?, variables: [String], example: String?, in catalog: CatalogSet, checkingExample: Bool
) throws(ExitCode) -> (EndpointSelection, [String: String]) {
    do throws(CatalogLookupError) {
        let selection = try EndpointSelection.resolve(reference, environment: environment, in: catalog)
        if checkingExample, let example { _ = try selection.example(example) }
        return (selection, try RuntimeValues.parse(variables))
    } catch {
        throw ExitStatus.fail(error)
    }
}

/// Runs `body` with a live transport (`connectionsPerHost` connections to one host at most),
/// shutting it down afterwards. The command is about to exit then: a connection attempt that no
/// request needs any more is not waited for beyond a moment (issue 49: a server dropping SYNs held
/// the exit ~0.8 s).
func withLiveTransport<T>(
    connectionsPerHost: Int = HTTPTransport.Configuration.defaultConnectionsPerHost, _ body: (HTTPTransport) async throws -> T
) async throws -> T {
    let transport = HTTPTransport(configuration: HTTPTransport.Configuration(maximumConnectionsPerHost: connectionsPerHost))
    // A proxy variable that cannot be used (or that curl ignores, HTTP_PROXY) is said, not skipped silently.
    for issue in transport.configuration.proxy.issues { Console.error("warning: \(issue)") }
    do {
        let result = try await body(transport)
        await transport.shutdown(waitingAtMost: .milliseconds(250))
        return result
    } catch {
        await transport.shutdown(waitingAtMost: .milliseconds(250))
        throw error
    }
}

extension Console {
    /// Prints `text`, or writes it atomically to `path` when one is given (saying so on standard error).
    static func write(_ text: String, to path: String?) throws(ExitCode) {
        guard let path else {
            out(text, terminator: "")
            return
        }
        do throws(SystemError) {
            try AtomicFile.write(Data(text.utf8), to: URL(fileURLWithPath: path))
        } catch {
            throw ExitStatus.fail(error)
        }
        Console.error("Wrote \(path)")
    }
}

/// `--out FILE` and the catalog options of the exports that write documents (`http`, `openapi`).
struct ExportDocumentOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "FILE"))
    var out: String?

    @OptionGroup var catalogOptions: CatalogOptions

    /// Loads the catalogs, makes the document and prints or writes it; a name the catalogs do not have is a usage error.
    func emit(_ document: (CatalogSet) throws(CatalogLookupError) -> String) throws {
        let catalog = catalogOptions.load()
        let text: String
        do throws(CatalogLookupError) {
            text = try document(catalog)
        } catch {
            throw ExitStatus.fail(error)
        }
        try Console.write(text, to: out)
    }
}
