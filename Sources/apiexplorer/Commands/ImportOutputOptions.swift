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

    /// Checks and writes the import (what the loader would refuse left out, each with a note),
    /// says what was written, prints the notes and keeps them in IMPORT-NOTES.md; exits 3
    /// (`ExitStatus.partial`) when some part of the document did not come in. `command` is how the
    /// notes file names the import (`import har capture.har`).
    func write(_ result: CatalogImport, command: String) throws {
        let folder = URL(fileURLWithPath: out)
        let written: CatalogImport
        do throws(AuthoringError) {
            written = try result.write(into: folder, force: force, command: "apiexplorer \(command)")
        } catch {
            throw ExitStatus.fail(error)
        }
        // apiexplorer wrote them: trusted. A trust that cannot be kept is said, not an error.
        do throws(SystemError) {
            try TrustFile().trust(written.catalogContentHashes, in: folder)
        } catch {
            Console.error("warning: the imported catalogs are not trusted (\(error)): `apiexplorer trust \(out)` trusts them")
        }
        for draft in written.drafts {
            Console.out(
                "Wrote \(URL(fileURLWithPath: out).appendingPathComponent("\(draft.service).yaml").path): service \(draft.service), \(draft.endpoints.count) endpoints, "
                    + "\(draft.environments.count) environments, \(draft.fixtures.count) fixtures")
        }
        for note in written.notes {
            let label = switch note.kind {
            case .skipped: "left out"
            case .repaired: "repaired"
            case .info: "note"
            }
            Console.error("\(label): \(note)")
        }
        if !written.notes.isEmpty { Console.error("The notes are kept in \(URL(fileURLWithPath: out).appendingPathComponent(CatalogImport.notesFileName).path).") }
        Console.out("Check it with `apiexplorer validate \(out)`; try it with `apiexplorer list --catalog \(out)`.")
        if written.isPartial {
            let count = written.notes.filter { $0.kind == .skipped }.count
            Console.error("Partial import: \(count) part\(count == 1 ? "" : "s") of the document did not come in (exit status \(ExitStatus.partial.rawValue)).")
            throw ExitStatus.partial
        }
    }
}
