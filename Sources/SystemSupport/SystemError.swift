#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed system call, with the C library's message: `cannot open /x: No such file or directory`.
public struct SystemError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What was being done, e.g. `cannot open /x`.
    public var action: String
    /// The error number.
    public var number: Int32

    /// Makes an error for `action` from `number` (`errno` by default).
    public init(_ action: String, number: Int32 = errno) {
        self.action = action
        self.number = number
    }

    /// The C library's message for the error number.
    public var reason: String { SystemError.message(for: number) }

    public var description: String { "\(action): \(reason)" }

    /// The C library's message for an error number (`errno` by default).
    public static func message(for number: Int32 = errno) -> String {
        guard let message = strerror(number) else { return "error \(number)" }
        return String(cString: message)
    }
}
