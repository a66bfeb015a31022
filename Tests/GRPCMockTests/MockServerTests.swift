import DispatcherCore
import Foundation
import GRPCCalls
import GRPCReflection
import GRPCTransport
import GRPCWire
import NIOSSL
import SwiftProtobuf
import Synchronization
import Testing

@testable import GRPCMock
import TestSupport
import TestTraits

/// The mock's gRPC server, called by apiexplorer's own client: canned messages, streams with
/// delays, statuses with details, metadata, TLS, and reflection over the set it was given.
@Suite(.offPool) struct MockServerTests {
    static let getBook = GRPCMethodPath(service: "shop.Shop", method: "GetBook")
    static let listBooks = GRPCMethodPath(service: "shop.Shop", method: "ListBooks")
    static let addBooks = GRPCMethodPath(service: "shop.Shop", method: "AddBooks")
    static let chat = GRPCMethodPath(service: "shop.Shop", method: "Chat")

    /// shop.proto: `service Shop` with a method of each kind over `Book`, and `Book` itself.
    static var descriptors: Google_Protobuf_FileDescriptorSet {
        var book = Google_Protobuf_DescriptorProto()
        book.name = "Book"
        var title = Google_Protobuf_FieldDescriptorProto()
        title.name = "title"
        title.number = 1
        title.label = .optional
        title.type = .string
        book.field = [title]
        var service = Google_Protobuf_ServiceDescriptorProto()
        service.name = "Shop"
        service.method = [("GetBook", false, false), ("ListBooks", false, true), ("AddBooks", true, false), ("Chat", true, true)].map {
            name, clientStreams, serverStreams in
            var method = Google_Protobuf_MethodDescriptorProto()
            method.name = name
            method.inputType = ".shop.Book"
            method.outputType = ".shop.Book"
            method.clientStreaming = clientStreams
            method.serverStreaming = serverStreams
            return method
        }
        var file = Google_Protobuf_FileDescriptorProto()
        file.name = "shop/shop.proto"
        file.package = "shop"
        file.syntax = "proto3"
        file.messageType = [book]
        file.service = [service]
        var set = Google_Protobuf_FileDescriptorSet()
        set.file = [file]
        return set
    }

    static func book(_ title: String) -> [UInt8] { ProtobufFields([(1, .text(title))]).encoded }

    static func title(_ bytes: [UInt8]) -> String { ProtobufFields(decoding: bytes)?.text(1) ?? "?" }

    /// A mock serving `methods`, and a connection to it, both ended after `body`.
    static func serving<T>(
        _ methods: [GRPCMockMethod], tls: TLSConfiguration? = nil, trust: ServerTrust = ServerTrust(), _ body: (GRPCConnection, Int) async throws -> T
    ) async throws -> T {
        let server = try GRPCMockServer(methods: methods, descriptors: descriptors, configuration: .init(tls: tls))
        let port = try await server.start()
        let connection = try GRPCConnection(target: GRPCTarget(host: "127.0.0.1", port: port, secure: tls != nil, trust: trust))
        return try await withShutdown {
            try await body(connection, port)
        } shutdown: {
            await connection.close()
            await server.stop()
        }
    }

    @Test func aCannedUnaryAnswerWithHeadersAndTrailers() async throws {
        let headers = GRPCMetadata([.init(name: "x-mock", value: .text("yes"))])
        let trailers = GRPCMetadata([.init(name: "x-served-bin", value: .binary([1, 2]))])
        let seen = Mutex<GRPCMockRequest?>(nil)
        let method = GRPCMockMethod(Self.getBook, kind: .unary) { request in
            seen.withLock { $0 = request }
            return GRPCMockAnswer(.messages([.init(Self.book("Dune"))]), headers: headers, trailers: trailers)
        }
        var metadata = GRPCMetadata()
        metadata.append("authorization", "Bearer t")
        let result = try await Self.serving([method]) { connection, _ in
            try await connection.call(Self.getBook, kind: .unary, requests: .messages([Self.book("which?")]), options: GRPCCallOptions(metadata: metadata))
        }
        #expect(result.succeeded, "\(result.status)")
        #expect(result.messages.map(Self.title) == ["Dune"])
        #expect(result.headers["x-mock"] == "yes")
        #expect(result.trailers.binaryValues("x-served-bin") == [[1, 2]])
        let request = try #require(seen.withLock { $0 })
        #expect(request.metadata["authorization"] == "Bearer t")
        #expect(request.messages.map(Self.title) == ["which?"])
    }

