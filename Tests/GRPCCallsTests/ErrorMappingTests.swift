import DispatcherCore
import GRPCWire
import Testing

@testable import GRPCCalls
import TestTraits

/// Status codes mapped to the dispatcher core's error kinds (docs/grpc.md has the table): the
/// kind, the HTTP status retries and token refresh key on, the messages, Retry-After.
@Suite(.offPool) struct ErrorMappingTests {
    static let method = GRPCMethodPath(service: "routeguide.RouteGuide", method: "GetFeature")

    static func error(_ status: GRPCStatus) -> DispatchError? {
        GRPCErrorMapping.dispatchError(for: status, method: method)
    }

    @Test func everyCodeHasItsKindAndHTTPStatus() {
        let table: [(GRPCStatusCode, ErrorKind?, Int?)] = [
            (.ok, nil, nil),
            (.cancelled, .cancelled, 499),
            (.unknown, .internalServerError, 500),
            (.invalidArgument, .badRequest, 400),
            (.deadlineExceeded, .timeout, 504),
            (.notFound, .notFound, 404),
            (.alreadyExists, .clientError(409), 409),
            (.permissionDenied, .forbidden, 403),
            (.resourceExhausted, .tooManyRequests, 429),
            (.failedPrecondition, .badRequest, 400),
            (.aborted, .clientError(409), 409),
            (.outOfRange, .badRequest, 400),
            (.unimplemented, .serverError(501), 501),
            (.internalError, .internalServerError, 500),
            (.unavailable, .serverError(503), 503),
            (.dataLoss, .internalServerError, 500),
            (.unauthenticated, .unauthorized, 401),
        ]
        #expect(table.count == GRPCStatusCode.allCases.count)
        for (code, kind, http) in table {
            #expect(GRPCErrorMapping.kind(for: code) == kind, "\(code)")
            #expect(GRPCErrorMapping.httpStatus(for: code) == http, "\(code)")
            let error = Self.error(GRPCStatus(code: code))
            #expect(error?.kind == kind, "\(code)")
            #expect(error?.status == http, "\(code)")
            #expect(error?.source == (code == .ok ? nil : "grpc-status \(code.name)"))
        }
    }

    @Test func unauthenticatedTriggersTheSameRefreshAsA401AndUnavailableTheSameRetryAsA503() {
        let unauthenticated = Self.error(GRPCStatus(code: .unauthenticated, message: "token expired"))
        #expect(unauthenticated?.kind == .unauthorized && unauthenticated?.status == 401)
        let unavailable = Self.error(GRPCStatus(code: .unavailable))
        #expect(RetryPolicy().statuses.contains(unavailable?.status ?? 0))
    }

    @Test func invalidArgumentsMessagesAreItsFieldViolations() {
        let status = GRPCStatus(
            code: .invalidArgument, message: "the request is invalid",
            details: [
                .errorInfo(reason: "BAD", domain: "d", metadata: [:]),
                .badRequest([.init(field: "name", description: "must not be empty"), .init(field: "age", description: "must be positive")]),
            ])
        let error = Self.error(status)
        #expect(error?.kind == .badRequest)
        #expect(error?.details == ["the request is invalid", "name: must not be empty", "age: must be positive", "ErrorInfo: BAD (domain d)"])
        #expect(error?.message == "INVALID_ARGUMENT: the request is invalid; name: must not be empty; age: must be positive; ErrorInfo: BAD (domain d)")
    }

    @Test func retryInfosDelayIsTheRetryAfter() {
        let exhausted = Self.error(GRPCStatus(code: .resourceExhausted, message: "slow down", details: [.retryInfo(delay: .milliseconds(1500))]))
        #expect(exhausted?.kind == .tooManyRequests)
        #expect(exhausted?.retryAfter == .milliseconds(1500))
        let unavailable = Self.error(GRPCStatus(code: .unavailable, details: [.retryInfo(delay: .seconds(3))]))
        #expect(unavailable?.retryAfter == .seconds(3))
        #expect(Self.error(GRPCStatus(code: .resourceExhausted))?.retryAfter == nil)
    }

    @Test func aStatusWithoutAMessageGetsASentenceNamingTheMethod() {
        #expect(Self.error(GRPCStatus(code: .notFound))?.message == "What routeguide.RouteGuide/GetFeature asked for does not exist (NOT_FOUND).")
        #expect(Self.error(GRPCStatus(code: .unimplemented))?.message == "The server does not implement routeguide.RouteGuide/GetFeature (UNIMPLEMENTED).")
    }

    @Test func aFailureBelowGRPCKeepsTheTransportsKind() {
        let lost = TransportError(.networkConnectionLost, message: "h:1 closed the connection after 2 messages, before the call's status.")
        let result = GRPCCallResult(
            method: Self.method, headers: GRPCMetadata(), messages: [], messageCount: 2, trailers: GRPCMetadata(),
            status: GRPCStatus(code: .unavailable, message: lost.message), transportError: lost, headersAfter: nil, firstMessageAfter: nil,
            duration: .zero)
        let error = result.dispatchError
        #expect(error?.kind == .connectionLost)
        #expect(error?.transportError == lost)
        #expect(error?.message == lost.message)
        #expect(error?.source == "grpc: transport: networkConnectionLost")
        var ok = result
        ok.status = .ok
        ok.transportError = nil
        #expect(ok.dispatchError == nil)
    }
}
