import DispatcherCore
import Foundation
import GRPCCalls
import GRPCTransport
import GRPCWire
import Testing

import TestSupport
import TestTraits

/// Calls of the four kinds against grpcio (Python) on 127.0.0.1: messages, metadata both ways,
/// deadlines, compression, the receive limit, cancellation, and statuses with their details.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-tools, grpcio-reflection, grpcio-status"))
struct PythonServerCallTests {
    @Test func unary() async throws {
        let server = try await PythonGRPCServer.shared()
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(Probe.getFeature, kind: .unary, requests: .messages([Probe.point(4, 5).encoded]))
        }
        #expect(result.succeeded)
        #expect(result.status == .ok)
        #expect(Probe.reply(result).text(1) == "feature at 4,5")
        #expect(Probe.reply(result).message(2) == Probe.point(4, 5))
        #expect(result.headers["content-type"] == "application/grpc")
        #expect(result.messageCount == 1)
        #expect(result.headersAfter != nil && result.firstMessageAfter != nil)
    }

    @Test func serverStreamingHandsEachMessageOnAsItComes() async throws {
        let server = try await PythonGRPCServer.shared()
        let log = EventLog()
        let rectangle: ProtobufFields = [1: .message(Probe.point(1, 9)), 2: .message(Probe.point(5, 9))]
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(Probe.listFeatures, kind: .serverStreaming, requests: .messages([rectangle.encoded]), onEvent: log.record)
        }
        #expect(result.succeeded)
        #expect(result.messages.compactMap(ProtobufFields.init(decoding:)).map { $0.text(1) } == (1...5).map { "feature \($0)" })
        guard case .headers? = log.all.first else {
            Issue.record("the headers did not come first: \(log.all)")
            return
        }
        #expect(log.messageCount == 5)
    }

    @Test func clientStreamingSendsEveryMessageThenTheEnd() async throws {
        let server = try await PythonGRPCServer.shared()
        let (points, sink) = AsyncStream.makeStream(of: [UInt8].self)
        for (latitude, longitude) in [(0, 0), (3, 4), (3, 10)] { sink.yield(Probe.point(latitude, longitude).encoded) }
        sink.finish()
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(Probe.recordRoute, kind: .clientStreaming, requests: .stream(points))
        }
        #expect(result.succeeded)
        let summary = Probe.reply(result)
        #expect(summary.number(1) == 3)
        #expect(summary.number(3) == 13)
    }

    @Test func bidirectionalStreamingAnswersEachNoteBeforeTheNextIsSent() async throws {
        let server = try await PythonGRPCServer.shared()
        let (notes, sink) = AsyncStream.makeStream(of: [UInt8].self)
        let (echoes, echoed) = AsyncStream.makeStream(of: String.self)
        let result = try await Probe.withConnection(port: server.port) { connection in
            async let call = connection.call(Probe.routeChat, kind: .bidirectionalStreaming, requests: .stream(notes)) { event in
                if case .message(let bytes) = event { echoed.yield(ProtobufFields(decoding: bytes)?.text(2) ?? "?") }
            }
            // Each note goes only after the echo of the one before: the call streams both ways at once.
            var iterator = echoes.makeAsyncIterator()
            var heard: [String] = []
            for word in ["one", "two", "three"] {
                let note: ProtobufFields = [1: .message(Probe.point(1, 1)), 2: .text(word)]
                sink.yield(note.encoded)
                heard.append(await iterator.next() ?? "(ended)")
            }
            sink.finish()
            #expect(heard == ["echo: one", "echo: two", "echo: three"])
            return try await call
        }
        #expect(result.succeeded)
        #expect(result.messageCount == 3)
    }

    @Test func metadataGoesOutAndComesBackInHeadersAndTrailers() async throws {
        let server = try await PythonGRPCServer.shared()
        var metadata = GRPCMetadata()
        metadata.append("x-request", "r-1")
        metadata.append("x-trace-bin", binary: [0, 1, 254, 255])
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest("hi")]), options: GRPCCallOptions(metadata: metadata))
        }
        #expect(result.succeeded)
        let echoed = Probe.echoedMetadata(Probe.reply(result))
        #expect(echoed["x-request"] == "r-1")
        #expect(echoed["x-trace-bin"] == Data([0, 1, 254, 255]).base64EncodedString())
        #expect(echoed["user-agent"]?.hasPrefix("apiexplorer grpc") == true)
        #expect(result.headers["x-echo-x-request"] == "r-1")
        #expect(result.headers.binaryValues("x-echo-x-trace-bin") == [[0, 1, 254, 255]])
        #expect(result.trailers["x-trailer"] == "done")
        #expect(result.trailers["x-trailer-x-request"] == "r-1")
        #expect(result.trailers["grpc-status"] == nil)
    }

    @Test func theDeadlineIsSentAsGRPCTimeout() async throws {
        let server = try await PythonGRPCServer.shared()
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest()]), options: GRPCCallOptions(timeout: .seconds(60)))
        }
        let remaining = Probe.reply(result).double(3)
        #expect(remaining > 0 && remaining <= 60, "the server saw \(remaining) s left")
        let none = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest()]))
        }
        #expect(Probe.reply(none).double(3) == -1)
    }

    @Test func aCallPastItsDeadlineEndsWithDeadlineExceededAsATimeout() async throws {
        let server = try await PythonGRPCServer.shared()
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(
                Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest(sleepMilliseconds: 30_000)]),
                options: GRPCCallOptions(timeout: .milliseconds(300)))
        }
        #expect(result.status.code == .deadlineExceeded)
        #expect(result.dispatchError?.kind == .timeout)
        #expect(result.duration < .seconds(25))
    }

    @Test func aMessageOverTheReceiveLimitIsRefused() async throws {
        let server = try await PythonGRPCServer.shared()
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(
                Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest(replyBytes: 200_000)]), options: GRPCCallOptions(receiveLimit: 64 << 10))
        }
        #expect(result.status.code == .resourceExhausted)
        #expect(result.status.message.contains("over the receive limit of 64 KiB"), "\(result.status)")
        #expect(result.messageCount == 0)
    }

    @Test func gzipBothWays() async throws {
        let server = try await PythonGRPCServer.shared()
        let text = String(repeating: "compressible ", count: 2000)
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(
                Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest(text, replyBytes: 100_000, compress: true)]),
                options: GRPCCallOptions(compression: .gzip))
        }
        #expect(result.succeeded, "\(result.status)")
        #expect(result.headers["grpc-encoding"] == "gzip")
        #expect(Probe.reply(result).text(1) == text)
        #expect(Probe.reply(result).values(4) == [.bytes(Array(repeating: UInt8(ascii: "p"), count: 100_000))])
    }

    @Test func cancellingAStreamThatNeverEndsEndsTheCallWithCancelled() async throws {
        let server = try await PythonGRPCServer.shared()
        let log = EventLog()
        let (threeCame, signal) = AsyncStream.makeStream(of: Void.self)
        let result = try await Probe.withConnection(port: server.port) { connection in
            let call = Task {
                try await connection.call(
                    Probe.stream, kind: .serverStreaming, requests: .messages([Probe.echoRequest("forever", intervalMilliseconds: 5)])
                ) { event in
                    log.record(event)
                    if log.messageCount == 3 { signal.yield() }
                }
            }
            var waiting = threeCame.makeAsyncIterator()
            await waiting.next()
            call.cancel()
            return try await call.value
        }
        #expect(result.status.code == .cancelled)
        #expect(result.status.message == "The call was cancelled.")
        #expect(result.dispatchError?.kind == .cancelled)
        #expect(result.messageCount >= 3)
    }

    @Test(arguments: [
        ("INVALID_ARGUMENT", GRPCStatusCode.invalidArgument, ErrorKind.badRequest),
        ("UNAUTHENTICATED", .unauthenticated, .unauthorized),
        ("PERMISSION_DENIED", .permissionDenied, .forbidden),
        ("NOT_FOUND", .notFound, .notFound),
        ("RESOURCE_EXHAUSTED", .resourceExhausted, .tooManyRequests),
        ("UNAVAILABLE", .unavailable, .serverError(503)),
        ("INTERNAL", .internalError, .internalServerError),
        ("UNIMPLEMENTED", .unimplemented, .serverError(501)),
        ("FAILED_PRECONDITION", .failedPrecondition, .badRequest),
    ])
    func aStatusWithDetailsIsDecodedAndMapped(name: String, code: GRPCStatusCode, kind: ErrorKind) async throws {
        let server = try await PythonGRPCServer.shared()
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest("why ✓", failWith: name)]))
        }
        #expect(result.status.code == code)
        #expect(result.status.message == "why ✓")
        #expect(result.status.detailsProblem == nil)
        #expect(result.status.details.first == .errorInfo(reason: "PROBE_" + name, domain: "probe.test", metadata: ["text": "why ✓"]))
        #expect(result.trailers["x-trailer"] == "done")
        let error = result.dispatchError
        #expect(error?.kind == kind)
        switch code {
        case .invalidArgument:
            #expect(result.status.details.contains(.badRequest([.init(field: "text", description: "must not be empty"), .init(field: "count", description: "must be positive")])))
            #expect(error?.details.prefix(3) == ["why ✓", "text: must not be empty", "count: must be positive"])
        case .resourceExhausted, .unavailable:
            #expect(error?.retryAfter == .milliseconds(2500))
            #expect(result.status.details.contains(.quotaFailure([.init(subject: "project:probe", description: "daily limit")])))
        case .failedPrecondition:
            #expect(result.status.details.contains(.preconditionFailure([.init(type: "TOS", subject: "probe.test", description: "terms not accepted")])))
        case .notFound:
            #expect(result.status.details.contains(.resourceInfo(type: "feature", name: "why ✓", owner: "probe", description: "no such feature")))
        case .internalError:
            #expect(result.status.details.dropFirst().map(\.typeName) == [
                "google.rpc.DebugInfo", "google.rpc.Help", "google.rpc.LocalizedMessage", "google.rpc.RequestInfo",
            ])
            #expect(result.status.details.contains(.debugInfo(stack: ["probe.py:10", "probe.py:20"], detail: "boom")))
        default:
            break
        }
    }

    @Test func manyCallsAtOnceShareTheConnection() async throws {
        let server = try await PythonGRPCServer.shared()
        let texts = try await Probe.withConnection(port: server.port) { connection in
            try await withThrowingTaskGroup(of: String.self) { group in
                for index in 0..<40 {
                    group.addTask {
                        let result = try await connection.call(Probe.echo, kind: .unary, requests: .messages([Probe.echoRequest("n\(index)")]))
                        return Probe.reply(result).text(1)
                    }
                }
                return try await group.reduce(into: Set<String>()) { $0.insert($1) }
            }
        }
        #expect(texts == Set((0..<40).map { "n\($0)" }))
    }

    @Test func aUnaryCallTakesExactlyOneRequestMessage() async throws {
        let server = try await PythonGRPCServer.shared()
        try await Probe.withConnection(port: server.port) { connection in
            await #expect(throws: GRPCRequestError("A unary call sends exactly one request message; 2 were given.")) {
                _ = try await connection.call(Probe.echo, kind: .unary, requests: .messages([[], []]))
            }
            var metadata = GRPCMetadata()
            metadata.append("content-type", "text/plain")
            await #expect(throws: GRPCRequestError("The call's metadata 'content-type': the gRPC transport sets this header itself.")) {
                _ = try await connection.call(Probe.echo, kind: .unary, requests: .messages([[]]), options: GRPCCallOptions(metadata: metadata))
            }
        }
    }

    @Test func anUnknownMethodIsUnimplemented() async throws {
        let server = try await PythonGRPCServer.shared()
        let result = try await Probe.withConnection(port: server.port) { connection in
            try await connection.call(GRPCMethodPath(service: "routeguide.Probe", method: "Nope"), kind: .unary, requests: .messages([[]]))
        }
        #expect(result.status.code == .unimplemented)
        #expect(result.dispatchError?.kind == .serverError(501))
    }
}
