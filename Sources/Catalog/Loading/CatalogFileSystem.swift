import FoundationEssentials
import SystemSupport

/// Reads a catalog folder: a folder on disk, or the files compiled into the binary.
package protocol CatalogFileSystem: Sendable {
    /// The names of the files directly in the folder.
    func fileNames() throws(CatalogFolderError) -> [String]
    /// A file's bytes, at most `limit` of them; the path is relative to the folder (or absolute).
    /// Only a regular file is read (a FIFO, a device or a folder is refused without blocking).
    func contents(of path: String, atMost limit: Int) throws(FileReadError) -> Data
    /// Whether a file exists.
    func fileExists(_ path: String) -> Bool
    /// A file URL for a path, for files the transport reads itself (CA, client certificates);
    /// nil when the folder is not on disk.
    func fileURL(for path: String) -> URL?
    /// The same file as an absolute path (by default `fileURL(for:)`'s path).
    func filePath(for path: String) -> String?
    /// The names of the files in a subfolder (relative path), for did-you-mean hints.
    func fileNames(in folder: String) -> [String]
    /// Whether a file the catalog names may be read: inside the folder (symbolic links resolved)
    /// unless `allowingOutside`, a regular readable file; or why not.
    func access(_ path: String, allowingOutside: Bool) -> CatalogFileAccess
}

extension CatalogFileSystem {
    package func filePath(for path: String) -> String? { fileURL(for: path)?.path }
}

/// The catalog folder could not be listed.
package struct CatalogFolderError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What went wrong.
    package var message: String

    /// Makes the error.
    package init(_ message: String) { self.message = message }

    package var description: String { message }
}

/// A catalog folder on disk.
package struct DiskFileSystem: CatalogFileSystem {
    /// The folder.
    package let root: URL

    /// Makes a file system rooted at `root`.
    package init(root: URL) { self.root = root }

    package func fileNames() throws(CatalogFolderError) -> [String] {
        switch FileStatus(path: root.path) {
        case .missing: throw CatalogFolderError("the catalog folder does not exist")
        case .directory: break
        case .file, .other: throw CatalogFolderError("this is a file, not a catalog folder")
        }
        do throws(SystemError) {
            return try DirectoryEntries.names(in: root.path)
        } catch {
            throw CatalogFolderError("the catalog folder cannot be read: \(error.reason)")
        }
    }

    package func contents(of path: String, atMost limit: Int) throws(FileReadError) -> Data {
        guard let url = fileURL(for: path) else { throw .missing(path: path) }
        return try FileContents.contents(atPath: url.path, limit: limit)
    }

    package func fileExists(_ path: String) -> Bool {
        guard let url = fileURL(for: path) else { return false }
        if case .file = FileStatus(path: url.path) { return true }
        return false
    }

    package func fileURL(for path: String) -> URL? {
        CatalogSource.absoluteURL(path, currentDirectory: root.path)
    }

    package func fileNames(in folder: String) -> [String] {
        guard let url = fileURL(for: folder.isEmpty ? "." : folder) else { return [] }
        return (try? DirectoryEntries.names(in: url.path)) ?? []
    }
}

/// A catalog folder held in memory: the bundled catalogs, and tests.
package struct InMemoryFileSystem: CatalogFileSystem {
    /// File contents by path relative to the folder (`petstore.yaml`, `fixtures/pet.json`).
    package let files: [String: Data]
    /// The folder (its path) where files the transport reads itself (a CA certificate) are written
    /// when a catalog names them; nil when they cannot be used (tests).
    package var materializedIn: String?

    /// Makes a file system from contents by relative path.
    package init(files: [String: Data], materializedIn: String? = nil) {
        self.files = files
        self.materializedIn = materializedIn
    }

    /// Makes a file system from text contents by relative path.
    package init(texts: [String: String]) {
        self.files = texts.mapValues { Data(utf8: $0) }
    }

    package func fileNames() throws(CatalogFolderError) -> [String] {
        files.keys.filter { !$0.contains("/") }
    }

    package func contents(of path: String, atMost limit: Int) throws(FileReadError) -> Data {
        guard let data = files[InMemoryFileSystem.normalize(path)] else { throw .missing(path: path) }
        guard data.count <= limit else { throw .tooLarge(path: path, size: data.count, limit: limit) }
        return data
    }

    package func fileExists(_ path: String) -> Bool {
        files[InMemoryFileSystem.normalize(path)] != nil
    }

    package func fileURL(for path: String) -> URL? {
        filePath(for: path).map { URL(fileURLWithPath: $0) }
    }

    package func filePath(for path: String) -> String? {
        guard let folder = materializedIn, let data = files[InMemoryFileSystem.normalize(path)] else { return nil }
        // Paths as text: the bundled catalogs name a CA and a multipart file, read at launch, and
        // a URL's first `path` costs ~580,000 instructions.
        let filePath = URL.joinedFilePath(folder, InMemoryFileSystem.normalize(path))
        if FileContents.read(atPath: filePath, atMost: data.count) != data {
            do {
                let url = URL(fileURLWithPath: filePath)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try AtomicFile.write(data, to: url)
            } catch {
                return nil
            }
        }
        return filePath
    }

    package func fileNames(in folder: String) -> [String] {
        let prefix = InMemoryFileSystem.normalize(folder)
        return files.keys.compactMap { path in
            let parent = PathText.parent(of: path)
            return parent == prefix ? PathText.lastComponent(of: path) : nil
        }
    }

    /// `./a/../b.json` → `b.json`.
    static func normalize(_ path: String) -> String {
        // Most paths a catalog names are already plain (`fixtures/pet.json`): kept as they are.
        var isPlain = true
        var length = 0  // bytes of the component so far
        var onlyDots = true
        for byte in path.utf8 {
            if byte == UInt8(ascii: "/") {
                if length == 0 || (onlyDots && length <= 2) { isPlain = false; break }  // `//`, `/a`, `./`, `../`
                length = 0
                onlyDots = true
            } else {
                length += 1
                onlyDots = onlyDots && byte == UInt8(ascii: ".")
            }
        }
        if isPlain && length > 0 && !(onlyDots && length <= 2) { return path }
        var normalized = ""
        for part in path.split(separator: "/") where part != "." {
            if part == ".." {
                if let slash = normalized.lastIndex(of: "/") { normalized.removeSubrange(slash...) } else { normalized = "" }
                continue
            }
            if !normalized.isEmpty { normalized += "/" }
            normalized += part
        }
        return normalized
    }
}
