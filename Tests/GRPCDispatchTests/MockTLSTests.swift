import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `apiexplorer mock --tls` serves the catalogs' gRPC methods over TLS too, with the HTTPS side's
/// certificate: a catalog trusting the mock's CA calls them live.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio-tools (the test protoset)"))
struct MockTLSTests {
    /// The mock's CA, as the bundled catalogs trust it.
    static let authority = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("environments/fixtures/mock-tls/ca.pem")

    @Test func grpcOverTLSAnswersFromTheFixtures() async throws {
        let served = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: served, port: 1)
        let mock = try CLI.start(
            ["mock", "--port", "0", "--tls", "--tls-port", "0", "--grpc-port", "0", "--grpc-tls-port", "0", "--catalog", served.path], state: state)
        let read = await CLI.read(mock) { $0.contains("gRPC over TLS on grpcs://127.0.0.1:") && $0.hasSuffix("\n") }
        defer {
            mock.kill(SIGTERM)
            _ = mock.wait()
        }
        #expect(read.satisfied, "\(read.text)")
        #expect(read.text.contains("  gRPC on grpc://127.0.0.1:"), "\(read.text)")
        let line = try #require(read.text.split(separator: "\n").first { $0.contains("grpcs://") })
        let port = try #require(Int(line.split(separator: ":")[2].prefix { $0.isNumber }), "\(line)")

        let client = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: client, port: 1)
        let text = try String(contentsOfFile: client.url.appendingPathComponent("routeguide.yaml").path, encoding: .utf8)
        try client.write("ca.pem", try Data(contentsOf: Self.authority))
        try client.write("routeguide.yaml", text.replacing("    baseURL: http://127.0.0.1:1\n", with: "    baseURL: https://127.0.0.1:\(port)\n    tls: { ca: ca.pem }\n"))
        let call = try await CLI.run(["call", "routeguide/getFeature", "--live", "--catalog", client.path, "--no-history"], state: state)
        #expect(call.status == 0, "\(call.errors)")
        #expect(call.output.contains("\"name\": \"stubbed\""), "\(call.output)")
        let stream = try await CLI.run(["call", "routeguide/listFeatures", "--live", "--json", "--catalog", client.path, "--no-history"], state: state)
        #expect(stream.status == 0, "\(stream.errors)")
        #expect(stream.output.split(separator: "\n").count == 3, "\(stream.output)")
        // Without the CA the certificate is not trusted: the TLS failure, not an answer.
        try client.write("routeguide.yaml", text.replacing("    baseURL: http://127.0.0.1:1\n", with: "    baseURL: https://127.0.0.1:\(port)\n"))
        let untrusted = try await CLI.run(["call", "routeguide/getFeature", "--live", "--catalog", client.path, "--no-history"], state: state)
        #expect(untrusted.status == 1)
        #expect(untrusted.errors.contains("error: tlsFailure"), "\(untrusted.errors)")
    }
}
