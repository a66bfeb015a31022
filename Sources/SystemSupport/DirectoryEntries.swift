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
            let name = name(of: entry)
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The name in a `readdir` record, read in place up to its NUL. A record is only as long as
    /// its name (`d_reclen`), not `sizeof(struct dirent)`: copying the whole 256-byte `d_name`
    /// reads past the end of the C library's buffer, and faults when that buffer ends a thread's
    /// heap (the explorer's crash at launch in `FileWatcher`, issue 49).
    package static func name(of entry: UnsafePointer<dirent>) -> String {
        let start = UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_name)!
        return String(cString: start.assumingMemoryBound(to: CChar.self))
    }

    /// Whether a `readdir` record says a folder (`DT_DIR`; read in place, as `name(of:)`).
    package static func isDirectory(_ entry: UnsafePointer<dirent>) -> Bool {
        let type = (UnsafeRawPointer(entry) + MemoryLayout<dirent>.offset(of: \dirent.d_type)!).load(as: UInt8.self)
        return type == UInt8(DT_DIR)
    }
}
