import DispatcherCore
import GRPCCalls
import GRPCTransport
import GRPCWire
import NIOHTTP2
import Testing

import TestSupport
import TestTraits

/// Every bad answer a server can give ends the call with a clear error, never a hang or a crash:
/// garbage or truncated HTTP/2, a server that is not gRPC, bad length prefixes, an unknown
/// compression, a stream reset or closed mid-way, a stream that never ends.
@Suite(.offPool) struct HostileServerTests {
    typealias Step = HostileHTTP2Server.Step

    /// A call of `kind` to a server running `script`.
    static func call(
        _ script: [Step], kind: GRPCCallKind = .unary, options: GRPCCallOptions = GRPCCallOptions()
    ) async throws -> (result: GRPCCallResult, port: Int) {
        let server = try await HostileHTTP2Server.start(script: script)
        let result = try await withShutdown {
            try await Probe.withConnection(port: server.port) { connection in
                try await connection.call(Probe.echo, kind: kind, requests: .messages([[1]]), options: options)
            }
        } shutdown: {
            await server.stop()
        }
        return (result, server.port)
    }

    @Test func aWellFormedAnswerIsReadFromTheHostileServerToo() async throws {
        let (result, _) = try await Self.call([.grpcHeaders([("x-a", "1")]), .message([7, 7]), .headers([("grpc-status", "0"), ("x-t", "2")], endStream: true)])
        #expect(result.succeeded, "\(result.status)")
        #expect(result.messages == [[7, 7]])
        #expect(result.headers["x-a"] == "1" && result.trailers["x-t"] == "2")
    }

    @Test func garbageBytesInsteadOfHTTP2() async throws {
        let server = try await SilentTCPServer.start(replying: Array(repeating: 0xEE, count: 64))
        let result = try await withShutdown {
            try await Probe.withConnection(port: server.port) { try await $0.call(Probe.echo, kind: .unary, requests: .messages([[]])) }
        } shutdown: {
            try await server.shutdown()
        }
        #expect(result.transportError?.code == .badServerResponse, "\(result.status)")
        #expect(result.status.message.hasPrefix("127.0.0.1:\(server.port) sent bytes that are not valid HTTP/2 ("), "\(result.status)")
        #expect(result.status.message.hasSuffix("): it is not a gRPC server, or it speaks TLS on this port."))
        #expect(result.status.code == .internalError)
    }

    @Test func anHTTP1ServerIsNotAGRPCServer() async throws {
        let server = try await SilentTCPServer.start(replying: Array("HTTP/1.1 400 Bad Request\r\nContent-Length: 0\r\n\r\n".utf8))
        let result = try await withShutdown {
            try await Probe.withConnection(port: server.port) { try await $0.call(Probe.echo, kind: .unary, requests: .messages([[]])) }
        } shutdown: {
            try await server.shutdown()
        }
        #expect(result.transportError?.code == .badServerResponse)
        #expect(result.status.message == "127.0.0.1:\(server.port) answered in HTTP/1.1, not HTTP/2: it is not a gRPC server, or it speaks TLS on this port (plaintext gRPC is HTTP/2 without TLS).")
    }

    @Test func aTruncatedFrameThenTheEnd() async throws {
        // A DATA frame header announcing 100 bytes on stream 1, 10 of them (a message's prefix
        // announcing 50 bytes and 5 of those), then the connection closes.
        let frame: [UInt8] = [0, 0, 100, 0, 0, 0, 0, 0, 1] + [0, 0, 0, 0, 50, 1, 2, 3, 4, 5]
        let (result, port) = try await Self.call([.grpcHeaders(), .raw(frame), .wait(.milliseconds(50)), .close])
        #expect(result.transportError?.code == .networkConnectionLost, "\(result.status)")
        #expect(result.status.message == "127.0.0.1:\(port) closed the connection after its response headers, before the call's status.")
        #expect(result.dispatchError?.kind == .connectionLost)
    }

    @Test func aFrameOfAnUnknownStreamIsAProtocolError() async throws {
        // DATA for stream 99, which the client never opened: a connection error in HTTP/2.
        let frame: [UInt8] = [0, 0, 1, 0, 0, 0, 0, 0, 99, 0]
        let (result, _) = try await Self.call([.raw(frame), .hang])
        #expect(result.transportError?.code == .badServerResponse, "\(result.status)")
        #expect(result.status.message.contains("sent bytes that are not valid HTTP/2"))
    }

    @Test func aLengthPrefixWithAFlagGRPCDoesNotDefine() async throws {
        let (result, _) = try await Self.call([.grpcHeaders(), .data([7, 0, 0, 0, 1, 1]), .status(0)])
        #expect(result.status.code == .internalError)
        #expect(result.status.message.contains("the prefix flag 7"), "\(result.status)")
    }

    @Test func aStreamEndingInsideAMessage() async throws {
        let (result, _) = try await Self.call([.grpcHeaders(), .data([0, 0, 0, 0, 10, 1, 2, 3]), .status(0)])
        #expect(result.status == GRPCStatus(code: .internalError, message: "The server ended the stream inside message 1: 3 of its 10 bytes came."))
    }

    @Test func aHugeLengthIsRefusedAtOnceNotWaitedFor() async throws {
        // 2 GiB announced, nothing after: the receive limit refuses it now, though the server never ends the stream.
        let (result, _) = try await Self.call([.grpcHeaders(), .data([0, 0x7F, 0xFF, 0xFF, 0xFF]), .hang], options: GRPCCallOptions(receiveLimit: 1 << 20))
        #expect(result.status == GRPCStatus(code: .resourceExhausted, message: "The server sent message 1 of 1.9 GiB, over the receive limit of 1 MiB."))
        #expect(result.dispatchError?.kind == .tooManyRequests)
    }

