#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The names in a folder, read with `opendir`/`readdir`: FileManager's listing has a first-use
/// cost in a process (a `call` lists its catalog folder once; docs/performance.md).
package enum DirectoryEntries {
    /// The names of everything in the folder at `path` (`.` and `..` left out), in the order the
    /// file system gives them.
    package static func names(in path: String) throws(SystemError) -> [String] {
        guard let directory = opendir(path) else { throw SystemError("cannot read \(path)") }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }
}
