import GRPCCore

/// A gRPC status code: the numbers and names of gRPC's status-code document.
package enum GRPCStatusCode: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    case ok = 0
    case cancelled = 1
    case unknown = 2
    case invalidArgument = 3
    case deadlineExceeded = 4
    case notFound = 5
    case alreadyExists = 6
    case permissionDenied = 7
    case resourceExhausted = 8
    case failedPrecondition = 9
    case aborted = 10
    case outOfRange = 11
    case unimplemented = 12
    case internalError = 13
    case unavailable = 14
    case dataLoss = 15
    case unauthenticated = 16

    /// The name as gRPC writes it: `NOT_FOUND`.
    package var name: String {
        switch self {
        case .ok: "OK"
        case .cancelled: "CANCELLED"
        case .unknown: "UNKNOWN"
        case .invalidArgument: "INVALID_ARGUMENT"
        case .deadlineExceeded: "DEADLINE_EXCEEDED"
        case .notFound: "NOT_FOUND"
        case .alreadyExists: "ALREADY_EXISTS"
        case .permissionDenied: "PERMISSION_DENIED"
        case .resourceExhausted: "RESOURCE_EXHAUSTED"
        case .failedPrecondition: "FAILED_PRECONDITION"
        case .aborted: "ABORTED"
        case .outOfRange: "OUT_OF_RANGE"
        case .unimplemented: "UNIMPLEMENTED"
        case .internalError: "INTERNAL"
        case .unavailable: "UNAVAILABLE"
        case .dataLoss: "DATA_LOSS"
        case .unauthenticated: "UNAUTHENTICATED"
        }
    }

    /// Reads a name (`NOT_FOUND`, any case, `-` or `_`) or a number (`5`).
    package init?(name text: String) {
        if let number = Int(text), let code = GRPCStatusCode(rawValue: number) {
            self = code
            return
        }
        let wanted = text.uppercased().replacing("-", with: "_")
        guard let code = Self.allCases.first(where: { $0.name == wanted }) else { return nil }
        self = code
    }

    /// The code of a `grpc-status` value; a number outside the table is `UNKNOWN`, as gRPC's
    /// status-code document asks of clients.
    package init(wireValue: Int) {
        self = GRPCStatusCode(rawValue: wireValue) ?? .unknown
    }

    /// GRPCCore's code for the same status.
    package var core: Status.Code {
        Status.Code(rawValue: rawValue) ?? .unknown
    }

    /// The code of GRPCCore's status code.
    package init(_ code: Status.Code) {
        self = GRPCStatusCode(rawValue: code.rawValue) ?? .unknown
    }

    /// The code of GRPCCore's error code.
    package init(_ code: RPCError.Code) {
        self = GRPCStatusCode(rawValue: code.rawValue) ?? .unknown
    }

    /// `NOT_FOUND (5)`.
    package var description: String { "\(name) (\(rawValue))" }
}
