import ArgumentParser
import Catalog
import FoundationEssentials
import JSONSupport
import SystemSupport
import TestRunner

/// `apiexplorer validate [DIR]`: prints every diagnostic as `path:line:column: error: message`,
/// then a summary; exits 1 when there is an error.
struct ValidateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "validate",
        abstract: "Checks catalog files and prints what is wrong and where.",
        discussion: """
            Prints one diagnostic per line (path:line:column: severity: message), then a summary. \
            Exits 1 when there is an error, 0 otherwise (warnings included).
            """)

    @Argument(help: ArgumentHelp("The catalog folder to check (same as --catalog).", valueName: "DIR"))
    var folder: String?

    @OptionGroup var catalogOptions: CatalogOptions

    @Flag(help: "Print the result as JSON.")
    var json = false

    func run() throws {
        let source = catalogOptions.source(folder: folder)
        var catalog = CatalogLoader.load(source, trust: CatalogOptions.trust(of: source, trustingEverything: catalogOptions.trust))
        // Placeholders in `expect:` are filled when a test runs; one nothing in the catalog fills is said here.
        catalog.diagnostics += ExpectationPlaceholders.warnings(in: catalog)
        if json {
            Console.out(ValidateCommand.report(catalog).prettyText())
        } else {
            Console.out("Checking \(source)")
            for diagnostic in catalog.diagnostics { Console.out(diagnostic.description) }
            Console.out(catalog.summary)
            let untrusted = catalog.untrustedServices.map(\.file)
            if !untrusted.isEmpty {
                Console.out("Not trusted (fixtures only until `apiexplorer trust \(source.displayPath)`): \(untrusted.joined(separator: ", "))")
            }
        }
        if catalog.hasErrors { throw ExitCode.failure }
    }

    /// The JSON form: source, services, diagnostics and counts.
    static func report(_ catalog: CatalogSet) -> JSONValue {
        let services: [JSONValue] = catalog.services.map { service in
            [
                "id": .string(service.id), "title": .string(service.title), "file": .string(service.file),
                "environments": .array(service.environments.map { .string($0.name) }),
                "endpoints": .integer(service.endpoints.count), "partial": .bool(service.isPartial), "trusted": .bool(service.isTrusted),
            ]
        }
        let diagnostics: [JSONValue] = catalog.diagnostics.map { diagnostic in
            [
                "file": .string(diagnostic.file), "line": .integer(diagnostic.line), "column": .integer(diagnostic.column),
                "severity": .string(diagnostic.severity.rawValue), "message": .string(diagnostic.message),
            ]
        }
        return [
            "source": ["origin": .string(catalog.source.origin.rawValue), "path": .string(catalog.source.displayPath)],
            "services": .array(services), "diagnostics": .array(diagnostics),
            "errors": .integer(catalog.diagnostics.errorCount), "warnings": .integer(catalog.diagnostics.warningCount),
        ]
    }
}
