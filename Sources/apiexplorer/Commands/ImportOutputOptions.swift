import ArgumentParser
import CatalogAuthoring
import FoundationEssentials
import StateStore
import SystemSupport

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
        let folder = URL(fileURLWithPath: out)
        let written = try result.write(into: folder, force: force)
        // apiexplorer wrote them: trusted. A trust that cannot be kept is said, not an error.
        do throws(SystemError) {
            try TrustFile().trust(result.catalogContentHashes, in: folder)
        } catch {
            Console.error("warning: the imported catalogs are not trusted (\(error)): `apiexplorer trust \(out)` trusts them")
        }
        for (draft, file) in zip(result.drafts, written) {
            Console.out(
                "Wrote \(file.path): service \(draft.service), \(draft.endpoints.count) endpoints, \(draft.environments.count) environments, "
                    + "\(draft.fixtures.count) fixtures")
        }
        result.notes.forEach { Console.error("note: \($0)") }
        Console.out("Check it with `apiexplorer validate \(out)`; try it with `apiexplorer list --catalog \(out)`.")
    }
}
