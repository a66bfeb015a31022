#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, with the C library's message: `cannot open /x: No such file or directory`.
package struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done, e.g. `cannot open /x`.
    package var action: String
    /// The error number.
    package var number: Int32

    /// Makes an error for `action` from `number` (`errno` by default).
    package init(_ action: String, number: Int32 = errno) {
        self.action = action
        self.number = number
    }

    /// The C library's message for the error number.
    package var reason: String { SystemError.message(for: number) }

    package var description: String { "\(action): \(reason)" }

    /// The C library's message for an error number (`errno` by default).
    package static func message(for number: Int32 = errno) -> String {
        guard let message = strerror(number) else { return "error \(number)" }
        return String(cString: message)
    }
}
