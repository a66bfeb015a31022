import Catalog
import DispatcherCore
import ExplorerApp
import ExplorerRuntime
import Foundation
import GRPCCalls
import GRPCMock
import GRPCWire
import ProtoJSON
import SwiftProtobuf
import Synchronization
import TerminalKit
import TestSupport
import Testing
import TestTraits

/// gRPC methods sent from the explorer: live through the gRPC transport against a gRPC server
/// (the mock's, started here), and in stub mode from their fixtures; the spinner counts the calls,
/// the Errors tab shows the mapped status with its details and the Headers tab the trailers.
@Suite(.offPool) struct RPCRuntimeTests {
    /// The bundled routeguide catalog and its descriptor set, copied into `folder`, pointing at `port`.
    static func writeRouteGuide(into folder: TemporaryDirectory, port: Int) throws -> DescriptorPool {
        let environments = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("environments")
        let yaml = try String(contentsOf: environments.appendingPathComponent("routeguide.yaml"), encoding: .utf8)
        try folder.write("routeguide.yaml", yaml.replacing("http://127.0.0.1:4011", with: "http://127.0.0.1:\(port)"))
        let protoset = try Data(contentsOf: environments.appendingPathComponent("fixtures/routeguide/routeguide.protoset"))
        try folder.write("fixtures/routeguide/routeguide.protoset", protoset)
        return try DescriptorPool(protoset: protoset)
    }

