import DispatcherCore
import GRPCWire

/// A call's outcome as the dispatcher core's error: each status code mapped to the kind an HTTP
/// status of the same meaning gets (gRPC's HTTP mapping, google/rpc/code.proto), so plugins,
/// retries, handlers and token refresh treat gRPC as they treat HTTP. Pure; the table is in docs/grpc.md.
package enum GRPCErrorMapping {
    /// The HTTP status of the same meaning (google/rpc/code.proto); nil for `OK`.
    package static func httpStatus(for code: GRPCStatusCode) -> Int? {
        code == .ok ? nil : RPCStatus.httpStatus(forCode: code.rawValue)
    }

    /// The kind a status maps to; nil for `OK`.
    package static func kind(for code: GRPCStatusCode) -> ErrorKind? { RPCStatus.kind(forCode: code.rawValue) }

    /// The error of a call that did not succeed; nil when it did. A failure below gRPC keeps the
    /// HTTP transport's kinds (cannotConnect, tlsFailure, connectionLost, timeout …).
    package static func dispatchError(for result: GRPCCallResult) -> DispatchError? {
        if let transportError = result.transportError {
            var error = DispatchError(transport: transportError)
            error.source = "grpc: \(error.source)"
            return error
        }
        return dispatchError(for: result.status, method: result.method)
    }

    /// The error of a status from the server; nil for `OK`.
    package static func dispatchError(for status: GRPCStatus, method: GRPCMethodPath) -> DispatchError? {
        guard let kind = kind(for: status.code) else { return nil }
        let details = messages(of: status)
        let message = details.isEmpty ? defaultMessage(for: status.code, method: method) : "\(status.code.name): " + details.joined(separator: "; ")
        let retryAfter = status.details.lazy.compactMap { detail -> Duration? in
            if case .retryInfo(let delay) = detail { return delay }
            return nil
        }.first
        return DispatchError(
            kind: kind, message: message, details: details, status: httpStatus(for: status.code), retryAfter: retryAfter,
            source: "grpc-status \(status.code.name)")
    }

    /// What a person reads: the status message, then its details. For `INVALID_ARGUMENT` the
    /// `BadRequest` field violations are the messages, as a 400's body messages are.
    package static func messages(of status: GRPCStatus) -> [String] {
        var messages = status.lines
        if status.code == .invalidArgument {
            let violations = status.details.flatMap { detail -> [String] in
                guard case .badRequest(let violations) = detail else { return [] }
                return violations.map(\.line)
            }
            if !violations.isEmpty {
                messages = (status.message.isEmpty ? [] : [status.message]) + violations
                    + status.details.filter { if case .badRequest = $0 { false } else { true } }.flatMap(\.lines)
            }
        }
        return messages
    }

    /// The sentence for a status that came without a message.
    static func defaultMessage(for code: GRPCStatusCode, method: GRPCMethodPath) -> String {
        switch code {
        case .ok: "\(method) succeeded."
        case .cancelled: "\(method) was cancelled (CANCELLED)."
        case .unknown: "\(method) failed with an unknown error (UNKNOWN)."
        case .invalidArgument: "The server rejected the request as invalid (INVALID_ARGUMENT)."
        case .deadlineExceeded: "\(method) did not finish within its deadline (DEADLINE_EXCEEDED)."
        case .notFound: "What \(method) asked for does not exist (NOT_FOUND)."
        case .alreadyExists: "What \(method) would create already exists (ALREADY_EXISTS)."
        case .permissionDenied: "The credentials were accepted but do not allow \(method) (PERMISSION_DENIED)."
        case .resourceExhausted: "Too many requests, or a quota is used up (RESOURCE_EXHAUSTED)."
        case .failedPrecondition: "The server is not in a state to run \(method) (FAILED_PRECONDITION)."
        case .aborted: "\(method) was aborted, often by a concurrent change (ABORTED)."
        case .outOfRange: "\(method) went past a valid range (OUT_OF_RANGE)."
        case .unimplemented: "The server does not implement \(method) (UNIMPLEMENTED)."
        case .internalError: "The server failed while handling \(method) (INTERNAL)."
        case .unavailable: "The service is unavailable; trying again later may work (UNAVAILABLE)."
        case .dataLoss: "Data was lost or corrupted (DATA_LOSS)."
        case .unauthenticated: "\(method) needs valid credentials (UNAUTHENTICATED): sign in or refresh the token."
        }
    }
}

extension GRPCCallResult {
    /// The call's failure as the dispatcher core's error; nil when it succeeded.
    package var dispatchError: DispatchError? { GRPCErrorMapping.dispatchError(for: self) }
}
