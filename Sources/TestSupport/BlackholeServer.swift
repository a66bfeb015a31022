import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A port on 127.0.0.1 where TCP `connect` hangs: for connect-timeout tests without leaving loopback.
///
/// How it works (Linux): the socket listens with backlog 0 and never calls `accept`. The kernel
/// then queues one completed connection, which `start()` fills itself; once that queue is full,
/// Linux drops every further SYN (it neither answers nor refuses), so a client's `connect` keeps
/// retransmitting SYNs until its own timeout fires. `start()` checks this: it keeps connecting
/// until one attempt stays pending for 50 ms, and fails if none does. That pending attempt is
/// kept too: should it merely have been slow, it completes later and still fills the queue.
/// (With `tcp_syncookies=0` even the first SYN is dropped; the same loop copes.)
package final class BlackholeServer: Sendable {
    /// The port whose connects hang.
    package let port: Int
    private let descriptors: Mutex<[Int32]>

    private init(port: Int, descriptors: [Int32]) {
        self.port = port
        self.descriptors = Mutex(descriptors)
    }

    /// Opens the listener and fills its accept queue.
    package static func start() throws -> BlackholeServer {
        let (listener, port) = try RawSocket.bindLoopback()
        var descriptors = [listener]
        do {
            try RawSocket.check("listen", listen(listener, 0))
            // Backlog 0 admits one queued connection on Linux; allow a few in case a kernel admits more.
            for _ in 0..<8 {
                let (fd, connected) = try RawSocket.connectLoopback(port: port, timeoutMilliseconds: 50)
                descriptors.append(fd)
                if !connected { return BlackholeServer(port: port, descriptors: descriptors) }
            }
            throw TestServerError.timedOut("filling the accept queue: every connect to port \(port) completed")
        } catch {
            descriptors.forEach { close($0) }
            throw error
        }
    }

    /// Closes the listener and the connections that filled its queue. Safe to call more than once.
    package func shutdown() {
        let open = descriptors.withLock { descriptors in
            defer { descriptors = [] }
            return descriptors
        }
        open.forEach { close($0) }
    }

    deinit {
        shutdown()
    }
}
