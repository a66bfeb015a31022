import FoundationEssentials

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The process's standard input, output and error, unbuffered (what `print` does not cover: bytes,
/// and text for standard error).
package enum StandardStreams {
    /// Writes bytes to standard output.
    package static func writeOutput(_ bytes: some ContiguousBytes) {
        try? FileDescriptor.writeAll(bytes, to: STDOUT_FILENO)
    }

    /// Writes text to standard output.
    package static func writeOutput(_ text: String) {
        writeOutput(Array(text.utf8))
    }

    /// Writes text to standard error.
    package static func writeError(_ text: String) {
        try? FileDescriptor.writeAll(Array(text.utf8), to: STDERR_FILENO)
    }

    /// Ends the process with `status`, after what `print` buffered is written.
    package static func exit(_ status: Int32) -> Never {
        fflush(nil)
        #if canImport(Glibc)
        Glibc.exit(status)
        #elseif canImport(Darwin)
        Darwin.exit(status)
        #endif
    }

    /// Everything on standard input, to its end.
    package static func readInput() -> [UInt8] {
        FileDescriptor.readAll(STDIN_FILENO)
    }

    /// Whether standard input and output are both terminals.
    package static var isInteractive: Bool { isatty(STDIN_FILENO) == 1 && isatty(STDOUT_FILENO) == 1 }
}

extension StandardStreams {
    /// Whether standard output is a terminal.
    package static var isOutputTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard error is a terminal.
    package static var isErrorTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
