import ArgumentParser
import Catalog
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

    @Option(help: ArgumentHelp(
        "The folder files the document names (bodies, multipart parts, $refs) may come from (default: the document's own folder).",
        valueName: "DIR"))
    var root: String?

    @Flag(help: ArgumentHelp(
        "Trust the catalogs written although they name hosts, secrets or files: you vouch for the document.",
        discussion: "Without it, a catalog that reaches outside itself is written untrusted, and what it declares is printed."))
    var trust = false

    /// The files the document at `path` may name: those in its folder, or in `--root` (which must hold it).
    func documentFiles(for path: String) throws(AuthoringError) -> DocumentFiles {
        let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
        guard let root else { return DocumentFiles(folder: folder) }
        guard let files = DocumentFiles(root: root, documentFolder: folder) else { throw .usage("--root \(root) is not a folder that holds \(path)") }
        return files
    }

    /// Whether a catalog that declares this reaches nothing outside itself but `hosts`: once the
    /// redirects those hosts answer with (followed without credentials, where the person's own
    /// servers say) and state of its own (never another catalog's) are set aside, every line of
    /// what trusting it allows is one of those hosts. Read from the lines the trust question shows,
    /// so a capability the declaration learns to list later counts too (and makes it untrusted).
    static func reachesNothing(_ declaration: TrustDeclaration, beyond hosts: [String]) -> Bool {
        var rest = declaration
        rest.reach.followsRedirects = []
        rest.reach.state = []
        let own = Set(hosts.map { "  sends requests to \($0)" } + ["  nothing outside its folder"])
        return rest.lines.dropFirst().allSatisfy(own.contains)
    }

    /// A file's bytes, or a usage error naming it: only a regular file (a FIFO or a device named
    /// as the document is refused, not waited on), refused before reading when it holds more than
    /// `limit` bytes.
    static func read(_ path: String, limit: Int) throws(AuthoringError) -> Data {
        do throws(FileReadError) {
            return try FileContents.contents(atPath: path, limit: limit)
        } catch {
            throw .usage(error.isMissing ? "cannot read \(path): it does not exist" : error.description)
        }
    }

    /// The largest document (OpenAPI, Postman, Insomnia, `.http`, GraphQL) an import reads: room
    /// for the largest published single-file documents, a bound on what parsing one may cost.
    static let documentLimit = 64 << 20
    /// The largest HAR capture an import reads: captures carry the bodies they recorded.
    static let captureLimit = 256 << 20
    /// The largest environment or settings file an import reads (Postman environments,
    /// `http-client.env.json`, VS Code settings).
    static let settingsLimit = 4 << 20

    /// The origin of the mock server an import's `local` environment names: the person's own.
    static let mockOrigin = "http://127.0.0.1:4010"

    /// Checks and writes the import (what the loader would refuse left out, each with a note),
    /// says what was written, prints the notes and keeps them in IMPORT-NOTES.md; exits 3
    /// (`ExitStatus.partial`) when some part of the document did not come in. `command` is how the
    /// notes file names the import (`import har capture.har`). The catalogs are trusted when they
    /// reach nothing outside themselves but `ownHosts` (the mock, a URL the person typed), or with
    /// `--trust`; otherwise what they declare is printed with how to trust them.
    func write(_ result: CatalogImport, command: String, ownHosts: [String] = []) throws {
        let folder = URL(fileURLWithPath: out)
        let written: CatalogImport
        do throws(AuthoringError) {
            written = try result.write(into: folder, force: force, command: "apiexplorer \(command)")
        } catch {
            throw ExitStatus.fail(error)
        }
        let declarations = ((written.checkedCatalog ?? (try? written.load()))?.services ?? []).map { service in
            var declaration = TrustDeclaration(service)
            declaration.file = folder.appendingPathComponent(URL(fileURLWithPath: service.file).lastPathComponent).path
            return declaration
        }
        let reaching = declarations.filter { !Self.reachesNothing($0, beyond: [Self.mockOrigin] + ownHosts) }
        if trust || reaching.isEmpty {
            do throws(SystemError) {
                try TrustFile().trust(written.catalogContentHashes, in: folder)
            } catch {
                // A trust that cannot be kept is said, not an error.
                Console.error("warning: the imported catalogs are not trusted (\(error)): `apiexplorer trust \(out)` trusts them")
            }
        }
        for draft in written.drafts {
            let schemas = draft.schemas.map { ", response schemas in \($0)" } ?? ""
            let fixtures = draft.fixtureFileCount
            Console.out(
                "Wrote \(URL(fileURLWithPath: out).appendingPathComponent("\(draft.service).yaml").path): service \(draft.service), \(draft.endpoints.count) endpoints, "
                    + "\(draft.environments.count) environments, \(fixtures) fixture file\(fixtures == 1 ? "" : "s")\(schemas)")
        }
        for group in written.groupedNotes {
            let label = switch group.kind {
            case .skipped: "left out"
            case .repaired: "repaired"
            case .info: "note"
            }
            Console.error("\(label): \(group)")
        }
        if !written.notes.isEmpty { Console.error("The notes are kept in \(URL(fileURLWithPath: out).appendingPathComponent(CatalogImport.notesFileName).path).") }
        if !trust, !reaching.isEmpty {
            // The document is a stranger's: its catalog sends nothing, reads no secret and no file until the person says so.
            Console.error("Not trusted: \(reaching.count == 1 ? "the catalog comes" : "these catalogs come") from a document you did not write. Trusted, \(reaching.count == 1 ? "it" : "they") may:")
            for declaration in reaching { declaration.lines.forEach { Console.error("  " + $0) } }
            Console.error("Stub mode works as it is. Check the above, then trust with `apiexplorer trust \(out)` (or import with --trust).")
        }
        Console.out("Check it with `apiexplorer validate \(out)`; try it with `apiexplorer list --catalog \(out)`.")
        if written.isPartial {
            let count = written.notes.filter { $0.kind == .skipped }.count
            Console.error("Partial import: \(count) part\(count == 1 ? "" : "s") of the document did not come in (exit status \(ExitStatus.partial.rawValue)).")
            throw ExitStatus.partial
        }
    }
}
