import DispatcherCore
import Foundation
import JSONSupport
import Testing
import TestTraits

@Suite(.offPool) struct ErrorFilterTests {
    func error(_ sampleResponse: SampleResponse, rules: [ErrorRule] = [], method: HTTPMethod = .get) async -> DispatchError? {
        let dispatcher = Dispatcher<Target>(environment: environment(), errorFilter: ErrorFilter(rules: rules))
        return await dispatcher.send(Target(method, "/x", sampleResponse: sampleResponse)).error
    }

    @Test func theStatusTable() async {
        let table: [(Int, ErrorKind, String)] = [
            (400, .badRequest, "The server rejected the request as invalid (400 Bad Request)."),
            (401, .unauthorized, "The request needs valid credentials (401 Unauthorized): sign in or refresh the token."),
            (403, .forbidden, "The credentials were accepted but do not allow this (403 Forbidden)."),
            (404, .notFound, "Nothing exists at this URL (404 Not Found)."),
            (429, .tooManyRequests, "Too many requests: the server is rate limiting (429 Too Many Requests)."),
            (500, .internalServerError, "The server failed while handling the request (500 Internal Server Error)."),
            (418, .clientError(418), "The server refused the request (418 I'm a teapot)."),
            (503, .serverError(503), "The server failed (503 Service Unavailable)."),
        ]
        for (status, kind, message) in table {
            let mapped = await error(.status(status, Data()))
            #expect(mapped?.kind == kind, "status \(status)")
            #expect(mapped?.message == message, "status \(status)")
            #expect(mapped?.status == status)
            #expect(mapped?.source == "status \(status)")
        }
    }

