import Foundation
import TestSupport

#if canImport(Glibc)
import Glibc
#endif

/// Starts a program on a pseudo-terminal of its own and times how long it takes to write markers:
/// launch to first complete frame as the program sees it, with no terminal emulator (and no
/// emulator's polling) in between.
enum PseudoTerminalLaunch {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    /// Milliseconds from `posix_spawn` to every one of `markers` appearing in what the program wrote;
    /// then sends `quit` and waits for the program to exit.
    static func time(_ path: String, arguments: [String] = [], environment: [String: String], size: (columns: Int, rows: Int),
        markers: [String], quit: String = "q") throws -> Double
    {
        let terminal = try PseudoTerminal(path, arguments: arguments, environment: environment, size: size)
        let master = terminal.master
        let needles = markers.map { Array($0.utf8) }
        var seen: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        var elapsed: Duration?
        let deadline = terminal.started + .seconds(10)
        while elapsed == nil, ContinuousClock.now < deadline {
            var poller = pollfd(fd: master, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 100) > 0 else { continue }
            let count = read(master, &buffer, buffer.count)
            guard count > 0 else { break }
            seen += buffer[0..<count]
            if needles.allSatisfy({ needle in seen.count >= needle.count && seen.indices.dropLast(needle.count - 1).contains { seen[$0..<($0 + needle.count)].elementsEqual(needle) } }) {
                elapsed = ContinuousClock.now - terminal.started
            }
        }
        terminal.type(quit)
        // Read on so the program never blocks on a full terminal while it quits.
        _ = terminal.finish(timeout: .seconds(10))
        guard let elapsed else { throw Failure(description: "\(markers) did not all appear") }
        return elapsed.nanoseconds / 1e6
    }
}