    @Test func anUnknownCompression() async throws {
        let (result, _) = try await Self.call([.grpcHeaders([("grpc-encoding", "snappy")]), .data([1, 0, 0, 0, 2, 9, 9]), .status(0)])
        #expect(result.status == GRPCStatus(
            code: .internalError, message: "The server compressed message 1 with 'snappy', which apiexplorer cannot read (it reads gzip and identity)."))
    }

    @Test func aServerThatClosesMidStream() async throws {
        let (result, port) = try await Self.call([.grpcHeaders(), .message([1]), .message([2]), .wait(.milliseconds(50)), .close], kind: .serverStreaming)
        #expect(result.messages == [[1], [2]])
        #expect(result.transportError?.code == .networkConnectionLost)
        // Closed, or reset when the close met bytes the server had not read: either way, after 2 messages.
        let message = result.status.message
        #expect(message == "127.0.0.1:\(port) closed the connection after 2 messages, before the call's status."
            || message == "127.0.0.1:\(port) reset the connection after 2 messages, before the call's status.", "\(message)")
        #expect(result.dispatchError?.kind == .connectionLost)
    }

    @Test(arguments: [
        (HTTP2ErrorCode.refusedStream, GRPCStatusCode.unavailable), (.cancel, .cancelled), (.enhanceYourCalm, .resourceExhausted),
        (.internalError, .internalError),
    ])
    func aStreamTheServerResets(code: HTTP2ErrorCode, status: GRPCStatusCode) async throws {
        let (result, _) = try await Self.call([.grpcHeaders(), .reset(code)])
        #expect(result.status.code == status, "\(result.status)")
        #expect(result.status.message.hasPrefix("127.0.0.1:"))
    }

    @Test func anHTTP2ServerThatIsNotGRPC() async throws {
        let (result, port) = try await Self.call([.headers([(":status", "404"), ("content-type", "text/html")]), .data(Array("<h1>no</h1>".utf8), endStream: true)])
        #expect(result.status == GRPCStatus(
            code: .unimplemented,
            message: "127.0.0.1:\(port) answered HTTP 404 (content-type text/html) instead of a gRPC response: is it a gRPC server, and is the method's path right?"))
    }

    @Test func aStreamThatEndsWithoutTrailers() async throws {
        let (result, _) = try await Self.call([.grpcHeaders(), .message([1]), .data([], endStream: true)])
        #expect(result.status.code == .internalError)
        #expect(result.status.message.hasSuffix("ended the call after 1 message without a status (no trailers)."))
    }

    @Test func anOKUnaryCallWithTwoAnswersIsNotOK() async throws {
        let (result, _) = try await Self.call([.grpcHeaders(), .message([1]), .message([2]), .status(0)])
        #expect(result.status == GRPCStatus(
            code: .internalError, message: "routeguide.Probe/Echo is a unary call, but the server answered OK with 2 response messages instead of one."))
    }

    @Test func aServerThatNeverAnswersMeetsTheDeadline() async throws {
        let (result, _) = try await Self.call([.hang], options: GRPCCallOptions(timeout: .milliseconds(200)))
        #expect(result.status.code == .deadlineExceeded)
        #expect(result.transportError?.code == .timedOut)
        #expect(result.status.message == "routeguide.Probe/Echo did not finish within its deadline of 200 ms.")
    }

    @Test func trailersWithAMalformedBinaryValue() async throws {
        let (result, _) = try await Self.call([.grpcHeaders(), .headers([("grpc-status", "0"), ("x-bad-bin", "***")], endStream: true)])
        #expect(result.status.code == .internalError)
        #expect(result.status.message.contains("metadata 'x-bad-bin': its value is not base64"), "\(result.status)")
    }

    @Test func damagedStatusDetailsKeepTheStatus() async throws {
        let (result, _) = try await Self.call([.grpcHeaders(), .headers([("grpc-status", "5"), ("grpc-message", "gone"), ("grpc-status-details-bin", "CgUK")], endStream: true)])
        #expect(result.status.code == .notFound)
        #expect(result.status.message == "gone")
        #expect(result.status.detailsProblem != nil)
        #expect(result.dispatchError?.kind == .notFound)
    }
}

/// A connection the server closed is opened again by the next call.
@Suite(.offPool) struct ReconnectionTests {
    @Test func theNextCallOpensANewConnection() async throws {
        // The server answers, then closes the connection.
        let server = try await HostileHTTP2Server.start(script: [.grpcHeaders(), .message([5]), .status(0), .close])
        try await withShutdown {
            try await Probe.withConnection(port: server.port) { connection in
                let first = try await connection.call(Probe.echo, kind: .unary, requests: .messages([[]]))
                #expect(first.succeeded, "\(first.status)")
                // A call may still find the old connection before its close is seen; it fails as a
                // lost connection, and a later one connects anew. Nothing here waits on a clock.
                var attempts = 0
                var later: GRPCCallResult
                repeat {
                    attempts += 1
                    later = try await connection.call(Probe.echo, kind: .unary, requests: .messages([[]]))
                    if !later.succeeded { #expect(later.transportError?.code == .networkConnectionLost, "\(later.status)") }
                } while !later.succeeded && attempts < 100
                #expect(later.succeeded && later.messages == [[5]])
            }
        } shutdown: {
            await server.stop()
        }
    }
}
