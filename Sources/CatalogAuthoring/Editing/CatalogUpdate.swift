import Catalog
import FoundationEssentials
import SystemSupport

/// A change to one catalog file and the fixture files it references, checked before anything is
/// written and written so an interruption never loses what was there: every new file goes to a
/// temporary file first; only when all are complete are they renamed into place, fixtures
/// before the catalog that references them.
package struct CatalogUpdate: Sendable {
    /// The catalog folder.
    package let directory: URL
    /// The catalog file's name in the folder.
    package let fileName: String
    /// The catalog file's new text.
    package var text: String
    /// Fixture files, by path relative to the folder.
    package var files: [(path: String, data: Data)] = []

    /// The update of `service`'s file; fails for catalogs that are not files on disk (the bundled ones).
    init(service: Service, text: (String) throws(AuthoringError) -> String) throws(AuthoringError) {
        guard let directory = service.directory else {
            throw .usage("\(service.id) comes from the catalogs built into apiexplorer; copy environments/ to a folder and use --catalog DIR to change it")
        }
        self.directory = directory
        fileName = String(service.file.split(separator: "/").last ?? Substring(service.file))
        let url = directory.appendingPathComponent(fileName)
        guard let data = FileContents.read(atPath: url.path, atMost: CatalogLoader.maximumFileSize), let current = String(data: data, encoding: .utf8) else {
            throw .file("cannot read \(url.path)")
        }
        self.text = try text(current)
    }

    /// Loads the folder as it would be after the update and returns the service; fails when the
    /// update adds errors to the file (so a bad edit is never written).
    package func validate(serviceID: String) throws(AuthoringError) -> Service {
        let source = CatalogSource(origin: .option, directory: directory, displayPath: directory.path)
        let before = CatalogLoader.load(fileSystem: DiskFileSystem(root: directory), source: source)
        let after = CatalogLoader.load(fileSystem: OverlayFileSystem(base: DiskFileSystem(root: directory), overlay: overlay), source: source)
        let shown = source.displayPath(of: fileName)
        let old = Set(before.diagnostics.filter { $0.isError && $0.file == shown }.map(\.message))
        let new = after.diagnostics.filter { $0.isError && $0.file == shown && !old.contains($0.message) }
        guard new.isEmpty, let service = after.service(serviceID) else {
            throw .invalidInput("the change would break \(fileName), so nothing was written:\n" + new.map(\.description).joined(separator: "\n"))
        }
        return service
    }

    /// The SHA-256 of the catalog file as the update writes it.
    package var contentHash: String { CatalogTrust.contentHash(of: Data(text.utf8)) }

    /// Writes the update and, when `service` was trusted, trusts the file as written (apiexplorer
    /// wrote it: a trusted catalog edited by the explorer, `record` or `import curl --into` stays
    /// trusted; an untrusted one stays untrusted). A trust that cannot be kept is not an error.
    package func commit(keepingTrustOf service: Service, in trust: (any TrustPersistence)?) throws(AuthoringError) {
        try commit()
        if service.isTrusted, service.contentHash != nil { try? trust?.trust([contentHash], in: directory) }
    }

    /// Writes the files. `beforeRename` runs once every temporary file is complete; if it throws
    /// (or anything fails before), the temporaries are removed and every file is as it was.
    package func commit(beforeRename: () throws -> Void = {}) throws(AuthoringError) {
        var pending: [(temporary: URL, target: URL)] = []
        // Temporary files of an earlier run killed before its renames would stay hidden forever.
        for path in files.map(\.path) + [fileName] { AtomicFile.removeLeftovers(beside: directory.appendingPathComponent(path)) }
        do throws(AuthoringError) {
            do throws(SystemError) {
                for file in files {
                    let target = directory.appendingPathComponent(file.path)
                    try AtomicFile.createDirectory(target.deletingLastPathComponent(), permissions: 0o755)
                    pending.append((try AtomicFile.writeTemporary(file.data, beside: target), target))
                }
                let catalog = directory.appendingPathComponent(fileName)
                pending.append((try AtomicFile.writeTemporary(Data(text.utf8), beside: catalog, permissions: FileStatus.permissions(catalog.path) ?? 0o644), catalog))
            } catch {
                throw AuthoringError(error)
            }
            do {
                try beforeRename()
            } catch {
                throw AuthoringError.file("the update was interrupted before any file was replaced: \(error)")
            }
        } catch {
            pending.forEach { AtomicFile.discard($0.temporary) }
            throw error
        }
        for (index, item) in pending.enumerated() {
            do throws(SystemError) {
                try AtomicFile.commit(item.temporary, to: item.target)
            } catch {
                pending[(index + 1)...].forEach { AtomicFile.discard($0.temporary) }
                throw AuthoringError(error)
            }
        }
    }

    private var overlay: [String: Data] {
        var files = Dictionary(self.files.map { ($0.path, $0.data) }, uniquingKeysWith: { $1 })
        files[fileName] = Data(text.utf8)
        return files
    }
}

/// A catalog folder on disk with some files replaced in memory (to check an update before writing it).
struct OverlayFileSystem: CatalogFileSystem {
    let base: DiskFileSystem
    let overlay: [String: Data]

    func fileNames() throws(CatalogFolderError) -> [String] {
        Array(Set(try base.fileNames()).union(overlay.keys.filter { !$0.contains("/") }))
    }

    func contents(of path: String, atMost limit: Int) throws(FileReadError) -> Data {
        guard let data = overlay[normalized(path)] else { return try base.contents(of: path, atMost: limit) }
        guard data.count <= limit else { throw .tooLarge(path: path, size: data.count, limit: limit) }
        return data
    }

    func fileExists(_ path: String) -> Bool {
        overlay[normalized(path)] != nil || base.fileExists(path)
    }

    func fileURL(for path: String) -> URL? { base.fileURL(for: path) }

    /// A file about to be written is inside the folder; any other is checked on disk (outside paths too).
    func access(_ path: String, allowingOutside: Bool) -> CatalogFileAccess {
        if let data = overlay[normalized(path)] { return .readable(size: data.count) }
        return base.access(path, allowingOutside: allowingOutside)
    }

    func fileNames(in folder: String) -> [String] {
        let prefix = folder.isEmpty ? "" : normalized(folder) + "/"
        let added = overlay.keys.filter { $0.hasPrefix(prefix) && !$0.dropFirst(prefix.count).contains("/") }.map { String($0.dropFirst(prefix.count)) }
        return Array(Set(base.fileNames(in: folder)).union(added))
    }

    /// A path relative to the folder, as the overlay keys are written.
    private func normalized(_ path: String) -> String {
        var result = path
        let root = base.root.path + "/"
        if result.hasPrefix(root) { result.removeFirst(root.count) }
        while result.hasPrefix("./") { result.removeFirst(2) }
        return result
    }
}

extension CatalogUpdate {
    /// The update adding `endpoint` at the end of `service`'s endpoints, checked.
    package static func adding(_ endpoint: CatalogDraft.Endpoint, to service: Service) throws(AuthoringError) -> CatalogUpdate {
        let update = try CatalogUpdate(service: service) { text throws(AuthoringError) in
            var editor = CatalogTextEditor(text)
            try editor.addEndpoint(endpoint.id, body: endpoint.lines())
            return editor.text
        }
        _ = try update.validate(serviceID: service.id)
        return update
    }
}
