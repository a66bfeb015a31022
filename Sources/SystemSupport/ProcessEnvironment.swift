import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's environment variables, read once. `ProcessInfo.processInfo.environment` builds a
/// new dictionary from `environ` on every read, and one `apiexplorer call` read it six times (the
/// state folder for history, tokens, cookies and captures, the secrets, the catalog lookup).
/// apiexplorer never changes its own environment, so the first read holds for the whole run.
public enum ProcessEnvironment {
    /// Every variable, as the process started with it.
    public static let variables: [String: String] = fromEnviron() ?? ProcessInfo.processInfo.environment

    /// The C library's `environ`, read directly: ProcessInfo's first `environment` is about a million
    /// instructions, a tenth of a millisecond of every launch. Like `getenv`, the first of two
    /// entries with one name wins. Nil when the symbol cannot be found.
    static func fromEnviron() -> [String: String]? {
        // `environ` is a mutable C global, which Swift 6 does not let code read; its address is fine.
        guard let symbol = dlsym(nil, "environ") else { return nil }
        guard var entry = symbol.assumingMemoryBound(to: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?.self).pointee else {
            return [:]
        }
        var variables: [String: String] = [:]
        while let text = entry.pointee {
            let bytes = UnsafeRawBufferPointer(start: text, count: strlen(text))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil { variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self) }
            }
            entry += 1
        }
        return variables
    }
}
