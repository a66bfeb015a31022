#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A path with every symbolic link, `.` and `..` resolved (`realpath`), or why it cannot be.
package enum ResolvedPath: Sendable, Hashable {
    /// The canonical absolute path.
    case resolved(String)
    /// Nothing at the path (or a link to nothing).
    case missing
    /// Symbolic links that point at each other.
    case loop
    /// A folder on the way may not be searched.
    case permissionDenied
    /// Another failure, with its errno.
    case failed(Int32)

    /// Resolves `path`.
    package init(_ path: String) {
        guard let pointer = realpath(path, nil) else {
            switch errno {
            case ENOENT, ENOTDIR: self = .missing
            case ELOOP: self = .loop
            case EACCES: self = .permissionDenied
            case let code: self = .failed(code)
            }
            return
        }
        defer { free(pointer) }
        self = .resolved(String(cString: pointer))
    }

    /// Whether `path` (already resolved) is `folder` (already resolved) or inside it.
    package static func isInside(_ path: String, folder: String) -> Bool {
        if path == folder { return true }
        return path.hasPrefix(folder.hasSuffix("/") ? folder : folder + "/")
    }
}

extension ResolvedPath {
    /// The symbolic links followed from `path`, each target as written, until one repeats (a loop)
    /// or `limit` links: `["a.json", "b.json", "a.json"]`.
    package static func linkChain(from path: String, limit: Int = 8) -> [String] {
        var chain = [path]
        var visited = [path]
        var current = path
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        while chain.count <= limit {
            let count = readlink(current, &buffer, buffer.count - 1)
            guard count > 0 else { break }
            let target = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            let folder = current.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            current = target.hasPrefix("/") || folder.isEmpty ? target : folder + "/" + target
            chain.append(target)
            if visited.contains(current) { break }
            visited.append(current)
        }
        return chain
    }
}

extension FileStatus {
    /// Whether this process may read the file at `path`.
    package static func isReadable(_ path: String) -> Bool { access(path, R_OK) == 0 }
}