    @Test func aStreamComesWithItsDelays() async throws {
        let replies = ["a", "b", "c"].map { GRPCMockAnswer.Message(Self.book($0), delay: .milliseconds(40)) }
        let method = GRPCMockMethod(Self.listBooks, kind: .serverStreaming, answer: GRPCMockAnswer(.messages(replies)))
        let result = try await Self.serving([method]) { connection, _ in
            try await connection.call(Self.listBooks, kind: .serverStreaming, requests: .messages([[]]))
        }
        #expect(result.messages.map(Self.title) == ["a", "b", "c"])
        // Three delays of 40 ms went by before the last message (a lower bound only: never an upper one).
        #expect(result.duration >= .milliseconds(120))
    }

    @Test func aStatusWithDetailsIsWhatTheClientDecodes() async throws {
        let status = GRPCStatus(
            code: .invalidArgument, message: "bad book ✓",
            details: [.badRequest([.init(field: "title", description: "must not be empty")]), .retryInfo(delay: .seconds(1))])
        let method = GRPCMockMethod(Self.getBook, kind: .unary, answer: GRPCMockAnswer(.status(status)))
        let result = try await Self.serving([method]) { connection, _ in
            try await connection.call(Self.getBook, kind: .unary, requests: .messages([[]]))
        }
        #expect(result.status == status)
        #expect(result.dispatchError?.kind == .badRequest)
        #expect(result.dispatchError?.details == ["bad book ✓", "title: must not be empty", "RetryInfo: retry after 1 s"])
    }

    @Test func clientStreamsAreCollectedAndBidirectionalCallsAnsweredAtOnce() async throws {
        let seen = Mutex<[String]>([])
        let add = GRPCMockMethod(Self.addBooks, kind: .clientStreaming) { request in
            seen.withLock { $0 = request.messages.map(Self.title) }
            return .message(Self.book("\(request.messages.count) added"))
        }
        let chat = GRPCMockMethod(Self.chat, kind: .bidirectionalStreaming, answer: GRPCMockAnswer(.messages([.init(Self.book("hello")), .init(Self.book("bye"))])))
        try await Self.serving([add, chat]) { connection, _ in
            let added = try await connection.call(Self.addBooks, kind: .clientStreaming, requests: .messages(["x", "y", "z"].map(Self.book)))
            #expect(added.messages.map(Self.title) == ["3 added"])
            #expect(seen.withLock { $0 } == ["x", "y", "z"])
            let (requests, sink) = AsyncStream.makeStream(of: [UInt8].self)
            sink.yield(Self.book("hi"))
            sink.finish()
            let chatted = try await connection.call(Self.chat, kind: .bidirectionalStreaming, requests: .stream(requests))
            #expect(chatted.messages.map(Self.title) == ["hello", "bye"])
        }
    }

    @Test func aMethodWithoutAnAnswerIsUnimplemented() async throws {
        let result = try await Self.serving([]) { connection, _ in
            try await connection.call(Self.getBook, kind: .unary, requests: .messages([[]]))
        }
        #expect(result.status.code == .unimplemented)
    }

    @Test func cancellingALongStreamEndsItOnBothSides() async throws {
        let replies = (0..<1000).map { GRPCMockAnswer.Message(Self.book("\($0)"), delay: .milliseconds(20)) }
        let method = GRPCMockMethod(Self.listBooks, kind: .serverStreaming, answer: GRPCMockAnswer(.messages(replies)))
        let (first, signal) = AsyncStream.makeStream(of: Void.self)
        let result = try await Self.serving([method]) { connection, _ in
            let call = Task {
                try await connection.call(Self.listBooks, kind: .serverStreaming, requests: .messages([[]])) { event in
                    if case .message = event { signal.yield() }
                }
            }
            var iterator = first.makeAsyncIterator()
            await iterator.next()
            call.cancel()
            return try await call.value
        }
        #expect(result.status.code == .cancelled)
        #expect(result.messageCount < 1000)
    }

    @Test func largeMessagesCrossBothWaysInManyFrames() async throws {
        // 1 MiB each way: many DATA frames (16 KiB each) and window updates (a connection's window starts at 64 KiB).
        let big = (0..<(1 << 20) + 3).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let method = GRPCMockMethod(Self.getBook, kind: .unary) { request in .message(request.messages.first ?? []) }
        let result = try await Self.serving([method]) { connection, _ in
            try await connection.call(Self.getBook, kind: .unary, requests: .messages([big]))
        }
        let succeeded = result.succeeded
        #expect(succeeded, "\(result)")
        // Compared apart: a failure prints the values, and a MiB is too much to read.
        let same = result.messages == [big]
        #expect(same, "\(result.messages.map(\.count)) bytes came back")
    }

