import DispatcherCore
import Foundation
import Testing
import TestTraits

/// A gRPC call's response (its status in `grpc-status`, its JSON body) mapped by the error filter,
/// and the retry policy's one exception for it.
@Suite(.offPool) struct RPCStatusTests {
    private func error(code: Int, body: String) async -> DispatchError? {
        let dispatcher = Dispatcher<Target>(environment: environment())
        let headers: Headers = ["grpc-status": String(code)]
        let sample = SampleResponse.response(status: RPCStatus.httpStatus(forCode: code), headers: headers, body: Data(body.utf8))
        return await dispatcher.send(Target(.post, "/pkg.Service/Method", sampleResponse: sample)).error
    }

    @Test func eachCodeMapsToItsKind() async {
        let expected: [(Int, ErrorKind, Int)] = [
            (1, .cancelled, 499), (3, .badRequest, 400), (4, .timeout, 504), (5, .notFound, 404), (7, .forbidden, 403), (8, .tooManyRequests, 429),
            (12, .serverError(501), 501), (13, .internalServerError, 500), (14, .serverError(503), 503), (16, .unauthorized, 401),
        ]
        for (code, kind, status) in expected {
            let found = await error(code: code, body: #"{"code": "X", "message": "m", "details": []}"#)
            #expect(found?.kind == kind, "\(code)")
            #expect(found?.status == status, "\(code)")
            #expect(found?.source == "grpc-status \(RPCStatus.name(of: code))")
        }
        #expect(await error(code: 0, body: "{}") == nil)
    }

    @Test func theMessageDetailsViolationsAndRetryDelayAreRead() async throws {
        let invalid = try #require(await error(code: 3, body: #"{"message": "bad", "details": ["ErrorInfo: X (domain d)", "a: b"], "violations": ["a: b"]}"#))
        #expect(invalid.message == "INVALID_ARGUMENT: bad; ErrorInfo: X (domain d); a: b")
        #expect(invalid.details == ["a: b"])
        let exhausted = try #require(await error(code: 8, body: #"{"message": "", "details": [], "retryDelay": "2.5s"}"#))
        #expect(exhausted.retryAfter == .milliseconds(2500))
        #expect(exhausted.message == "The server answered RESOURCE_EXHAUSTED (8) without a message.")
    }

    @Test func anUnavailablePostIsRetriedAndOtherPostsAreNot() {
        let policy = RetryPolicy()
        let request = Request(identifier: "x", method: .post, url: testBaseURL, settings: TransportSettings(environment: environment()))
        func failure(_ code: Int) -> DispatchError {
            let response = Response(status: RPCStatus.httpStatus(forCode: code), headers: ["grpc-status": String(code)])
            return DispatchError(kind: RPCStatus.kind(forCode: code) ?? .unknown, message: "", status: response.status, retryAfter: .seconds(1), response: response, source: "")
        }
        #expect(policy.decision(for: request, error: failure(14), attempt: 1) == .retry(after: .seconds(1)))
        #expect(policy.decision(for: request, error: failure(13), attempt: 1) == .doNotRetry)
    }
}
