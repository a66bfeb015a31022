import FoundationEssentials
import Synchronization
import SystemSupport
import TextSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A file a document names (a `.http` body or multipart part, a Postman form-data file, an
/// OpenAPI `$ref`), as the import got it.
package enum LocalFile: Sendable, Equatable {
    /// Its bytes, and the permission bits the copy beside the catalog keeps (never wider than
    /// the original, nor than 0644).
    case read(Data, permissions: UInt16)
    /// Not read, and why: the import treats it as a missing file.
    case refused(LocalFileRefusal)

    /// The bytes, when it was read.
    package var data: Data? {
        if case .read(let data, _) = self { return data }
        return nil
    }
}

/// Why a file a document names was not read.
package enum LocalFileRefusal: Sendable, Equatable, CustomStringConvertible {
    /// An absolute path, a `..` that climbs out, or a link that leads out of the document's folder.
    case outside
    /// Nothing there (or nothing this process may read).
    case missing
    /// A folder, a pipe, a device: never read.
    case notRegular
    /// Larger than an import copies.
    case tooLarge(limit: Int)

    package var description: String {
        switch self {
        case .outside: "is outside the document's folder (imports read no file from elsewhere)"
        case .missing: "could not be read"
        case .notRegular: "is not a regular file"
        case .tooLarge(let limit): "is larger than the \(limit >> 20) MiB an import copies"
        }
    }
}

/// What an importer may read besides the document itself: the files inside the document's folder,
/// never a file elsewhere. A document is a stranger's: `< /home/you/.ssh/id_rsa` or
/// `$ref: ../../../etc/passwd` must not carry a file of the person importing into a catalog
/// that uploads it.
package struct DocumentFiles: Sendable {
    private let lookup: @Sendable (String) -> LocalFile
    /// Where the document is inside the folder files may come from (`spec` when the person
    /// widened it to the folder above with `--root`), the base of its relative references.
    private var base: String = ""

    /// The files `lookup` gives for paths already confined to the folder (relative, no `..` out
    /// of it); `lookup` gets them normalized (`a/./b/../c` is `a/c`).
    package init(confinedLookup lookup: @escaping @Sendable (String) -> LocalFile) {
        self.lookup = lookup
    }

    /// Files from memory (tests, fuzzing): what `files` holds, by normalized relative path.
    package init(_ files: [String: Data]) {
        self.init(confinedLookup: { path in files[path].map { .read($0, permissions: 0o644) } ?? .refused(.missing) })
    }

    /// No file at all.
    package static let none = DocumentFiles([:])

    /// The largest file an import copies beside a catalog.
    package static let sizeLimit = 64 << 20

    /// The regular files inside `root`, for a document in `documentFolder` (inside `root`): its
    /// references are relative to its own folder and may climb up to `root`, no further. Nil
    /// when the document is not inside `root`.
    package init?(root: String, documentFolder: String) {
        guard case .resolved(let top) = ResolvedPath(root), case .resolved(let document) = ResolvedPath(documentFolder),
            ResolvedPath.isInside(document, folder: top)
        else { return nil }
        self.init(folder: top)
        base = document == top ? "" : String(document.dropFirst(top.count + 1))
    }

    /// The regular files inside `folder` (a link is followed only while it stays inside).
    package init(folder: String) {
        guard case .resolved(let root) = ResolvedPath(folder) else {
            self.init(confinedLookup: { _ in .refused(.missing) })
            return
        }
        let folders = ResolvedFolders(root: root)
        self.init(confinedLookup: { relative in Self.readInside(folders, relative) })
    }

    /// The file `reference` names, relative to the document: refused when it is absolute, climbs
    /// out of the folder, or is not a regular file inside it.
    package func read(_ reference: String) -> LocalFile {
        let written = reference.trimmed
        let isAbsolute = written.hasPrefix("/") || written.hasPrefix("~") || written.hasPrefix("\\") || written.dropFirst().first == ":"
        guard !isAbsolute, let relative = Self.confined(base.isEmpty ? written : base + "/" + written) else { return .refused(.outside) }
        return lookup(relative)
    }

    /// `reference` as the path of a catalog's fixture (`./fixtures/shop/a.png` → `fixtures/shop/a.png`),
    /// which an import may keep for the copy it writes: inside the folder, under `fixtures/`, not a
    /// catalog file (a document is a stranger's: it must not place a catalog beside yours).
    package static func fixturePath(_ reference: String) -> String? {
        guard let path = confined(reference), path.hasPrefix("fixtures/"), !path.hasSuffix(".yaml"), !path.hasSuffix(".yml") else { return nil }
        return path
    }

    /// `reference` as a normalized path inside the folder, nil when it is absolute (`/x`, `~/x`,
    /// `C:\x`, `file:` URLs) or its `..` climb out.
    package static func confined(_ reference: String) -> String? {
        var text = reference.trimmed
        if text.hasPrefix("./") || text.hasPrefix(".\\") { text.removeFirst(2) }
        let unixLike = text.replacing("\\", with: "/")
        let drive = unixLike.dropFirst().first == ":"
        if unixLike.hasPrefix("/") || unixLike.hasPrefix("~") || drive || unixLike.hasPrefix("file:") { return nil }
        var parts: [Substring] = []
        for part in unixLike.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..":
                guard !parts.isEmpty else { return nil }
                parts.removeLast()
            default: parts.append(part)
            }
        }
        return parts.isEmpty ? nil : parts.joined(separator: "/")
    }

    /// Reads `relative` under the resolved root: its folder resolved (every link, once per folder
    /// for the whole import: a split document's 2,900 files are in a few folders), then only a
    /// regular file still inside the root, bounded before memory is spent.
    private static func readInside(_ folders: ResolvedFolders, _ relative: String) -> LocalFile {
        let slash = relative.lastIndex(of: "/")
        let folderPart = slash.map { String(relative[..<$0]) } ?? ""
        let leaf = slash.map { String(relative[relative.index(after: $0)...]) } ?? relative
        guard let folder = folders.resolved(folderPart) else { return .refused(folders.exists(folderPart) ? .outside : .missing) }
        var path = folder + "/" + leaf
        var info = stat()
        guard lstat(path, &info) == 0 else { return .refused(.missing) }
        if info.st_mode & S_IFMT == S_IFLNK {
            // A link: followed only to a place still inside.
            guard case .resolved(let target) = ResolvedPath(path) else { return .refused(.missing) }
            guard ResolvedPath.isInside(target, folder: folders.root), target != folders.root else { return .refused(.outside) }
            path = target
            guard lstat(path, &info) == 0 else { return .refused(.missing) }
        }
        guard info.st_mode & S_IFMT == S_IFREG else { return .refused(.notRegular) }
        // Opened without following a link, then checked again on the open file (a FIFO, a device or
        // a link swapped in since `lstat` is refused, a size over the limit refused before reading).
        let data: Data
        do throws(FileReadError) {
            data = try FileContents.contents(atPath: path, limit: sizeLimit, followingLinks: false)
        } catch {
            switch error {
            case .tooLarge: return .refused(.tooLarge(limit: sizeLimit))
            case .notRegularFile: return .refused(.notRegular)
            case .symbolicLink: return .refused(.outside)
            case .missing, .unreadable: return .refused(.missing)
            }
        }
        return .read(data, permissions: UInt16(info.st_mode & 0o644))
    }
}

/// The folders of a document's root, each resolved once (`realpath` reads every link on the way).
private final class ResolvedFolders: Sendable {
    let root: String
    private let cache = Mutex<[String: String?]>([:])

    init(root: String) { self.root = root }

    /// The canonical path of `relative` (a normalized folder under the root), nil when it is
    /// missing or a link leads it outside.
    func resolved(_ relative: String) -> String? {
        if relative.isEmpty { return root }
        if let known = cache.withLock({ $0[relative] }) { return known }
        var result: String?
        if case .resolved(let path) = ResolvedPath(root + "/" + relative), ResolvedPath.isInside(path, folder: root) { result = path }
        cache.withLock { $0[relative] = .some(result) }
        return result
    }

    /// Whether anything is at `relative` (to tell a folder outside from a missing one).
    func exists(_ relative: String) -> Bool {
        FileStatus.exists(root + "/" + relative)
    }
}
