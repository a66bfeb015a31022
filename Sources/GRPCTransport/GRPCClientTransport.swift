import DispatcherCore
import GRPCCore
import GRPCWire
import LiveTransport
import NIOCore
import NIOHTTP2
import NIOPosix
import NIOSSL
import Synchronization

/// GRPCCore's client transport over one HTTP/2 connection (swift-nio-http2, NIOSSL): h2c or TLS
/// with an environment's trust, pins and client certificate. The connection opens at the first
/// call and again at the next call after it closed; every call is a stream on it.
package final class GRPCClientTransport: ClientTransport, Sendable {
    package typealias Bytes = [UInt8]

    package let target: GRPCTarget
    package let settings: GRPCConnectionSettings
    private let group: any EventLoopGroup
    private let tls: NIOSSLContext?

    private enum State {
        case idle
        case connecting(Task<GRPCClientConnection, any Error>)
        case ready(GRPCClientConnection)
        case shutDown
    }

    private struct Guarded {
        var state = State.idle
        /// `connect()` callers, resumed at shutdown.
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let guarded = Mutex(Guarded())

    /// A transport for `target`; the TLS files (CA, client certificate) are read here, so a
    /// missing or malformed one is an error before any call.
    package init(target: GRPCTarget, settings: GRPCConnectionSettings = GRPCConnectionSettings(), group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton)
        throws(TransportError)
    {
        self.target = target
        self.settings = settings
        self.group = group
        if target.secure {
            var configuration = try target.trust.tlsConfiguration()
            configuration.applicationProtocols = ["h2"]
            do {
                tls = try NIOSSLContext(configuration: configuration)
            } catch {
                throw TransportError(.secureConnectionFailed, message: "The TLS settings for \(target) could not be used (\(error)).")
            }
        } else {
            tls = nil
        }
    }

    package var retryThrottle: RetryThrottle? { nil }

    package func config(forMethod descriptor: MethodDescriptor) -> MethodConfig? { nil }

    /// Runs until `beginGracefulShutdown()`: connections open on demand, from `withStream`.
    package func connect() async throws {
        await withCheckedContinuation { continuation in
            let resumeNow = guarded.withLock { guarded -> Bool in
                if case .shutDown = guarded.state { return true }
                guarded.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    package func beginGracefulShutdown() {
        let (state, waiters) = guarded.withLock { guarded in
            defer {
                guarded.state = .shutDown
                guarded.waiters = []
            }
            return (guarded.state, guarded.waiters)
        }
        switch state {
        case .ready(let connection): connection.close()
        case .connecting(let task): task.cancel()
        case .idle, .shutDown: break
        }
        waiters.forEach { $0.resume() }
    }

    package func withStream<T: Sendable>(
        descriptor: MethodDescriptor, options: CallOptions,
        _ closure: (_ stream: RPCStream<Inbound, Outbound>, _ context: ClientContext) async throws -> T
    ) async throws -> T {
        let connection = try await readyConnection()
        let limit = options.maxResponseMessageBytes ?? GRPCMessageFraming.defaultReceiveLimit
        let encoding: GRPCMessageEncoding = options.compression == .gzip ? .gzip : .identity
        return try await connection.withStream(descriptor: descriptor, receiveLimit: limit, encoding: encoding, closure)
    }

    /// The open connection, opened now when there is none (callers meanwhile share one attempt).
    private func readyConnection() async throws -> GRPCClientConnection {
        enum Next {
            case use(GRPCClientConnection)
            case wait(Task<GRPCClientConnection, any Error>)
            case refuse
        }
        let next = guarded.withLock { guarded -> Next in
            switch guarded.state {
            case .ready(let connection) where connection.isUsable:
                return .use(connection)
            case .connecting(let task):
                return .wait(task)
            case .shutDown:
                return .refuse
            case .idle, .ready:
                let task = Task { [target, settings, group, tls] in
                    try await GRPCClientConnection.open(target: target, settings: settings, tls: tls, group: group)
                }
                guarded.state = .connecting(task)
                return .wait(task)
            }
        }
        switch next {
        case .use(let connection):
            return connection
        case .refuse:
            throw RPCError(code: .unavailable, message: "The gRPC client for \(target) is shut down.")
        case .wait(let task):
            do {
                let connection = try await Self.value(of: task)
                let accepted = guarded.withLock { guarded -> Bool in
                    switch guarded.state {
                    case .shutDown:
                        return false
                    case .connecting, .idle, .ready:
                        // Every caller waiting on this attempt gets the same connection.
                        guarded.state = .ready(connection)
                        return true
                    }
                }
                guard accepted else {
                    connection.close()
                    throw RPCError(code: .unavailable, message: "The gRPC client for \(target) is shut down.")
                }
                return connection
            } catch {
                guarded.withLock { guarded in
                    if case .connecting = guarded.state { guarded.state = .idle }
                }
                throw error
            }
        }
    }

    /// The attempt's result, or `CancellationError` as soon as the caller is cancelled (the attempt
    /// goes on for the other callers, bounded by the connect timeout).
    private static func value(of task: Task<GRPCClientConnection, any Error>) async throws -> GRPCClientConnection {
        let waiter = OneShot<GRPCClientConnection>()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                waiter.set(continuation)
                if Task.isCancelled { waiter.resume(with: .failure(CancellationError())) }
                Task { waiter.resume(with: await task.result) }
            }
        } onCancel: {
            waiter.resume(with: .failure(CancellationError()))
        }
    }
}

/// A continuation resumed once, by whichever comes first.
final class OneShot<Value: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<Value, any Error>?>(nil)

    func set(_ continuation: CheckedContinuation<Value, any Error>) {
        self.continuation.withLock { $0 = continuation }
    }

    func resume(with result: Result<Value, any Error>) {
        continuation.withLock { $0.take() }?.resume(with: result)
    }
}
