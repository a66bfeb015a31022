/// Bytes on a gRPC stream that break the protocol, or a message the receiver refuses: the status
/// code the call ends with, and what happened in words.
package struct GRPCWireError: Error, Sendable, Hashable, CustomStringConvertible {
    package var code: GRPCStatusCode
    package var message: String

    package init(_ code: GRPCStatusCode, _ message: String) {
        self.code = code
        self.message = message
    }

    package var description: String { "\(code.name): \(message)" }
}