    /// A server answering GetFeature with a message (after `gate` opens), headers and a trailer,
    /// and RenameFeature with PERMISSION_DENIED and an ErrorInfo.
    static func server(_ pool: DescriptorPool, gate: AsyncStream<Void>) throws -> GRPCMockServer {
        let get = try #require(pool.method(named: "routeguide.RouteGuide.GetFeature"))
        let feature = try pool.encodeJSON(#"{"name": "Live Valley", "kind": "KIND_LAKE"}"#, as: get.output)
        let gated = GRPCMockMethod(try GRPCMethodPath(parsing: "routeguide.RouteGuide/GetFeature"), kind: .unary) { _ in
            for await _ in gate { break }
            return GRPCMockAnswer(
                .messages([.init(feature)]), headers: GRPCMetadata([.init(name: "x-served-by", value: .text("live-mock"))]),
                trailers: GRPCMetadata([.init(name: "x-features-scanned", value: .text("12"))]))
        }
        let refused = GRPCMockMethod(
            try GRPCMethodPath(parsing: "routeguide.RouteGuide/RenameFeature"), kind: .unary,
            answer: GRPCMockAnswer(
                .status(
                    GRPCStatus(
                        code: .permissionDenied, message: "not yours to rename",
                        details: [.errorInfo(reason: "NOT_OWNER", domain: "live.example", metadata: [:])]))))
        var set = Google_Protobuf_FileDescriptorSet()
        set.file = pool.fileDescriptors
        return try GRPCMockServer(methods: [gated, refused], descriptors: set)
    }

    static func press(_ keys: String, _ runtime: ExplorerRuntime) throws {
        for key in try KeyEvent.parseSequence(keys) { runtime.post(.terminal(.key(key))) }
    }

    static let getFeature = EndpointKey(service: "routeguide", endpoint: "getFeature")
    static let renameFeature = EndpointKey(service: "routeguide", endpoint: "renameFeature")

    @Test func aLiveCallGoesThroughTheGRPCTransportAndItsStatusIsMapped() async throws {
        let folder = try TemporaryDirectory()
        let pool = try Self.writeRouteGuide(into: folder, port: 1)
        let (gate, open) = AsyncStream.makeStream(of: Void.self)
        let server = try Self.server(pool, gate: gate)
        let port = try await server.start()
        try await withShutdown {
            _ = try Self.writeRouteGuide(into: folder, port: port)
            let catalog = CatalogLoader.load(.folder(folder.path), trust: .everything)
            #expect(catalog.diagnostics.filter(\.isError).isEmpty, "\(catalog.diagnostics)")
            // The HTTP transport is never asked: a gRPC call goes to the gRPC transport.
            let http = RefusingHTTPTransport()
            let terminal = HeadlessTerminal(size: Size(width: 140, height: 40))
            let runtime = ExplorerRuntime(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: http, device: terminal)
            let running = Task { await runtime.run() }
            await runtime.waitUntilIdle()
            #expect(runtime.currentState.selectedEndpoint?.key == Self.getFeature)
            try Self.press("s Enter", runtime)
            // The spinner counts the call while the server holds it.
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            while !runtime.currentState.needsSpinner, clock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            #expect(runtime.currentState.needsSpinner, "the call is in flight")
            open.yield()
            open.finish()
            await runtime.waitUntilIdle()
            #expect(!runtime.currentState.needsSpinner)
            let answered = try #require(runtime.currentState.responses[Self.getFeature]?.exchange)
            #expect(!answered.isStubbed)
            #expect(answered.response?.status == 200)
            #expect(answered.response.map { String(decoding: $0.body, as: UTF8.self) }?.contains(#""name": "Live Valley""#) == true)
            #expect(http.count == 0)
            // Headers tab: the response metadata and the trailers.
            try Self.press("2", runtime)
            await runtime.waitUntilIdle()
            let headers = terminal.lastFrame?.buffer.plainText() ?? ""
            #expect(headers.contains("x-served-by") && headers.contains("live-mock"), "\(headers)")
            #expect(headers.contains("x-features-scanned") && headers.contains("12"), "\(headers)")
            #expect(headers.contains("grpc-status"), "\(headers)")
            // RenameFeature, the last endpoint (still live): PERMISSION_DENIED is forbidden, with its ErrorInfo.
            try Self.press("1 G Enter", runtime)
            await runtime.waitUntilIdle()
            #expect(runtime.currentState.selectedEndpoint?.key == Self.renameFeature)
            let refused = try #require(runtime.currentState.responses[Self.renameFeature]?.exchange)
            #expect(refused.error?.kind == .forbidden, "\(String(describing: refused.error))")
            #expect(refused.error?.message.contains("PERMISSION_DENIED: not yours to rename") == true, "\(String(describing: refused.error))")
            try Self.press("3", runtime)
            await runtime.waitUntilIdle()
            let errors = terminal.lastFrame?.buffer.plainText() ?? ""
            #expect(errors.contains("forbidden") && errors.contains("PERMISSION_DENIED"), "\(errors)")
            #expect(errors.contains("ErrorInfo: NOT_OWNER (domain live.example)"), "\(errors)")
            runtime.post(.terminalClosed)
            await running.value
        } shutdown: {
            open.finish()
            await server.stop()
        }
    }

    @Test func stubModeAnswersFromTheFixturesAsLiveWould() async throws {
        let folder = try TemporaryDirectory()
        _ = try Self.writeRouteGuide(into: folder, port: 1)
        let catalog = CatalogLoader.load(.folder(folder.path), trust: .everything)
        let http = RefusingHTTPTransport()
        let terminal = HeadlessTerminal(size: Size(width: 140, height: 40))
        let runtime = ExplorerRuntime(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: http, device: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        try Self.press("Enter", runtime)
        await runtime.waitUntilIdle()
        let answered = try #require(runtime.currentState.responses[Self.getFeature]?.exchange)
        #expect(answered.isStubbed)
        #expect(answered.response.map { String(decoding: $0.body, as: UTF8.self) }?.contains("Berkshire Valley") == true)
        try Self.press("G Enter 3", runtime)
        await runtime.waitUntilIdle()
        let refused = try #require(runtime.currentState.responses[Self.renameFeature]?.exchange)
        #expect(refused.error?.kind == .forbidden)
        let errors = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(errors.contains("PERMISSION_DENIED: features are read-only here"), "\(errors)")
        #expect(errors.contains("ErrorInfo: READ_ONLY (domain routeguide.example)"), "\(errors)")
        #expect(http.count == 0)
        runtime.post(.terminalClosed)
        await running.value
    }
}

extension RPCRuntimeTests {
    static func type(_ text: String, _ runtime: ExplorerRuntime) {
        for character in text { runtime.post(.terminal(.key(.character(character)))) }
    }

    /// The Edit tab of a gRPC method: the request message checked against the descriptors while it
    /// is typed (a wrong field or type at its JSON path), with the input type's fields listed.
    @Test func theEditTabChecksTheMessageAsItIsTyped() async throws {
        let folder = try TemporaryDirectory()
        _ = try Self.writeRouteGuide(into: folder, port: 1)
        let catalog = CatalogLoader.load(.folder(folder.path), trust: .everything)
        let terminal = HeadlessTerminal(size: Size(width: 160, height: 40))
        let runtime = ExplorerRuntime(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil, device: terminal)
        let running = Task { await runtime.run() }
        await runtime.waitUntilIdle()
        try Self.press("Tab 6", runtime)
        await runtime.waitUntilIdle()
        var frame = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(frame.contains("Message  routeguide.Point → routeguide.RouteGuide/GetFeature (unary)"), "\(frame)")
        #expect(frame.contains("✓ the message fits routeguide.Point"), "\(frame)")
        #expect(frame.contains("latitude number (int32) · longitude number (int32)"), "\(frame)")
        // The body typed anew: a field the type lacks, then a value of the wrong type, each at its path.
        try Self.press("G Enter C-u", runtime)
        Self.type(#"{"latitud": 1}"#, runtime)
        await runtime.waitUntilIdle()
        frame = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(frame.contains("✗ $.latitud:"), "\(frame)")
        try Self.press("C-u", runtime)
        Self.type(#"{"latitude": "north"}"#, runtime)
        await runtime.waitUntilIdle()
        frame = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(frame.contains("✗ $.latitude:"), "\(frame)")
        try Self.press("C-u", runtime)
        Self.type(#"{"latitude": 7}"#, runtime)
        await runtime.waitUntilIdle()
        frame = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(frame.contains("✓ the message fits routeguide.Point"), "\(frame)")
        // RenameFeature's input lists its fields, an enum-free message inside.
        try Self.press("Esc S-Tab G", runtime)
        await runtime.waitUntilIdle()
        #expect(runtime.currentState.selectedEndpoint?.key == Self.renameFeature)
        await runtime.waitUntilIdle()
        frame = terminal.lastFrame?.buffer.plainText() ?? ""
        #expect(frame.contains("Message  routeguide.RenameRequest"), "\(frame)")
        #expect(frame.contains("location object (routeguide.Point) · name string"), "\(frame)")
        runtime.post(.terminalClosed)
        await running.value
    }

    /// A live server stream: each message shows in the stream view as it arrives, while the call
    /// is still under way (the second message comes only after a long delay; Esc ends the call).
    @Test func aServerStreamShowsEachMessageAsItArrives() async throws {
        let folder = try TemporaryDirectory()
        let pool = try Self.writeRouteGuide(into: folder, port: 1)
        let list = try #require(pool.method(named: "routeguide.RouteGuide.ListFeatures"))
        let first = try pool.encodeJSON(#"{"name": "First Lake", "kind": "KIND_LAKE"}"#, as: list.output)
        let second = try pool.encodeJSON(#"{"name": "Second Peak"}"#, as: list.output)
        let method = GRPCMockMethod(
            try GRPCMethodPath(parsing: "routeguide.RouteGuide/ListFeatures"), kind: .serverStreaming,
            answer: GRPCMockAnswer(.messages([.init(first), .init(second, delay: .seconds(600))])))
        var set = Google_Protobuf_FileDescriptorSet()
        set.file = pool.fileDescriptors
        let server = try GRPCMockServer(methods: [method], descriptors: set)
        let port = try await server.start()
        try await withShutdown {
            _ = try Self.writeRouteGuide(into: folder, port: port)
            let catalog = CatalogLoader.load(.folder(folder.path), trust: .everything)
            let terminal = HeadlessTerminal(size: Size(width: 140, height: 40))
            let runtime = ExplorerRuntime(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: RefusingHTTPTransport(), device: terminal)
            let running = Task { await runtime.run() }
            await runtime.waitUntilIdle()
            let key = EndpointKey(service: "routeguide", endpoint: "listFeatures")
            try Self.press("j s Enter", runtime)
            let clock = ContinuousClock()
            let deadline = clock.now + .seconds(60)
            func shown() -> String { runtime.currentState.body.streams[key].map { String(decoding: $0.received, as: UTF8.self) } ?? "" }
            while !shown().contains("First Lake"), clock.now < deadline { try await Task.sleep(for: .milliseconds(10)) }
            #expect(shown() == #"{"name":"First Lake","kind":"KIND_LAKE"}"# + "\n")
            #expect(runtime.currentState.needsSpinner, "the call is still under way")
            #expect(runtime.currentState.responses[key] == nil)
            try Self.press("Esc", runtime)
            await runtime.waitUntilIdle()
            let ended = try #require(runtime.currentState.responses[key]?.exchange)
            // Closed by the person, as an event stream is: the call ends CANCELLED, what came is kept.
            #expect(ended.response?.status == 499)
            #expect(ended.response.map { String(decoding: $0.body, as: UTF8.self) }?.contains(#""code": "CANCELLED""#) == true)
            #expect(ended.notes.contains { $0.hasPrefix("The stream was closed by you") }, "\(ended.notes)")
            runtime.post(.terminalClosed)
            await running.value
        } shutdown: {
            await server.stop()
        }
    }
}

/// Counts what reaches the HTTP transport (nothing should, for gRPC calls).
final class RefusingHTTPTransport: Transport {
    private let seen = Mutex(0)
    var count: Int { seen.withLock { $0 } }

    func send(_ request: Request) async throws(TransportError) -> Response {
        seen.withLock { $0 += 1 }
        return Response(status: 418, headers: Headers(), body: Data())
    }
}
