import ArgumentParser
import Catalog
import Dispatch
import FoundationEssentials
import GRPCMock
import MockServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `apiexplorer mock`: serves catalog fixtures on 127.0.0.1 until Ctrl-C.
struct MockCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mock",
        abstract: "Serves catalog fixtures as a real HTTP server, so live mode works without internet.",
        discussion: """
            Each service is served under /<service id> (the bundled catalogs' local environments point \
            at http://127.0.0.1:\(MockServer.defaultPort)/<service id>). A request picks an example with the header \
            \(MockServer.exampleHeader): NAME or the query item mock-example=NAME. Each request is logged to \
            standard output. Stops cleanly on Ctrl-C (SIGINT) or SIGTERM. With --tls it serves HTTPS too \
            (port \(MockTLS.defaultPort)) with a certificate made at start for 127.0.0.1 and localhost, signed by the mock's \
            own CA: the bundled catalogs' tls environments trust it through that CA and pin its key. The catalogs' gRPC \
            methods are served over h2c on --grpc-port (\(RPCMock.defaultPort)) and, with --tls, over TLS with the same \
            certificate on --grpc-tls-port (\(RPCMock.defaultTLSPort)).
            """)

    @OptionGroup var catalogOptions: CatalogOptions

    @Option(name: .customLong("service"), help: ArgumentHelp("Serve only this service (repeat for several).", valueName: "NAME"))
    var services: [String] = []

    @Option(help: ArgumentHelp("The port to listen on (0 picks a free one).", valueName: "N"))
    var port = MockServer.defaultPort

    @Option(help: ArgumentHelp(
        "The address to listen on: 127.0.0.1 (this machine only) by default; 0.0.0.0 serves the fixtures to every network.",
        valueName: "HOST"))
    var host = "127.0.0.1"

    @Flag(help: "Answer at once, ignoring example and fixture delays.")
    var noDelay = false

    @Flag(help: ArgumentHelp("Serve HTTPS too, with a certificate made at start and signed by the mock's CA (environments/fixtures/mock-tls/ca.pem)."))
    var tls = false

    @Option(help: ArgumentHelp("The HTTPS port with --tls (0 picks a free one).", valueName: "N"))
    var tlsPort = MockTLS.defaultPort

    @Option(help: ArgumentHelp("The port the catalogs' gRPC methods are served on, when they have any (0 picks a free one).", valueName: "N"))
    var grpcPort = RPCMock.defaultPort

    @Option(name: .customLong("grpc-tls-port"), help: ArgumentHelp("The port gRPC is served on over TLS with --tls (0 picks a free one).", valueName: "N"))
    var grpcTLSPort = RPCMock.defaultTLSPort

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535.") }
        guard (0...65535).contains(grpcPort) else { throw ValidationError("--grpc-port must be between 0 and 65535.") }
        guard (0...65535).contains(tlsPort) else { throw ValidationError("--tls-port must be between 0 and 65535.") }
        guard (0...65535).contains(grpcTLSPort) else { throw ValidationError("--grpc-tls-port must be between 0 and 65535.") }
    }

    func run() async throws {
        let source = catalogOptions.source()
        let catalog = CatalogLoader.load(source, trust: CatalogOptions.trust(of: source, trustingEverything: catalogOptions.trust))
        for diagnostic in catalog.diagnostics where diagnostic.isError { Console.error(diagnostic.description) }
        let chosen = try select(from: catalog)
        let server = MockServer(
            services: chosen, configuration: MockServer.Configuration(host: host, port: port, honourDelays: !noDelay, tlsPort: tls ? tlsPort : nil),
            log: { entry in Console.out(entry.description) })
        let bound: Int
        do {
            bound = try await server.start()
        } catch {
            let ports = tls ? "\(port) or \(tlsPort)" : "\(port)"
            Console.error("error: cannot listen on \(host):\(ports): \(error). Is another server using the port? Choose one with --port\(tls ? " or --tls-port" : "").")
            throw ExitCode.failure
        }
        Console.out("Mock server for \(source) on http://\(host):\(bound) — Ctrl-C to stop")
        if let secure = server.tlsPort {
            Console.out("  HTTPS on https://\(host):\(secure), certificate signed by the mock's CA; its key pins as \(MockTLS.serverPin)")
        }
        // Fixtures may hold anything a catalog file holds: say who can read them.
        let loopback = host == "127.0.0.1" || host == "::1" || host == "localhost"
        Console.out(loopback ? "  Only this machine can connect (--host widens it)." : "  Listening on \(host): other machines can connect.")
        for service in chosen {
            let url = server.baseURL(of: service.id)?.absoluteString ?? "/\(service.id)"
            Console.out("  \(service.id)  \(url)  (\(service.endpoints.count) endpoints)")
        }
        let rpcServers = try await startRPC(chosen)
        let signal = await SignalWaiter.wait(for: [SIGINT, SIGTERM])
        Console.out("Received \(signal == SIGINT ? "SIGINT" : "SIGTERM"); stopping.")
        for rpcServer in rpcServers { await rpcServer.stop() }
        await server.stop()
    }

    /// The gRPC servers, when a chosen service has gRPC methods: h2c on --grpc-port, and with --tls
    /// TLS on --grpc-tls-port (the HTTPS side's certificate); reflection on.
    private func startRPC(_ services: [Service]) async throws -> [GRPCMockServer] {
        let withRPC = services.filter { $0.endpoints.contains { $0.rpc != nil } }
        guard !withRPC.isEmpty else { return [] }
        let plan = RPCMock.plan(withRPC)
        for problem in plan.problems { Console.error("warning: gRPC: \(problem)") }
        guard !plan.methods.isEmpty else { return [] }
        let what = "\(plan.methods.count) methods of \(withRPC.map(\.id).joined(separator: ", "))"
        var servers: [GRPCMockServer] = []
        for secure in tls ? [false, true] : [false] {
            let port = secure ? grpcTLSPort : grpcPort
            do {
                let server = try GRPCMockServer(
                    methods: plan.methods, descriptors: plan.descriptors,
                    configuration: GRPCMockServer.Configuration(host: host, port: port, tls: secure ? try MockTLS.serverConfiguration() : nil, honoursDelays: !noDelay))
                let bound = try await server.start()
                servers.append(server)
                Console.out(
                    secure
                        ? "  gRPC over TLS on grpcs://\(host):\(bound) (the HTTPS certificate, reflection on): \(what)"
                        : "  gRPC on grpc://\(host):\(bound) (h2c, reflection on): \(what)")
            } catch {
                for server in servers { await server.stop() }
                Console.error(
                    "error: cannot serve gRPC\(secure ? " over TLS" : "") on \(host):\(port): \(error). Is another server using the port? Choose one with --grpc\(secure ? "-tls" : "")-port.")
                throw ExitCode.failure
            }
        }
        return servers
    }

    private func select(from catalog: CatalogSet) throws -> [Service] {
        guard !catalog.services.isEmpty else {
            Console.error("error: no service could be loaded from \(catalog.source); run `apiexplorer validate` for details.")
            throw ExitCode.failure
        }
        guard !services.isEmpty else { return catalog.services }
        return try services.map { name in
            guard let service = catalog.service(name) else {
                let known = catalog.services.map(\.id).joined(separator: ", ")
                throw ValidationError("No service named '\(name)' in \(catalog.source); known services: \(known).")
            }
            return service
        }
    }
}

/// Waits for the first of some signals, with the default handlers turned off meanwhile.
enum SignalWaiter {
    static func wait(for signals: [Int32]) async -> Int32 {
        let queue = DispatchQueue(label: "apiexplorer.signals")
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        var sources: [any DispatchSourceSignal] = []
        for number in signals {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler { continuation.yield(number) }
            source.resume()
            sources.append(source)
        }
        var received = SIGTERM
        for await number in stream {
            received = number
            break
        }
        sources.forEach { $0.cancel() }
        return received
    }
}
