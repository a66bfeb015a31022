import Foundation

/// Failures of the test servers themselves.
package enum TestServerError: Error, CustomStringConvertible {
    /// The bound socket reported no local address.
    case noLocalAddress
    /// A wait did not finish in time.
    case timedOut(String)
    /// A system call failed while setting up a raw socket server.
    case systemCall(String, errno: Int32)

    /// A readable explanation.
    package var description: String {
        switch self {
        case .noLocalAddress: "the listening socket has no local address"
        case .timedOut(let what): "timed out \(what)"
        case .systemCall(let call, let errno): "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))"
        }
    }
}
