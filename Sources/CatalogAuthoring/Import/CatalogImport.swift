import Catalog
import FoundationEssentials
import SystemSupport

/// What an importer (Postman, Insomnia, `.http`, HAR, OpenAPI) makes of a document: catalog files
/// with their fixtures, and notes for the person importing (what was repaired or left out and
/// where it is in the document, secrets to set). Never all or nothing: `checked()` leaves out the
/// parts the catalog loader would refuse, each with a note, and keeps the rest.
package struct CatalogImport: Sendable {
    /// One draft per service.
    package var drafts: [CatalogDraft]
    /// What the person should know, in order.
    package var notes: [ImportNote]
    /// The catalogs as the loader read them when `checked()` made this import (what `load()` gives, kept).
    package private(set) var checkedCatalog: CatalogSet?

    /// Makes an import.
    package init(drafts: [CatalogDraft], notes: [ImportNote] = []) {
        self.drafts = drafts
        self.notes = notes
    }

    /// The notes as text (`SOURCE: message`).
    package var messages: [String] { notes.map(\.description) }

    /// The notes with identical ones gathered, each with every place it applies to.
    package var groupedNotes: [ImportNoteGroup] { ImportNoteGroup.grouping(notes) }

    /// Whether some part of the document did not come in.
    package var isPartial: Bool { notes.contains { $0.kind == .skipped } }

    /// How many endpoints the drafts hold.
    package var endpointCount: Int { drafts.reduce(0) { $0 + $1.endpoints.count } }

    /// The SHA-256 of each catalog file the import writes (not its fixtures): what trusting them
    /// remembers, since apiexplorer wrote them.
    package var catalogContentHashes: [String] {
        files.filter { !$0.path.contains("/") && CatalogLoader.isCatalogFile($0.path) }.map { CatalogTrust.contentHash(of: $0.data) }
    }

    /// Every file to write, by path relative to the catalog folder: each catalog file, then its
    /// fixtures (a file two endpoints send, the same bytes at the same path, once).
    package var files: [(path: String, data: Data)] {
        var seen: [String: Data] = [:]
        return drafts.flatMap { draft in [("\(draft.service).yaml", Data(draft.yaml.utf8))] + draft.fixtures }.filter { file in
            if let data = seen[file.path], data == file.data { return false }
            seen[file.path] = file.data
            return true
        }
    }

    /// The catalogs as the loader reads them from the files (nothing is written); fails listing
    /// the errors when there is one (`checked()` first leaves such parts out).
    package func load() throws(AuthoringError) -> CatalogSet {
        let catalog = try Self.load(files)
        let errors = catalog.diagnostics.filter(\.isError)
        guard errors.isEmpty else {
            throw .invalidInput("the imported catalog would not load:\n" + errors.map(\.description).joined(separator: "\n"))
        }
        return catalog
    }

    private static let displayPath = "import"

    private static func load(_ files: [(path: String, data: Data)]) throws(AuthoringError) -> CatalogSet {
        var paths: Set<String> = []
        if let duplicate = files.first(where: { !paths.insert($0.path).inserted }) {
            throw .invalidInput("two parts of the import would both be written to \(duplicate.path); nothing was written")
        }
        let memory = InMemoryFileSystem(files: Dictionary(files.map { ($0.path, $0.data) }, uniquingKeysWith: { $1 }))
        return CatalogLoader.load(fileSystem: memory, source: CatalogSource(origin: .option, directory: nil, displayPath: displayPath))
    }

    /// The import with every part the catalog loader would refuse left out (an endpoint, an
    /// environment, a group, a variable …), each named in a note with its place in the source
    /// document and the loader's reason; the rest is kept. Fails only when nothing is left to write.
    package func checked() throws(AuthoringError) -> CatalogImport {
        var result = self
        var catalog = try Self.load(result.files)
        var errors = catalog.diagnostics.filter(\.isError)
        // Each pass leaves out what the loader refused; a part left out whole cannot make new errors, so few passes are needed.
        for _ in 0..<6 where !errors.isEmpty {
            result.leaveOut(errors)
            catalog = try Self.load(result.files)
            errors = catalog.diagnostics.filter(\.isError)
        }
        result.checkedCatalog = catalog
        if let remaining = errors.first {
            throw .invalidInput("the imported catalog would not load, so nothing was written: \(remaining)")
        }
        guard result.endpointCount > 0 else {
            let reasons = result.notes.filter { $0.kind == .skipped }.prefix(5).map { "\n  \($0)" }.joined()
            throw .invalidInput("nothing in the document could be imported, so nothing was written" + reasons)
        }
        return result
    }

    /// Leaves out the parts the diagnostics point at (one pass; a part left out whole takes its fixtures).
    private mutating func leaveOut(_ errors: [Diagnostic]) {
        var byDraft: [Int: [Diagnostic]] = [:]
        for error in errors {
            let file = error.file.hasPrefix(Self.displayPath + "/") ? String(error.file.dropFirst(Self.displayPath.count + 1)) : error.file
            guard let index = drafts.firstIndex(where: { "\($0.service).yaml" == file }) else {
                // A fixture or other file: the endpoint naming it is reported at its own line.
                continue
            }
            byDraft[index, default: []].append(error)
        }
        var emptied: [Int] = []
        for (index, diagnostics) in byDraft.sorted(by: { $0.key < $1.key }) {
            let layout = drafts[index].rendered.parts
            var parts: [CatalogDraft.Part: String] = [:]
            for diagnostic in diagnostics {
                let part = layout.last { $0.lines.contains(diagnostic.line) }?.part ?? .file
                if parts[part] == nil { parts[part] = diagnostic.message }
            }
            if !drafts[index].leaveOut(parts, notes: &notes) { emptied.append(index) }
        }
        for index in emptied.reversed() { drafts.remove(at: index) }
    }

    /// Checks the catalogs (`checked()`), then writes every file into `folder` at once (see
    /// `StagedFolder`), and the notes as `IMPORT-NOTES.md` beside them. Existing catalog and
    /// fixture files are replaced only when `force`. Returns what was written.
    @discardableResult
    package func write(into folder: URL, force: Bool, command: String? = nil) throws(AuthoringError) -> CatalogImport {
        let result = try checked()
        let files = result.files
        if !force {
            let existing = files.map { folder.appendingPathComponent($0.path).path }.filter { FileManager.default.fileExists(atPath: $0) }
            if !existing.isEmpty {
                throw .wouldOverwrite("\(existing.joined(separator: ", ")) already exist\(existing.count == 1 ? "s" : ""); --force replaces")
            }
        }
        var all = files
        // Written every time, so notes of an earlier import into the folder are never taken for this one's.
        all.append((Self.notesFileName, Data(result.notesDocument(command: command).utf8)))
        do throws(SystemError) {
            let modes = result.drafts.reduce(into: [String: UInt16]()) { modes, draft in modes.merge(draft.fileModes) { $1 } }
            try StagedFolder.write(all, into: folder, modes: modes)
        } catch {
            throw AuthoringError(error)
        }
        return result
    }

    /// The file the notes of an import are kept in, beside the catalogs.
    package static let notesFileName = "IMPORT-NOTES.md"

    /// `IMPORT-NOTES.md`: what was left out, what was repaired, what to do.
    func notesDocument(command: String?) -> String {
        var lines = ["# Import notes", ""]
        if let command { lines += ["What `\(command)` wrote into this folder, and what it could not.", ""] }
        lines.append(
            "Catalogs: " + drafts.map { "`\($0.service).yaml` (\($0.endpoints.count) endpoints, \($0.fixtureFileCount) fixture files)" }.joined(separator: ", ") + ".")
        if notes.isEmpty { lines += ["", "Everything in the document came in as it was written."] }
        let groups = groupedNotes
        for (kind, title) in [(ImportNote.Kind.skipped, "Left out"), (.repaired, "Repaired"), (.info, "Notes")] {
            let chosen = groups.filter { $0.kind == kind }
            guard !chosen.isEmpty else { continue }
            let count = chosen.reduce(0) { $0 + max(1, $1.places.count) }
            lines += ["", "## \(title) (\(count))", ""]
            for group in chosen {
                let message = group.message.split(whereSeparator: \.isNewline).joined(separator: " ")
                switch group.places.count {
                case 0: lines.append("- " + message)
                case 1: lines.append("- `\(group.places[0])`: " + message)
                default:
                    // Every place, so the file answers "where" whatever the count.
                    lines.append("- \(message) (\(group.places.count) places):")
                    lines += group.places.map { "  - `\($0)`" }
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

extension CatalogDraft {
    /// The fixture files it writes (each path once; the kept response schemas are not one).
    package var fixtureFileCount: Int {
        Set(fixtures.map(\.path)).filter { $0 != schemas }.count
    }

    /// Leaves out the parts named with the loader's message for each; false when the whole
    /// service must go (an error in what every endpoint shares, or no environment left).
    mutating func leaveOut(_ parts: [Part: String], notes: inout [ImportNote]) -> Bool {
        let owner = "service \(service)"
        let environmentErrors = parts.filter { if case .environment = $0.key { true } else { false } }
        let fatal = parts[.file] ?? (environmentErrors.count >= environments.count ? environmentErrors.first?.value : nil)
        if let message = fatal {
            for endpoint in endpoints {
                notes.append(ImportNote(.skipped, at: endpoint.source, "\(endpoint.id) was left out with the rest of \(owner): the catalog would not load it (\(message))"))
            }
            endpoints = []
            return false
        }
        var droppedEndpoints: [Int] = []
        var droppedEnvironments: [Int] = []
        var droppedGroups: [Int] = []
        for (part, message) in parts {
            switch part {
            case .endpoint(let index):
                let endpoint = endpoints[index]
                notes.append(ImportNote(.skipped, at: endpoint.source, "\(endpoint.id) was left out: the catalog would not load it (\(message))"))
                droppedEndpoints.append(index)
            case .environment(let index):
                notes.append(ImportNote(.skipped, "environment \(environments[index].name) of \(owner) was left out: \(message)"))
                droppedEnvironments.append(index)
            case .group(let index):
                notes.append(ImportNote(.repaired, "group \(groups[index].id) of \(owner) was left out (its endpoints stay, without its headers): \(message)"))
                droppedGroups.append(index)
            case .variables:
                notes.append(ImportNote(.repaired, "the variables of \(owner) were left out: \(message)"))
                variables = []
            case .errors:
                notes.append(ImportNote(.repaired, "the error rules of \(owner) were left out: \(message)"))
                errors = []
            case .file:
                break
            }
        }
        for index in droppedGroups.sorted().reversed() {
            let id = groups[index].id
            groups.remove(at: index)
            for position in endpoints.indices where endpoints[position].group == id { endpoints[position].group = nil }
        }
        for index in droppedEnvironments.sorted().reversed() { environments.remove(at: index) }
        for index in droppedEndpoints.sorted().reversed() {
            let gone = Set(endpoints[index].fixturePaths)
            endpoints.remove(at: index)
            let kept = Set(endpoints.flatMap(\.fixturePaths))
            fixtures.removeAll { gone.contains($0.path) && !kept.contains($0.path) }
        }
        return !endpoints.isEmpty
    }
}

extension CatalogDraft.Endpoint {
    /// The files beside the catalog this endpoint names.
    var fixturePaths: [String] {
        var paths = ([stub].compactMap { $0 } + examples).compactMap(\.bodyFile)
        switch body {
        case .file(let path): paths.append(path)
        case .multipart(let fields): paths += fields.compactMap(\.file)
        default: break
        }
        return paths
    }
}
