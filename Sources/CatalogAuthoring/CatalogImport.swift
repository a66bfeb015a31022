import Catalog
import FoundationEssentials
import SystemSupport

/// What an importer (Postman, Insomnia, `.http`, HAR) makes of a document: catalog files with
/// their fixtures, and notes for the person importing (what was left out, secrets to set).
/// Written only whole, and only when the catalog loader accepts every file without an error.
public struct CatalogImport: Sendable {
    /// One draft per service.
    public var drafts: [CatalogDraft]
    /// What the person should know, in order.
    public var notes: [String]

    /// Makes an import.
    public init(drafts: [CatalogDraft], notes: [String] = []) {
        self.drafts = drafts
        self.notes = notes
    }

    /// Every file to write, by path relative to the catalog folder: each catalog file, then its fixtures.
    public var files: [(path: String, data: Data)] {
        drafts.flatMap { draft in [("\(draft.service).yaml", Data(draft.yaml.utf8))] + draft.fixtures }
    }

    /// The catalogs as the loader reads them from the files (nothing is written); fails listing
    /// the errors when there is one, so a broken import is never written.
    public func load() throws(AuthoringError) -> CatalogSet {
        try load(files)
    }

    private func load(_ files: [(path: String, data: Data)]) throws(AuthoringError) -> CatalogSet {
        var paths: Set<String> = []
        if let duplicate = files.first(where: { !paths.insert($0.path).inserted }) {
            throw .invalidInput("two parts of the import would both be written to \(duplicate.path); nothing was written")
        }
        let memory = InMemoryFileSystem(files: Dictionary(files.map { ($0.path, $0.data) }, uniquingKeysWith: { $1 }))
        let source = CatalogSource(origin: .option, directory: nil, displayPath: "import")
        let catalog = CatalogLoader.load(fileSystem: memory, source: source)
        let errors = catalog.diagnostics.filter(\.isError)
        guard errors.isEmpty else {
            throw .invalidInput(
                "the imported catalog would not load, so nothing was written:\n" + errors.map(\.description).joined(separator: "\n"))
        }
        return catalog
    }

    /// Checks the catalogs (`load()`), then writes every file into `folder`: all go to temporary
    /// files first and are renamed into place once all are complete, fixtures before the catalog
    /// files naming them. Existing files are replaced only when `force`. Returns the catalog files.
    @discardableResult
    public func write(into folder: URL, force: Bool) throws(AuthoringError) -> [URL] {
        let files = self.files
        _ = try load(files)
        let targets = files.map { (url: folder.appendingPathComponent($0.path), data: $0.data) }
        if !force {
            let existing = targets.map(\.url.path).filter { FileManager.default.fileExists(atPath: $0) }
            if !existing.isEmpty {
                throw .wouldOverwrite("\(existing.joined(separator: ", ")) already exist\(existing.count == 1 ? "s" : ""); --force replaces")
            }
        }
        var pending: [(temporary: URL, target: URL)] = []
        do throws(SystemError) {
            for target in targets.reversed() {
                try AtomicFile.createDirectory(target.url.deletingLastPathComponent(), permissions: 0o755)
                pending.append((try AtomicFile.writeTemporary(target.data, beside: target.url), target.url))
            }
            // A temporary already renamed is gone: discarding it below does nothing.
            for item in pending { try AtomicFile.commit(item.temporary, to: item.target) }
        } catch {
            pending.forEach { AtomicFile.discard($0.temporary) }
            throw AuthoringError(error)
        }
        return drafts.map { folder.appendingPathComponent("\($0.service).yaml") }
    }

    /// The SHA-256 of each catalog file the import writes (not its fixtures): what trusting them
    /// remembers, since apiexplorer wrote them.
    public var catalogContentHashes: [String] {
        files.filter { !$0.path.contains("/") && CatalogLoader.isCatalogFile($0.path) }.map { CatalogTrust.contentHash(of: $0.data) }
    }
}
