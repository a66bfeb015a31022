import FoundationEssentials
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A self-pipe: any thread writes a byte to wake the curses thread out of `poll()`.
final class WakePipe: Sendable {
    /// The end the curses thread polls.
    let readDescriptor: Int32
    private let writeDescriptor: Int32
    private let isClosed = Atomic<Bool>(false)

    /// Creates a non-blocking, close-on-exec pipe; nil when the system refuses.
    init?() {
        var descriptors: [Int32] = [0, 0]
        guard pipe(&descriptors) == 0 else { return nil }
        for descriptor in descriptors {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        }
        readDescriptor = descriptors[0]
        writeDescriptor = descriptors[1]
    }

    /// Wakes the reader. A full pipe already guarantees a wake-up, so errors are ignored.
    func wake() {
        guard !isClosed.load(ordering: .acquiring) else { return }
        var byte: UInt8 = 1
        _ = Glibc.write(writeDescriptor, &byte, 1)
    }

    /// Empties the pipe after a wake-up.
    func drain() {
        var scratch = [UInt8](repeating: 0, count: 64)
        while Glibc.read(readDescriptor, &scratch, scratch.count) > 0 {}
    }

    /// Closes both ends once.
    func close() {
        guard !isClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        _ = Glibc.close(readDescriptor)
        _ = Glibc.close(writeDescriptor)
    }
}