    @Test func aRulesPathThatFindsNothingFallsBackToATextBodyButNotToJSONOrMarkup() async throws {
        let rule = ErrorRule(
            name: "400", statuses: .codes([400]), when: nil, kind: .badRequest,
            message: .path(try JSONPath("$.errors[*].message")))
        let text = await error(.response(status: 400, headers: Headers([("Content-Type", "text/plain")], origin: .server), body: Data("  username is required\npassword is required \n".utf8)), rules: [rule])
        #expect(text?.message == "username is required password is required")
        let json = await error(sample(400, #"{"errors":[{"message":"name is required"}]}"#), rules: [rule])
        #expect(json?.message == "name is required")
        let otherJSON = await error(sample(400, #"{"oops":true}"#), rules: [rule])
        #expect(otherJSON?.message == "The server rejected the request as invalid (400 Bad Request).")
        let html = await error(.status(400, Data("<html><body>Bad</body></html>".utf8)), rules: [rule])
        #expect(html?.message == "The server rejected the request as invalid (400 Bad Request).")
    }

    @Test func badRequestGathersMessagesFromTheBody() async {
        let mapped = await error(sample(400, #"[{"message":"name is required"},{"message":"age must be positive"}]"#))
        #expect(mapped?.kind == .badRequest)
        #expect(mapped?.message == "name is required; age must be positive")
        #expect(mapped?.details == ["name is required", "age must be positive"])

        let nested = await error(sample(400, #"{"errors":[{"field":"x","message":"bad x"}],"error":{"message":"invalid"}}"#))
        #expect(nested?.details == ["invalid", "bad x"])

        let problem = await error(sample(404, #"{"type":"about:blank","title":"Not Found","detail":"No pet 7"}"#))
        #expect(problem?.message == "No pet 7; Not Found")

        let notJSON = await error(.status(400, Data("<html>oops</html>".utf8)))
        #expect(notJSON?.message == "The server rejected the request as invalid (400 Bad Request).")
    }

    @Test func tooManyRequestsCarriesRetryAfter() async {
        let mapped = await error(sample(429, "", headers: [("Retry-After", "7")]))
        #expect(mapped?.kind == .tooManyRequests)
        #expect(mapped?.retryAfter == .seconds(7))
        #expect(mapped?.message == "Too many requests: the server is rate limiting (429 Too Many Requests). Retry after 7 s.")
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() {
        let now = Date(timeIntervalSince1970: 784_111_777)  // Sun, 06 Nov 1994 08:49:37 GMT
        #expect(RetryAfter.parse("120") == .seconds(120))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:47 GMT", now: now) == .seconds(10))
        #expect(RetryAfter.parse("Sun, 06 Nov 1994 08:49:00 GMT", now: now) == .zero)
        #expect(RetryAfter.parse("soon") == nil)
        #expect(HTTPDate.format(now) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }

    @Test func transportFailuresMapByCode() async {
        let table: [(TransportError.Code, ErrorKind)] = [
            (.notConnectedToInternet, .notConnected), (.timedOut, .timeout), (.cannotConnectToHost, .cannotConnect),
            (.cannotFindHost, .cannotConnect), (.networkConnectionLost, .connectionLost),
            (.secureConnectionFailed, .tlsFailure), (.serverCertificateUntrusted, .tlsFailure),
            (.pinningFailed, .pinningFailed), (.cancelled, .cancelled), (.bodyTooLarge, .bodyTooLarge),
            (.cannotDecodeContentData, .decodingFailed), (.unknown, .unknown),
        ]
        for (code, kind) in table {
            let mapped = await error(.networkError(TransportError(code)))
            #expect(mapped?.kind == kind, "\(code)")
            #expect(mapped?.message == TransportError.defaultMessage(for: code))
            #expect(mapped?.transportError?.code == code)
        }
        let timeout = await error(.networkError(TransportError(.timedOut, timeoutPhase: .read)))
        #expect(timeout?.message == "The server stopped sending before the response was complete (read timeout).")
    }

    @Test func findsAnErrorHiddenInASuccessBody() async throws {
        let rule = ErrorRule(
            name: "applicationError", statuses: .range(200...299), when: try JSONPath("$.error"),
            kind: .custom("applicationError"), message: .path(try JSONPath("$.error.message")))
        let hidden = await error(sample(200, #"{"error":{"code":17,"message":"quota exceeded"}}"#), rules: [rule])
        #expect(hidden?.kind == .custom("applicationError"))
        #expect(hidden?.message == "quota exceeded")
        #expect(hidden?.source == "rule applicationError")
        #expect(hidden?.status == 200)

        #expect(await error(sample(200, #"{"error":null,"data":1}"#), rules: [rule]) == nil)
        #expect(await error(sample(200, #"{"data":1}"#), rules: [rule]) == nil)
        #expect(await error(.status(200, Data("not json".utf8)), rules: [rule]) == nil)
    }

    @Test func catalogRulesComeBeforeTheTable() async throws {
        let rules = [
            ErrorRule(name: "expired", statuses: .codes([401]), kind: .custom("expiredUserSession"), message: .text("Your session expired.")),
            ErrorRule(name: "validation", statuses: .codes([422]), kind: .badRequest, message: .path(try JSONPath("$.errors[*].msg"))),
        ]
        let expired = await error(.status(401, Data()), rules: rules)
        #expect(expired?.kind == .custom("expiredUserSession"))
        #expect(expired?.message == "Your session expired.")
        let validation = await error(sample(422, #"{"errors":[{"msg":"too short"},{"msg":"no digits"}]}"#), rules: rules)
        #expect(validation?.kind == .badRequest)
        #expect(validation?.message == "too short; no digits")
        #expect(await error(.status(403, Data()), rules: rules)?.kind == .forbidden)
    }

    @Test func anEmptySuccessWhereDataWasExpectedIsNoData() async {
        #expect(await error(.status(200, Data()))?.kind == .noData)
        #expect(await error(.status(204, Data())) == nil)
        #expect(await error(.status(201, Data()), method: .post) == nil)
        #expect(await error(.status(200, Data()), method: .head) == nil)
    }

    @Test func validationDecidesWhatIsSuccess() async {
        let dispatcher = Dispatcher<Target>(environment: environment())
        let target = Target(.get, "/x", sampleResponse: .status(404, Data("gone".utf8)), validation: .customCodes([200, 404]))
        #expect(await dispatcher.send(target).error == nil)
        let redirect = Target(.get, "/x", sampleResponse: .status(302, Data("r".utf8)))
        #expect(await dispatcher.send(redirect).error?.kind == .unknown)
        #expect(ValidationType.successAndRedirectCodes.accepts(302))
        #expect(ValidationType.none.accepts(500))
    }

    @Test func decodingFailuresAreTyped() throws {
        struct Pet: Decodable { let id: Int }
        let response = Response(status: 200, body: Data(#"{"id":"seven"}"#.utf8))
        #expect(throws: DispatchError.self) { try response.decode(Pet.self) }
        do {
            _ = try response.decode(Pet.self)
        } catch {
            #expect(error.kind == .decodingFailed)
        }
        #expect(try Response(status: 200, body: Data(#"{"id":7}"#.utf8)).decode(Pet.self).id == 7)
    }

    @Test func errorKindsRoundTripTheirNames() {
        for name in ErrorKind.builtInNames {
            #expect(ErrorKind(name: name, status: 418).name == name)
        }
        #expect(ErrorKind(name: "clientError", status: 418) == .clientError(418))
        #expect(ErrorKind(name: "expiredUserSession") == .custom("expiredUserSession"))
    }
}
