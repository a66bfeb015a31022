import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// New files with unique names (`mkstemps`), written and flushed in full before their path is returned.
package enum TemporaryFile {
    /// The folder temporary files go to: `$TMPDIR`, else `/tmp`.
    package static var directory: String {
        guard let value = getenv("TMPDIR").map({ String(cString: $0) }), !value.isEmpty else { return "/tmp" }
        return value.hasSuffix("/") && value.count > 1 ? String(value.dropLast()) : value
    }

    /// Writes `contents` to a new file `PREFIXxxxxxxSUFFIX` in `directory` (the temporary folder by
    /// default), readable by the owner only unless `permissions` say otherwise, flushed to disk unless
    /// not `durable`; returns its path.
    package static func create(
        _ contents: Data, in directory: String? = nil, prefix: String, suffix: String = "", permissions: mode_t = 0o600, durable: Bool = true
    ) throws(SystemError) -> String {
        let folder = directory ?? Self.directory
        var template = Array(((folder.isEmpty ? "." : folder) + "/" + prefix + "XXXXXX" + suffix).utf8CString)
        let descriptor = template.withUnsafeMutableBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress else { return -1 }
            return mkstemps(base, Int32(suffix.utf8.count))
        }
        guard descriptor >= 0 else { throw SystemError("cannot create a file in \(folder)") }
        // mkstemps replaced the X's in place; drop the terminating NUL.
        let path = String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
        do throws(SystemError) {
            defer { close(descriptor) }
            fchmod(descriptor, permissions)
            try FileDescriptor.writeAll(contents, to: descriptor, path: path)
            guard !durable || fsync(descriptor) == 0 else { throw SystemError("cannot flush \(path)") }
        } catch {
            unlink(path)
            throw error
        }
        return path
    }
}
