import GRPCCalls
import GRPCCore
import GRPCReflection
import GRPCTransport
import GRPCWire
import NIOPosix
import NIOSSL
import SwiftProtobuf
import Synchronization

/// A real gRPC server for the mock: each method answers as its `GRPCMockMethod` says (messages
/// with delays, or a status with details); reflection (v1 and v1alpha) serves the descriptor set it
/// was given, so grpcurl-like tools and the explorer's live mode can list, describe and call it
/// offline. h2c, or TLS with the configuration given; 127.0.0.1 unless told.
package final class GRPCMockServer: Sendable {
    package struct Configuration: Sendable {
        package var host: String
        /// 0 picks a free port (`start()` returns it).
        package var port: Int
        /// TLS (its ALPN is set to h2); nil serves plaintext HTTP/2.
        package var tls: TLSConfiguration?
        /// Whether the reflection services answer.
        package var reflection: Bool
        /// The largest request message taken.
        package var receiveLimit: Int
        /// Whether answers' delays are waited for.
        package var honoursDelays: Bool

        package init(
            host: String = "127.0.0.1", port: Int = 0, tls: TLSConfiguration? = nil, reflection: Bool = true,
            receiveLimit: Int = GRPCMessageFraming.defaultReceiveLimit, honoursDelays: Bool = true
        ) {
            self.host = host
            self.port = port
            self.tls = tls
            self.reflection = reflection
            self.receiveLimit = receiveLimit
            self.honoursDelays = honoursDelays
        }
    }

    /// The most request messages one call may send (a client stream is kept whole until answered).
    package static let requestMessageLimit = 10_000

    package let configuration: Configuration
    private let transport: GRPCServerTransport
    private let server: GRPCServer<GRPCServerTransport>
    private let serving = Mutex<Task<Void, Never>?>(nil)

    /// A server for `methods`; `descriptors` are what reflection serves (usually the set the
    /// methods come from).
    package init(methods: [GRPCMockMethod], descriptors: Google_Protobuf_FileDescriptorSet, configuration: Configuration = Configuration()) throws {
        self.configuration = configuration
        transport = try GRPCServerTransport(host: configuration.host, port: configuration.port, tls: configuration.tls, receiveLimit: configuration.receiveLimit)
        var router = RPCRouter<GRPCServerTransport>()
        for method in methods { Self.register(method, in: &router, honoursDelays: configuration.honoursDelays) }
        if configuration.reflection {
            GRPCReflectionService(descriptors: descriptors).register(in: &router)
        }
        server = GRPCServer(transport: transport, router: router)
    }

    /// Starts serving; returns the port.
    @discardableResult
    package func start() async throws -> Int {
        let server = self.server
        serving.withLock { task in
            if task == nil { task = Task { try? await server.serve() } }
        }
        return try await transport.port()
    }

    /// Stops: no new connections, calls in flight end.
    package func stop() async {
        server.beginGracefulShutdown()
        await serving.withLock { $0 }?.value
    }

    private static func register(_ method: GRPCMockMethod, in router: inout RPCRouter<GRPCServerTransport>, honoursDelays: Bool) {
        let collectsRequests = method.kind != .bidirectionalStreaming
        router.registerHandler(
            forMethod: MethodDescriptor(fullyQualifiedService: method.path.service, method: method.path.method), deserializer: GRPCRawBytes(),
            serializer: GRPCRawBytes()
        ) { request, _ in
            var messages: [[UInt8]] = []
            if collectsRequests {
                for try await message in request.messages {
                    messages.append(message)
                    guard messages.count <= requestMessageLimit else {
                        throw RPCError(code: .resourceExhausted, message: "The mock takes at most \(requestMessageLimit) request messages a call.")
                    }
                }
            }
            let answer = await method.answer(GRPCMockRequest(metadata: GRPCMetadata(request.metadata), messages: messages))
            switch answer.reply {
            case .status(let status) where status.code == .ok:
                return StreamingServerResponse(metadata: answer.headers.core) { _ in answer.trailers.core }
            case .status(let status):
                throw Self.error(status, trailers: answer.trailers)
            case .messages(let replies):
                return StreamingServerResponse(metadata: answer.headers.core) { writer in
                    for reply in replies {
                        if honoursDelays, reply.delay > .zero { try await Task.sleep(for: reply.delay) }
                        try await writer.write(reply.bytes)
                    }
                    return answer.trailers.core
                }
            }
        }
    }

    /// A status as GRPCCore's error, its details in `grpc-status-details-bin`.
    static func error(_ status: GRPCStatus, trailers: GRPCMetadata) -> RPCError {
        var metadata = trailers
        if !status.details.isEmpty, let bytes = try? GRPCStatusDetails.encode(code: status.code, message: status.message, details: status.details) {
            metadata.append("grpc-status-details-bin", binary: bytes)
        }
        let code = RPCError.Code(status.code.core) ?? .unknown
        return RPCError(code: code, message: status.message, metadata: metadata.core)
    }
}
