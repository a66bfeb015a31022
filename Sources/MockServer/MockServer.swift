import Catalog
import FoundationEssentials
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOSSL
import NIOWebSocket
import Synchronization

/// Serves catalog fixtures as a real HTTP/1.1 server (SwiftNIO), so live mode can be tried
/// without internet. Each service is mounted at `/<service id>`; a request picks an example with
/// the `X-Mock-Example: NAME` header or the `mock-example=NAME` query item (default: the stub).
/// Delays come from the example, else from the mock environment's `delayed(s)` fixtures type.
package final class MockServer: Sendable {
    /// The port the bundled catalogs' `local` environments point at.
    package static let defaultPort = 4010
    /// The header that picks a named example. Never added by the app: a picked example answers in
    /// stub mode only, and a live send goes as the catalog says.
    package static let exampleHeader = "X-Mock-Example"

    /// Where and how to serve.
    package struct Configuration: Sendable {
        /// The address to listen on (only this machine by default).
        package var host: String
        /// The port; 0 picks a free one.
        package var port: Int
        /// Whether example and fixture delays are waited for.
        package var honourDelays: Bool
        /// Where HTTPS is served too (`MockTLS`), 0 for a free port; nil serves plain HTTP only.
        package var tlsPort: Int?

        /// Makes a configuration.
        package init(host: String = "127.0.0.1", port: Int = MockServer.defaultPort, honourDelays: Bool = true, tlsPort: Int? = nil) {
            self.host = host
            self.port = port
            self.honourDelays = honourDelays
            self.tlsPort = tlsPort
        }
    }

    private struct State {
        var group: MultiThreadedEventLoopGroup?
        var channel: (any Channel)?
        var tlsChannel: (any Channel)?
    }

    /// The services served, in order.
    package let services: [MockService]
    /// Where and how it serves.
    package let configuration: Configuration
    private let log: @Sendable (MockRequestLog) -> Void
    private let state = Mutex(State())

    /// Makes a server; `log` is called for every request served (from the server's thread).
    package init(services: [Service], configuration: Configuration = Configuration(), log: @escaping @Sendable (MockRequestLog) -> Void = { _ in }) {
        self.services = services.map(MockService.init)
        self.configuration = configuration
        self.log = log
    }

    /// Starts listening; returns the port (useful with port 0).
    @discardableResult
    package func start() async throws -> Int {
        let router = MockRouter(services: services)
        let planner = MockPlanner(router: router, honourDelays: configuration.honourDelays)
        let log = self.log
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let tls = try configuration.tlsPort.map { _ in try MockTLS.serverContext() }
        @Sendable func bootstrap(tls: NIOSSLContext?) -> ServerBootstrap {
            ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.backlog, value: 256)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelOption(ChannelOptions.socketOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    if let tls { try channel.pipeline.syncOperations.addHandler(NIOSSLServerHandler(context: tls)) }
                    // An upgrade to a WebSocket endpoint takes the connection over from the HTTP handler.
                    let upgrade: NIOHTTPServerUpgradeSendableConfiguration = (
                        upgraders: [MockWebSocket.upgrader(router: router, log: log)],
                        completionHandler: { context in context.pipeline.syncOperations.removeHandler(name: "mock", promise: nil) }
                    )
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(withServerUpgrade: upgrade, withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(MockHTTPHandler(planner: planner, log: log), name: "mock")
                }
            }
        }
        do {
            let channel = try await bootstrap(tls: nil).bind(host: configuration.host, port: configuration.port).get()
            state.withLock {
                $0.group = group
                $0.channel = channel
            }
            if let tlsPort = configuration.tlsPort {
                let secure = try await bootstrap(tls: tls).bind(host: configuration.host, port: tlsPort).get()
                state.withLock { $0.tlsChannel = secure }
            }
            return channel.localAddress?.port ?? configuration.port
        } catch {
            try? await group.shutdownGracefully()
            throw error
        }
    }

    /// The port it listens on, once started.
    package var port: Int? {
        state.withLock { $0.channel?.localAddress?.port }
    }

    /// The port HTTPS is served on, once started with a `tlsPort`.
    package var tlsPort: Int? {
        state.withLock { $0.tlsChannel?.localAddress?.port }
    }

    /// The base URL of a service on this server (`http://127.0.0.1:4010/petstore`).
    package func baseURL(of serviceID: String) -> URL? {
        guard let port else { return nil }
        return URL(string: "http://\(configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host):\(port)/\(serviceID)")
    }

    /// Stops listening and closes every connection (held ones included).
    package func stop() async {
        let (channel, tlsChannel, group) = state.withLock { state in
            defer { state = State() }
            return (state.channel, state.tlsChannel, state.group)
        }
        try? await channel?.close()
        try? await tlsChannel?.close()
        try? await group?.shutdownGracefully()
    }
}
