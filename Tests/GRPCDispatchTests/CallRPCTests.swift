import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `apiexplorer call` on a catalog's gRPC methods, live against grpcio (Python) and from stubs:
/// the four kinds, metadata with templating, mapped statuses, messages checked before sending.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-reflection, grpcio-status"))
struct CallRPCTests {
    /// A catalog of the shared Python server, and `call ARGUMENTS… --catalog it --no-history`.
    private func call(_ arguments: [String], extra: String = "") async throws -> ChildProcess.Captured {
        let server = try await PythonGRPCServer.shared()
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: server.port, extra: extra)
        return try await CLI.run(["call"] + arguments + ["--catalog", catalog.path, "--no-history"], state: state)
    }

    private func json(_ text: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
    }

    @Test func aUnaryCallPrintsTheResponseMessageAsJSON() async throws {
        let result = try await call(["routeguide/getFeature", "--live"])
        #expect(result.status == 0, "\(result.errors)")
        let reply = try #require(try json(result.output) as? [String: Any])
        #expect(reply["name"] as? String == "feature at 409146138,-746188906")
        let location = try #require(reply["location"] as? [String: Any])
        #expect(location["longitude"] as? Int == -746188906)
    }

    @Test func metadataIsTemplatedAndEchoedAndTrailersComeBackAsHeaders() async throws {
        let result = try await call(["routeguide/echo", "--live", "--var", "token=t-42", "--include"])
        #expect(result.status == 0, "\(result.errors)")
        // The server echoes x- metadata in its reply's map, its headers (x-echo-…) and trailers
        // (x-trailer-…); a value named token is a secret, masked wherever it comes back.
        #expect(result.output.contains("x-echo-x-token: ••••"), "\(result.output)")
        #expect(result.output.contains("x-trailer-x-team: blue"), "\(result.output)")
        #expect(result.output.contains("grpc-status: 0"))
        #expect(result.output.contains("\"x-token\": \"••••\""))
        #expect(!result.output.contains("t-42"))
        let revealed = try await call(["routeguide/echo", "--live", "--var", "token=t-42", "--reveal"])
        #expect(revealed.output.contains("\"x-token\": \"t-42\""), "\(revealed.output)")
    }

    @Test func aServerStreamIsAListOfMessages() async throws {
        let result = try await call(["routeguide/listFeatures", "--live"])
        #expect(result.status == 0, "\(result.errors)")
        let features = try #require(try json(result.output) as? [[String: Any]])
        #expect(features.compactMap { $0["name"] as? String } == ["feature 1", "feature 2", "feature 3"])
    }

    @Test func aClientStreamTakesTheBodysListOrRepeatedMessages() async throws {
        let fromCatalog = try await call(["routeguide/recordRoute", "--live"])
        #expect(fromCatalog.status == 0, "\(fromCatalog.errors)")
        #expect((try json(fromCatalog.output) as? [String: Any])?["pointCount"] as? Int == 2)
        let given = try await call([
            "routeguide/recordRoute", "--live", "--message", #"{"latitude": 1}"#, "--message", #"{"latitude": 2}"#, "--message", #"{"latitude": 3}"#,
        ])
        #expect(given.status == 0, "\(given.errors)")
        #expect((try json(given.output) as? [String: Any])?["pointCount"] as? Int == 3)
    }

    @Test func aStatusMapsToTheErrorKindWithItsDetails() async throws {
        let notFound = try await call(["routeguide/fail", "--live"])
        #expect(notFound.status == 1)
        #expect(notFound.errors.contains("error: notFound (HTTP 404): NOT_FOUND: nothing here"), "\(notFound.errors)")
        #expect(notFound.errors.contains("ErrorInfo: PROBE_NOT_FOUND (domain probe.test)"), "\(notFound.errors)")
        let invalid = try await call(["routeguide/fail", "--live", "--var", "code=INVALID_ARGUMENT", "--json"])
        #expect(invalid.status == 1)
        let entry = try #require(try json(invalid.output) as? [String: Any])
        let error = try #require(entry["error"] as? [String: Any], "\(invalid.output)")
        #expect(error["kind"] as? String == "badRequest")
        #expect(error["status"] as? Int == 400)
        // INVALID_ARGUMENT's BadRequest field violations are in the error's message.
        #expect((error["message"] as? String)?.contains("text: must not be empty; count: must be positive") == true, "\(error)")
        let unauthenticated = try await call(["routeguide/fail", "--live", "--var", "code=UNAUTHENTICATED"])
        #expect(unauthenticated.errors.contains("error: unauthorized (HTTP 401)"), "\(unauthenticated.errors)")
        let deadline = try await call(["routeguide/fail", "--live", "--var", "code=DEADLINE_EXCEEDED"])
        #expect(deadline.errors.contains("error: timeout"), "\(deadline.errors)")
    }

    @Test func aWrongFieldIsAnErrorAtItsPathAndNothingIsSent() async throws {
        let result = try await call(["routeguide/getFeature", "--live", "--message", #"{"latitude": 1, "longitud": 2}"#])
        #expect(result.status != 0)
        #expect(result.errors.contains("$.longitud"), "\(result.errors)")
        #expect(result.errors.contains("Nothing was sent"), "\(result.errors)")
        let type = try await call(["routeguide/getFeature", "--live", "--message", #"{"latitude": "north"}"#])
        #expect(type.errors.contains("$.latitude"), "\(type.errors)")
    }

    @Test func stubsAnswerAsTheServerWould() async throws {
        let message = try await call(["routeguide/getFeature", "--stub"])
        #expect(message.status == 0, "\(message.errors)")
        #expect((try json(message.output) as? [String: Any])?["name"] as? String == "stubbed")
        let stream = try await call(["routeguide/listFeatures", "--stub"])
        #expect((try json(stream.output) as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["a", "b"])
        let gone = try await call(["routeguide/getFeature", "--stub", "--example", "gone"])
        #expect(gone.status == 1)
        #expect(gone.errors.contains("error: notFound (HTTP 404): NOT_FOUND: no feature there; ErrorInfo: GONE (domain routes.test)"), "\(gone.errors)")
        let slow = try await call(["routeguide/getFeature", "--stub", "--example", "slow", "--json"])
        let error = try #require((try json(slow.output) as? [String: Any])?["error"] as? [String: Any], "\(slow.output)")
        #expect(error["kind"] as? String == "tooManyRequests")
    }

    @Test func aServerThatIsNotThereIsCannotConnect() async throws {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        // Port 1 (tcpmux): nothing listens there on a test machine, and the connection is refused.
        try await RouteGuideCatalog.write(into: catalog, port: 1)
        let result = try await CLI.run(["call", "routeguide/getFeature", "--live", "--catalog", catalog.path, "--no-history"], state: state)
        #expect(result.status == 1)
        #expect(result.errors.contains("error: cannotConnect"), "\(result.errors)")
    }
}
