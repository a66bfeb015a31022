/// Ports for connection-refused tests.
package enum TestPorts {
    /// The port every `closedPort()` call returns, held for the whole process.
    private static let refusing: Result<Int, any Error> = Result {
        // Bound but never listening: the kernel answers SYNs with RST, and no one else can take the port.
        try RawSocket.bindLoopback().port
    }

    /// A port on 127.0.0.1 where nothing listens, so connecting is refused at once (ECONNREFUSED).
    ///
    /// The port stays bound (without `listen`) for the life of the process, so no other server
    /// can take it while tests run; every call returns the same port.
    package static func closedPort() throws -> Int {
        try refusing.get()
    }
}
