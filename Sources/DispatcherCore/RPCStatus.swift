import FoundationEssentials
import JSONSupport

/// gRPC's status as the core reads it from a response. A gRPC call's response (from the gRPC
/// transport, or a stub written as one) carries `grpc-status` among its headers (the trailers are
/// merged in), an HTTP status of the same meaning (google/rpc/code.proto), and on failure a JSON
/// body `{"code": "NOT_FOUND", "message": …, "details": [lines], "violations": [BadRequest's lines],
/// "retryDelay": "2s"}`; the error
/// filter maps it here, so stub and live, retries, handlers and token refresh treat it as HTTP.
package enum RPCStatus {
    /// A request's Content-Type when it is a gRPC call (its body the request message as JSON):
    /// what sends it to the gRPC transport.
    package static let contentType = "application/grpc"
    /// The header (a trailer, on the wire) holding the code.
    package static let header = "grpc-status"

    /// The codes' names, by number (gRPC's status-code document).
    package static let codeNames = [
        "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED",
        "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
        "UNAUTHENTICATED",
    ]

    /// `UNAVAILABLE`: retried whatever the method, as the server did not run the call.
    package static let unavailable = 14
    /// `INVALID_ARGUMENT`: its details (the `BadRequest` field violations) are the error's messages.
    package static let invalidArgument = 3

    /// A code by its name (`NOT_FOUND`, any case, `-` for `_`) or number (`5`).
    package static func code(named text: String) -> Int? {
        if let number = Int(text), codeNames.indices.contains(number) { return number }
        let wanted = text.uppercased().replacing("-", with: "_")
        return codeNames.firstIndex(of: wanted)
    }

    /// The name of a code; `UNKNOWN` for a number outside the table (as clients must read it).
    package static func name(of code: Int) -> String { codeNames.indices.contains(code) ? codeNames[code] : "UNKNOWN" }

    /// The HTTP status of the same meaning; 200 for `OK`.
    package static func httpStatus(forCode code: Int) -> Int {
        switch code {
        case 0: 200
        case 1: 499
        case 3, 9, 11: 400
        case 4: 504
        case 5: 404
        case 6, 10: 409
        case 7: 403
        case 8: 429
        case 12: 501
        case 14: 503
        case 16: 401
        default: 500
        }
    }

    /// The kind a code maps to; nil for `OK`. A deadline is a timeout whoever noticed it, and
    /// `CANCELLED` a cancellation (its 499 is nginx's "client closed request").
    package static func kind(forCode code: Int) -> ErrorKind? {
        switch code {
        case 0: nil
        case 1: .cancelled
        case 4: .timeout
        default: ErrorKind(status: httpStatus(forCode: code))
        }
    }

    /// Whether a request is a gRPC call.
    package static func isCall(_ request: Request) -> Bool { request.headers["Content-Type"] == contentType }

    /// The code a response carries in `grpc-status`; nil for a response that is not a gRPC call's.
    package static func code(of response: Response) -> Int? {
        response.headers[header].flatMap { Int($0) }
    }

    /// The error of a gRPC call's response with a status other than `OK`; nil otherwise.
    static func error(for response: Response) -> DispatchError? {
        guard let code = code(of: response), code != 0, let kind = kind(forCode: code) else { return nil }
        var serverMessage = ""
        var lines: [String] = []
        var violations: [String] = []
        var retryAfter: Duration?
        if let body = try? JSONValue.parse(response.body), case .object(let object) = body {
            if case .string(let text)? = object["message"] { serverMessage = text }
            if case .array(let details)? = object["details"] {
                lines = details.compactMap { if case .string(let line) = $0 { line } else { nil } }
            }
            if case .array(let found)? = object["violations"] {
                violations = found.compactMap { if case .string(let line) = $0 { line } else { nil } }
            }
            if case .string(let delay)? = object["retryDelay"] { retryAfter = seconds(delay) }
        }
        let all = (serverMessage.isEmpty ? [] : [serverMessage]) + lines
        let name = name(of: code)
        let message = all.isEmpty ? "The server answered \(name) (\(code)) without a message." : "\(name): " + all.joined(separator: "; ")
        return DispatchError(
            kind: kind, message: message, details: code == invalidArgument && !violations.isEmpty ? violations : all, status: response.status,
            retryAfter: retryAfter, response: response, source: "grpc-status \(name)")
    }

    /// Whether a failure is a gRPC call's `UNAVAILABLE`.
    static func isUnavailable(_ error: DispatchError) -> Bool {
        error.response.flatMap(code(of:)) == unavailable
    }

    /// `2s`, `1.5s` (a protobuf Duration in JSON) as a duration.
    package static func seconds(_ text: String) -> Duration? {
        guard text.hasSuffix("s"), let value = Double(text.dropLast()), value >= 0, value.isFinite else { return nil }
        return .milliseconds(Int64((value * 1000).rounded()))
    }
}