    @Test func aRequestOverTheServersLimitIsRefused() async throws {
        let method = GRPCMockMethod(Self.getBook, kind: .unary, answer: .message([]))
        let server = try GRPCMockServer(methods: [method], descriptors: Self.descriptors, configuration: .init(receiveLimit: 1024))
        let port = try await server.start()
        let connection = try GRPCConnection(target: GRPCTarget(host: "127.0.0.1", port: port, secure: false))
        let result = try await withShutdown {
            try await connection.call(Self.getBook, kind: .unary, requests: .messages([Array(repeating: 1, count: 4096)]))
        } shutdown: {
            await connection.close()
            await server.stop()
        }
        #expect(result.status.code == .resourceExhausted, "\(result.status)")
    }

    @Test func overTLS() async throws {
        let tls = TLSConfiguration.makeServerConfiguration(
            certificateChain: [.certificate(try TestCertificates.server.certificate())], privateKey: .privateKey(try TestCertificates.server.privateKey()))
        let method = GRPCMockMethod(Self.getBook, kind: .unary, answer: .message(Self.book("secure")))
        let result = try await Self.serving([method], tls: tls, trust: ServerTrust(certificateAuthority: TestCertificates.ca.certificateURL)) { connection, _ in
            try await connection.call(Self.getBook, kind: .unary, requests: .messages([[]]))
        }
        #expect(result.messages.map(Self.title) == ["secure"], "\(result.status)")
    }

    @Test func reflectionServesTheSetItWasGiven() async throws {
        let reflected = try await Self.serving([]) { connection, _ in
            try await GRPCReflectionClient(connection: connection).fetch()
        }
        #expect(reflected.api == .v1)
        #expect(reflected.services == ["grpc.reflection.v1.ServerReflection", "grpc.reflection.v1alpha.ServerReflection", "shop.Shop"])
        #expect(reflected.notes.isEmpty, "\(reflected.notes)")
        let index = GRPCDescriptorIndex(reflected.set)
        #expect(try GRPCDescriptorText.list(index, service: "shop.Shop") == ["shop.Shop.AddBooks", "shop.Shop.Chat", "shop.Shop.GetBook", "shop.Shop.ListBooks"])
        #expect(try GRPCDescriptorText.describe(index, symbol: "grpc.reflection.v1.ServerReflection").contains(
            "rpc ServerReflectionInfo ( stream .grpc.reflection.v1.ServerReflectionRequest ) returns ( stream .grpc.reflection.v1.ServerReflectionResponse );"))
    }

    @Test func reflectionAnswersEachKindOfQuestion() {
        let service = GRPCReflectionService(descriptors: Self.descriptors)
        var sent: Set<String> = []
        func ask(_ build: (inout Grpc_Reflection_V1_ServerReflectionRequest) -> Void) -> Grpc_Reflection_V1_ServerReflectionResponse {
            var request = Grpc_Reflection_V1_ServerReflectionRequest()
            build(&request)
            return service.answer(request, sent: &sent)
        }
        guard case .fileDescriptorResponse(let byMethod)? = ask({ $0.fileContainingSymbol = "shop.Shop.GetBook" }).messageResponse else {
            Issue.record("no file for a method")
            return
        }
        #expect(byMethod.fileDescriptorProto.compactMap { try? Google_Protobuf_FileDescriptorProto(serializedBytes: $0).name } == ["shop/shop.proto"])
        guard case .fileDescriptorResponse(let again)? = ask({ $0.fileByFilename = "shop/shop.proto" }).messageResponse else {
            Issue.record("no file by name")
            return
        }
        #expect(again.fileDescriptorProto.count == 1)
        guard case .errorResponse(let missing)? = ask({ $0.fileContainingSymbol = "shop.Nope" }).messageResponse else {
            Issue.record("no error for an unknown symbol")
            return
        }
        #expect(missing.errorCode == 5 && missing.errorMessage == "symbol 'shop.Nope' not found")
        guard case .allExtensionNumbersResponse(let numbers)? = ask({ $0.allExtensionNumbersOfType = "shop.Book" }).messageResponse else {
            Issue.record("no extension numbers")
            return
        }
        #expect(numbers.baseTypeName == "shop.Book" && numbers.extensionNumber.isEmpty)
        guard case .errorResponse(let nothing)? = ask({ _ in }).messageResponse else {
            Issue.record("no error for an empty request")
            return
        }
        #expect(nothing.errorCode == 3)
    }
}
