import ArgumentParser
import CatalogAuthoring
import FoundationEssentials

/// `--out DIR`, `--service ID` and `--force`, shared by the importers that write catalogs, and
/// how they report what they wrote.
struct ImportOutputOptions: ParsableArguments {
    @Option(name: [.customLong("out"), .customLong("output")], help: ArgumentHelp("The catalog folder to write into.", valueName: "DIR"))
    var out = "environments"

    @Option(help: ArgumentHelp("The service id (default: from the document).", valueName: "ID"))
    var service: String?

    @Flag(help: "Replace existing files.")
    var force = false

    /// A file's bytes, or a usage error naming it.
    static func read(_ path: String) throws(AuthoringError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else { throw .usage("cannot read \(path)") }
        return data
    }

    /// Checks and writes the import, then says what was written and prints the notes.
    func write(_ result: CatalogImport) throws(AuthoringError) {
        let written = try result.write(into: URL(fileURLWithPath: out), force: force)
        for (draft, file) in zip(result.drafts, written) {
            Console.out(
                "Wrote \(file.path): service \(draft.service), \(draft.endpoints.count) endpoints, \(draft.environments.count) environments, "
                    + "\(draft.fixtures.count) fixtures")
        }
        result.notes.forEach { Console.error("note: \($0)") }
        Console.out("Check it with `apiexplorer validate \(out)`; try it with `apiexplorer list --catalog \(out)`.")
    }
}
