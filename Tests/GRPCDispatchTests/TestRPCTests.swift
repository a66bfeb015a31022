import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `apiexplorer test` on gRPC methods: `expect:` on the status by name (`status: NOT_FOUND`,
/// `grpc-status:`), on metadata and on message fields; failures name the status.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-reflection, grpcio-status"))
struct TestRPCTests {
    static let extra = """
          found:
            grpc: routeguide.RouteGuide/GetFeature
            body: { latitude: 7, longitude: 8 }
            expect:
              grpc-status: OK
              status: 200
              body: { $.name: "feature at 7,8", $.location.latitude: 7 }
          missing:
            grpc: routeguide.Probe/Echo
            body: { text: nothing, failWith: NOT_FOUND }
            expect:
              status: NOT_FOUND
              body: { $.code: NOT_FOUND }
          echoed:
            grpc: routeguide.Probe/Echo
            headers: { x-color: green }
            body: { text: hi }
            expect:
              grpc-status: 0
              headers: { x-echo-x-color: green, x-trailer-x-color: green }
              body: { "$.metadata['x-color']": green, $.text: { startsWith: hi } }
          wrongStatus:
            grpc: routeguide.Probe/Echo
            body: { text: nothing, failWith: NOT_FOUND }
            expect:
              status: [OK, UNAVAILABLE]
          httpStatus:
            grpc: routeguide.Probe/Echo
            body: { text: nothing, failWith: NOT_FOUND }
            expect:
              status: 200
          unexpected:
            grpc: routeguide.Probe/Echo
            body: { text: nope, failWith: PERMISSION_DENIED }
        """

    private func test(_ targets: [String], catalogExtra: String = extra) async throws -> ChildProcess.Captured {
        let server = try await PythonGRPCServer.shared()
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: server.port, extra: catalogExtra)
        return try await CLI.run(["test"] + targets + ["--live", "--catalog", catalog.path], state: state)
    }

    @Test func statusByNameMetadataAndMessageFieldsHold() async throws {
        let result = try await test(["routeguide/found", "routeguide/missing", "routeguide/echoed"])
        #expect(result.status == 0, "\(result.output)\n\(result.errors)")
        #expect(result.output.contains("3 passed"), "\(result.output)")
    }

    @Test func failuresNameTheStatus() async throws {
        let wrong = try await test(["routeguide/wrongStatus"])
        #expect(wrong.status == 1)
        #expect(wrong.output.contains("grpc-status is one of OK, UNAVAILABLE"), "\(wrong.output)")
        #expect(wrong.output.contains("NOT_FOUND (5)"), "\(wrong.output)")
        // An HTTP status expected of a call: its code is said beside the status it maps to.
        let http = try await test(["routeguide/httpStatus"])
        #expect(http.status == 1)
        #expect(http.output.contains("404 (grpc-status NOT_FOUND)"), "\(http.output)")
        // Nothing expected: the call must succeed, and the failure names its status.
        let unexpected = try await test(["routeguide/unexpected"])
        #expect(unexpected.status == 1)
        #expect(unexpected.output.contains("(status 403, grpc-status PERMISSION_DENIED)"), "\(unexpected.output)")
    }

    @Test func aStatusNameThatIsNoneIsACatalogErrorWithAHint() async throws {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: 1, extra: """
              typo:
                grpc: routeguide.Probe/Echo
                body: { text: x }
                expect:
                  status: NOT_FUND
              typo2:
                grpc: routeguide.Probe/Echo
                body: { text: x }
                expect:
                  grpc-status: 99
            """)
        let result = try await CLI.run(["validate", "--catalog", catalog.path], state: state)
        #expect(result.status != 0)
        let text = result.output + result.errors
        #expect(text.contains("'status' in the expect of"), "\(text)")
        #expect(text.contains("must be a gRPC status code (NOT_FOUND, UNAVAILABLE … or 0–16), not 'NOT_FUND'"), "\(text)")
        #expect(text.contains("did you mean 'NOT_FOUND'?"), "\(text)")
        #expect(text.contains("not '99'"), "\(text)")
    }
}
