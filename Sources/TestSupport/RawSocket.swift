#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Minimal blocking-free IPv4 TCP socket calls for servers NIO cannot express
/// (a listener that never accepts, a port that is bound but not listening).
enum RawSocket {
    #if canImport(Glibc)
    private static let streamType = Int32(SOCK_STREAM.rawValue)
    #else
    private static let streamType = SOCK_STREAM
    #endif

    /// A TCP socket bound to 127.0.0.1:`port` (0 = any free port), not yet listening.
    static func bindLoopback(port: Int = 0) throws -> (fd: Int32, port: Int) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw TestServerError.systemCall("socket", errno: errno) }
        do {
            var address = loopbackAddress(port: port)
            try check("bind", withSockaddr(&address) { bind(fd, $0, $1) })
            return (fd, try localPort(fd))
        } catch {
            close(fd)
            throw error
        }
    }

    /// Starts a non-blocking connect to 127.0.0.1:`port` and waits up to `timeoutMilliseconds`
    /// for it to complete; returns the socket and whether it connected.
    static func connectLoopback(port: Int, timeoutMilliseconds: Int32) throws -> (fd: Int32, connected: Bool) {
        let fd = socket(AF_INET, streamType, 0)
        guard fd >= 0 else { throw TestServerError.systemCall("socket", errno: errno) }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        var address = loopbackAddress(port: port)
        let result = withSockaddr(&address) { connect(fd, $0, $1) }
        if result == 0 { return (fd, true) }
        guard errno == EINPROGRESS else {
            let error = errno
            close(fd)
            throw TestServerError.systemCall("connect", errno: error)
        }
        var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&poller, 1, timeoutMilliseconds) == 1 else { return (fd, false) }
        var socketError: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &socketError, &length)
        return (fd, socketError == 0)
    }

    static func check(_ call: String, _ result: Int32) throws {
        guard result == 0 else { throw TestServerError.systemCall(call, errno: errno) }
    }

    private static func localPort(_ fd: Int32) throws -> Int {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let result = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        try check("getsockname", result)
        return Int(UInt16(bigEndian: address.sin_port))
    }

    private static func loopbackAddress(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(truncatingIfNeeded: port).bigEndian
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        return address
    }

    private static func withSockaddr(
        _ address: inout sockaddr_in, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
    ) -> Int32 {
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
