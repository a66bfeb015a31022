import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `apiexplorer check` on gRPC methods: each stub against what grpcio answers (status, JSON shape
/// of the messages), and no method called without --include-unsafe (any RPC may change data).
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-reflection, grpcio-status"))
struct CheckRPCTests {
    @Test func stubsAreComparedWithWhatTheServerAnswers() async throws {
        let server = try await PythonGRPCServer.shared()
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: server.port)
        let safe = try await CLI.run(["check", "routeguide", "--catalog", catalog.path], state: state)
        #expect(safe.status == 0, "\(safe.output)\n\(safe.errors)")
        #expect(safe.output.contains("POST  skipped: the gRPC method routeguide.RouteGuide/GetFeature may change data (--include-unsafe checks it)"), "\(safe.output)")

        let checked = try await CLI.run(["check", "routeguide", "--include-unsafe", "--catalog", catalog.path], state: state)
        #expect(checked.status == 1, "\(checked.output)\n\(checked.errors)")
        // The stub's message has the live one's shape: no drift.
        #expect(checked.output.contains("✓ getFeature"), "\(checked.output)")
        // The stub's stream lacks the location every live message has.
        #expect(checked.output.contains("✗ listFeatures"), "\(checked.output)")
        #expect(checked.output.contains("location: live has it, the stub does not"), "\(checked.output)")
        // A method without a stub has nothing to compare.
        #expect(checked.output.contains("- echo"), "\(checked.output)")
    }
}
