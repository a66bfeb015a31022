import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing whole buffers on file descriptors, retrying after signals.
package enum FileDescriptor {
    /// Writes every byte of `bytes` to `descriptor`.
    package static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32) throws(SystemError) {
        var failure: Int32 = 0
        bytes.withUnsafeBytes { raw in
            guard let base = raw.baseAddress else { return }
            var offset = 0
            while offset < raw.count {
                let written = write(descriptor, base + offset, raw.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        if failure != 0 { throw SystemError("cannot write", number: failure) }
    }

    /// Writes every byte of `bytes` to the file at `path` open as `descriptor`; an error names the file.
    package static func writeAll(_ bytes: some ContiguousBytes, to descriptor: Int32, path: String) throws(SystemError) {
        do throws(SystemError) {
            try writeAll(bytes, to: descriptor)
        } catch {
            throw SystemError("cannot write \(path)", number: error.number)
        }
    }

    /// Reads `descriptor` to its end (blocks; call off the cooperative pool).
    package static func readAll(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(descriptor, &buffer, buffer.count)
            if count > 0 {
                bytes.append(contentsOf: buffer[0..<count])
            } else if count == 0 || errno != EINTR {
                return bytes
            }
        }
    }
}
