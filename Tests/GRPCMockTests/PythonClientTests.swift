import Foundation
import GRPCCalls
import GRPCWire
import SystemSupport
import Testing

@testable import GRPCMock
import TestSupport
import TestTraits

/// grpcio (Python) as the client of the mock's server: the four kinds, a status with details,
/// and its reflection client listing and describing what the mock serves. What passes here
/// passes with a real gRPC implementation, not only with apiexplorer's own client.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-reflection, grpcio-status"))
struct PythonClientTests {
    @Test func grpcioCallsTheMockAndReadsItsReflection() async throws {
        let book = MockServerTests.book
        let headers = GRPCMetadata([.init(name: "x-mock", value: .text("yes"))])
        let trailers = GRPCMetadata([.init(name: "x-done", value: .text("1"))])
        let methods = [
            GRPCMockMethod(MockServerTests.getBook, kind: .unary) { request in
                GRPCMockAnswer(.messages([.init(book("for \(request.metadata["x-from"] ?? "?")"))]), headers: headers, trailers: trailers)
            },
            GRPCMockMethod(MockServerTests.listBooks, kind: .serverStreaming, answer: GRPCMockAnswer(.messages(["a", "b"].map { .init(book($0)) }))),
            GRPCMockMethod(MockServerTests.addBooks, kind: .clientStreaming) { .message(book("\($0.messages.count) added")) },
            GRPCMockMethod(MockServerTests.chat, kind: .bidirectionalStreaming, answer: GRPCMockAnswer(.messages([.init(book("hello"))]))),
            GRPCMockMethod(
                GRPCMethodPath(service: "shop.Shop", method: "Fail"), kind: .unary,
                answer: GRPCMockAnswer(.status(GRPCStatus(code: .notFound, message: "no such book", details: [.errorInfo(reason: "GONE", domain: "shop", metadata: [:])])))),
        ]
        let server = try GRPCMockServer(methods: methods, descriptors: MockServerTests.descriptors)
        let port = try await server.start()
        let python = try #require(PythonGRPCServer.python)
        let output = try await withShutdown {
            try await offPool {
                let script = PythonGRPCServer.folder.appendingPathComponent("grpc_mock_client.py").path
                return try ChildProcess(python, [script, String(port)], environment: ProcessInfo.processInfo.environment, directory: "/").collect()
            }
        } shutdown: {
            await server.stop()
        }
        #expect(output.status == 0, "\(output.errors)")
        #expect(output.output.split(separator: "\n").map(String.init) == [
            "unary for python yes 1",
            "stream a,b",
            "client 2 added",
            "bidi hello",
            "status NOT_FOUND no such book 1 type.googleapis.com/google.rpc.ErrorInfo",
            "services grpc.reflection.v1.ServerReflection,grpc.reflection.v1alpha.ServerReflection,shop.Shop",
            "file shop/shop.proto",
        ])
    }
}
