import DispatcherCore
import GRPCCalls
import GRPCTransport
import SwiftProtobuf
import Testing

@testable import GRPCReflection
import TestSupport
import TestTraits

/// Descriptors from server reflection: grpcio's (v1alpha only, so the client falls back to it),
/// a server without reflection, and the same descriptors a protoset of the proto gives.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-tools, grpcio-reflection, grpcio-status"))
struct ReflectionTests {
    static func fetch(port: Int, secure: Bool = false, trust: ServerTrust = ServerTrust()) async throws -> GRPCReflectionClient.Result {
        let connection = try GRPCConnection(target: GRPCTarget(host: "127.0.0.1", port: port, secure: secure, trust: trust))
        return try await withShutdown {
            try await GRPCReflectionClient(connection: connection).fetch()
        } shutdown: {
            await connection.close()
        }
    }

    @Test func grpcioServesV1AlphaAndTheClientFallsBackToIt() async throws {
        let server = try await PythonGRPCServer.shared()
        let result = try await Self.fetch(port: server.port)
        #expect(result.api == .v1alpha)
        #expect(result.services == ["grpc.reflection.v1alpha.ServerReflection", "routeguide.Probe", "routeguide.RouteGuide"])
        let names = result.set.file.map(\.name)
        #expect(names.contains("routeguide.proto"))
        // Dependencies first, as protoc --include_imports orders them.
        let timestamp = try #require(names.firstIndex(of: "google/protobuf/timestamp.proto"))
        #expect(timestamp < names.firstIndex(of: "routeguide.proto")!)
        try GRPCProtoset.checkComplete(result.set, source: "reflection")
        #expect(result.notes.isEmpty, "\(result.notes)")
    }

    @Test func reflectionOverTLS() async throws {
        let server = try await PythonGRPCServer.shared(.init(tls: true))
        let result = try await Self.fetch(port: server.port, secure: true, trust: ServerTrust(certificateAuthority: TestCertificates.ca.certificateURL))
        #expect(result.services.contains("routeguide.RouteGuide"))
    }

    @Test func aServerWithoutReflectionSaysWhatToImportInstead() async throws {
        let server = try await PythonGRPCServer.shared(.init(reflection: false))
        await #expect(throws: GRPCDescriptorError(
            .noReflection, "127.0.0.1:\(server.port) does not support the reflection API; import a protoset or .proto files.")) {
            _ = try await Self.fetch(port: server.port)
        }
    }

    @Test func aServerThatCannotBeReachedIsAReflectionFailure() async throws {
        let port = try TestPorts.closedPort()
        await #expect {
            _ = try await Self.fetch(port: port)
        } throws: { error in
            let error = error as? GRPCDescriptorError
            return error?.kind == .reflectionFailed && error?.message == "Reflection on 127.0.0.1:\(port) (grpc.reflection.v1) failed: Could not connect to 127.0.0.1:\(port): connection refused."
        }
    }

    @Test func reflectionDescribesWhatTheProtosetDescribes() async throws {
        let server = try await PythonGRPCServer.shared()
        let reflected = GRPCDescriptorIndex(try await Self.fetch(port: server.port).set)
        let protoset = GRPCDescriptorIndex(try GRPCProtoset.decode(try await PythonGRPCServer.protoset(), source: "routeguide.protoset"))
        for symbol in ["routeguide.RouteGuide", "routeguide.Probe", "routeguide.EchoReply", "routeguide.Rectangle"] {
            #expect(try GRPCDescriptorText.describe(reflected, symbol: symbol) == GRPCDescriptorText.describe(protoset, symbol: symbol))
        }
    }
}
