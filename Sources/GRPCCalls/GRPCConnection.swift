import DispatcherCore
import GRPCCore
import GRPCTransport
import GRPCWire
import NIOCore
import NIOPosix
import Synchronization

/// Calls to one gRPC server over one HTTP/2 connection (reopened when it closes): encoded request
/// messages in, encoded response messages out, every outcome a `GRPCCallResult`. GRPCCore's client
/// runs the calls (deadlines, the `grpc-timeout` header) over `GRPCClientTransport`.
package final class GRPCConnection: Sendable {
    package let target: GRPCTarget
    private let client: GRPCClient<GRPCClientTransport>
    private let running: Task<Void, Never>

    /// A connection to `target` (opened at the first call). TLS files are read here: a missing or
    /// malformed CA or client certificate is an error now.
    package init(target: GRPCTarget, settings: GRPCConnectionSettings = GRPCConnectionSettings(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton)
        throws(TransportError)
    {
        self.target = target
        let client = GRPCClient(transport: try GRPCClientTransport(target: target, settings: settings, group: group))
        self.client = client
        running = Task { try? await client.runConnections() }
    }

    deinit {
        // Forgotten without close(): the connection still ends (close() also waits for it).
        client.beginGracefulShutdown()
    }

    /// Ends the connection: calls in flight end, later calls fail.
    package func close() async {
        client.beginGracefulShutdown()
        await running.value
    }

    /// Makes a call and returns how it ended; `onEvent` sees the response's headers and each
    /// message as they come. Cancelling the calling task ends the call with `CANCELLED` (the
    /// stream is reset). Throws only when the call cannot be made as asked (nothing is sent).
    package func call(
        _ method: GRPCMethodPath, kind: GRPCCallKind, requests: GRPCRequestMessages, options: GRPCCallOptions = GRPCCallOptions(),
        onEvent: @escaping @Sendable (GRPCCallEvent) -> Void = { _ in }
    ) async throws(GRPCRequestError) -> GRPCCallResult {
        let metadata: GRPCMetadata
        do {
            metadata = try options.metadata.validatedForRequest()
        } catch {
            throw GRPCRequestError("The call's \(error).")
        }
        if case .messages(let messages) = requests, !kind.clientStreams, messages.count != 1 {
            throw GRPCRequestError("A \(kind.rawValue) call sends exactly one request message; \(messages.count) were given.")
        }
        var callOptions = CallOptions.defaults
        callOptions.timeout = options.timeout
        callOptions.maxResponseMessageBytes = options.receiveLimit
        callOptions.compression = options.compression == .gzip ? .gzip : CompressionAlgorithm.none
        let request = StreamingClientRequest<[UInt8]>(metadata: metadata.core) { writer in
            switch requests {
            case .messages(let messages):
                for message in messages { try await writer.write(message) }
            case .stream(let stream):
                for await message in stream { try await writer.write(message) }
            }
        }
        let record = GRPCCallRecorder(method: method, keepsMessages: options.keepsMessages, onEvent: onEvent)
        do {
            try await client.bidirectionalStreaming(
                request: request, descriptor: method.descriptor, serializer: GRPCRawBytes(), deserializer: GRPCRawBytes(), options: callOptions
            ) { response in
                let contents = try response.accepted.get()
                record.headers(GRPCMetadata(contents.metadata))
                for try await part in contents.bodyParts {
                    switch part {
                    case .message(let message): record.message(message)
                    case .trailingMetadata(let trailers): record.trailers(GRPCMetadata(trailers))
                    }
                }
            }
            record.end(GRPCStatus.ok)
        } catch {
            record.fail(error, timeout: options.timeout, cancelled: Task.isCancelled)
        }
        return record.result(kind: kind)
    }
}

/// What a call received, as it came (the response handler runs in GRPCCore's task).
final class GRPCCallRecorder: Sendable {
    private struct State {
        var headers = GRPCMetadata()
        var messages: [[UInt8]] = []
        var count = 0
        var trailers = GRPCMetadata()
        var status = GRPCStatus(code: .unknown)
        var transportError: TransportError?
        var headersAfter: Duration?
        var firstMessageAfter: Duration?
        var duration: Duration = .zero
    }

    private let method: GRPCMethodPath
    private let keepsMessages: Bool
    private let onEvent: @Sendable (GRPCCallEvent) -> Void
    private let started = ContinuousClock.now
    private let state = Mutex(State())

    init(method: GRPCMethodPath, keepsMessages: Bool, onEvent: @escaping @Sendable (GRPCCallEvent) -> Void) {
        self.method = method
        self.keepsMessages = keepsMessages
        self.onEvent = onEvent
    }

    private var elapsed: Duration { started.duration(to: .now) }

    func headers(_ headers: GRPCMetadata) {
        let elapsed = self.elapsed
        state.withLock {
            $0.headers = headers
            $0.headersAfter = elapsed
        }
        onEvent(.headers(headers))
    }

    func message(_ message: [UInt8]) {
        let elapsed = self.elapsed
        state.withLock { state in
            state.count += 1
            if state.firstMessageAfter == nil { state.firstMessageAfter = elapsed }
            if keepsMessages { state.messages.append(message) }
        }
        onEvent(.message(message))
    }

    func trailers(_ trailers: GRPCMetadata) {
        state.withLock { $0.trailers = trailers }
    }

    func end(_ status: GRPCStatus) {
        let elapsed = self.elapsed
        state.withLock {
            $0.status = status
            $0.duration = elapsed
        }
    }

    /// The call failed: a status from the server (an `RPCError` with the trailers as its metadata),
    /// or a failure below gRPC, the client's deadline, or cancellation.
    func fail(_ error: any Error, timeout: Duration?, cancelled: Bool) {
        let elapsed = self.elapsed
        state.withLock { state in
            state.duration = elapsed
            guard let error = error as? RPCError else {
                if cancelled || error is CancellationError {
                    state.status = GRPCStatus(code: .cancelled, message: "The call was cancelled.")
                } else {
                    state.status = GRPCStatus(code: .unknown, message: "The call failed: \(error)")
                }
                return
            }
            if let failure = error.cause as? GRPCTransportFailure {
                state.transportError = failure.error
                state.status = GRPCStatus(code: GRPCStatusCode(error.code), message: failure.error.message)
                return
            }
            let trailers = GRPCMetadata(error.metadata)
            let code = GRPCStatusCode(error.code)
            // GRPCCore's own deadline ends the call before the server's answer: no trailers came.
            if code == .deadlineExceeded, state.trailers.isEmpty, trailers.isEmpty, let timeout {
                let message = "\(method) did not finish within its deadline of \(GRPCErrorDetail.seconds(timeout))."
                state.transportError = TransportError(.timedOut, message: message, timeoutPhase: .total)
                state.status = GRPCStatus(code: .deadlineExceeded, message: message)
                return
            }
            if code == .cancelled, cancelled {
                state.status = GRPCStatus(code: .cancelled, message: "The call was cancelled.")
                return
            }
            state.trailers = trailers
            state.status = GRPCStatus(code: code, message: error.message, detailsBytes: trailers.binaryValues("grpc-status-details-bin").first)
        }
    }

    /// The result; an `OK` that broke the kind's promise of one response message is not one.
    func result(kind: GRPCCallKind) -> GRPCCallResult {
        state.withLock { state in
            if state.status.code == .ok, state.transportError == nil, !kind.serverStreams, state.count != 1 {
                state.status = GRPCStatus(
                    code: .internalError,
                    message: "\(method) is \(kind == .unary ? "a unary" : "a client-streaming") call, but the server answered OK with \(state.count) response messages instead of one.")
            }
            return GRPCCallResult(
                method: method, headers: state.headers, messages: state.messages, messageCount: state.count, trailers: state.trailers,
                status: state.status, transportError: state.transportError, headersAfter: state.headersAfter,
                firstMessageAfter: state.firstMessageAfter, duration: state.duration)
        }
    }
}
