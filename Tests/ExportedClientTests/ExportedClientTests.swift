import DispatcherCore
import Foundation
import LiveTransport
import NIOHTTP1
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// The client `apiexplorer export swift` generated from Catalog/shop.yaml (ShopClient.generated.swift,
/// compiled into this target) sends through `DispatcherCore` the same requests as `apiexplorer call`
/// sends for the catalog: same method, target, headers and body bytes on the server's side.
@Suite(.offPool) struct ExportedClientTests {
    @Test func generatedClientSendsWhatCallSends() async throws {
        setenv("EXPORTED_SHOP_TOKEN", "token-123", 1)
        setenv("EXPORTED_SHOP_PASSWORD", "p&ss word", 1)
        let catalog = try #require(Bundle.module.url(forResource: "Catalog", withExtension: nil))
        try await withTestHTTPServer(handler: { _ in .json(#"{"ok": true}"#) }) { server in
            let origin = "http://127.0.0.1:\(server.port)"
            let folder = try TemporaryDirectory()
            let text = try String(contentsOf: catalog.appendingPathComponent("shop.yaml"), encoding: .utf8)
            try folder.write("shop.yaml", text.replacingOccurrences(of: "http://127.0.0.1:9", with: origin))
            var environment = Shop.local
            environment.baseURL = try #require(URL(string: environment.baseURL.absoluteString.replacingOccurrences(of: "http://127.0.0.1:9", with: origin)))
            let transport = HTTPTransport(configuration: .init(proxy: .none))
            try await withShutdown {
                try await Self.compare(Dispatcher<Shop>(environment: environment, transport: transport), server: server, catalog: folder)
            } shutdown: {
                try await transport.shutdown()
            }
        }
    }

    /// Sends each case through the generated client, then through `apiexplorer call`, comparing what arrived.
    static func compare(_ dispatcher: Dispatcher<Shop>, server: TestHTTPServer, catalog folder: TemporaryDirectory) async throws {
        let cases: [(target: Shop, id: String, variables: [String])] = [
            (.getItem(), "getItem", []),
            (.getItem(itemId: "a b/c", term: "ü?&=", trace: "t 2"), "getItem", ["itemId=a b/c", "term=ü?&=", "trace=t 2"]),
            (.createItem(name: "Pen \"Deluxe\"\n\\"), "createItem", ["name=Pen \"Deluxe\"\n\\"]),
            (.logIn, "logIn", []),
            (.setNote(itemId: "42"), "setNote", ["itemId=42"]),
        ]
        for (target, id, variables) in cases {
            let response = try await dispatcher.request(target)
            #expect(response.status == 200)
            let fromClient = try #require(server.lastRequest)

            var environmentVariables = ProcessInfo.processInfo.environment
            environmentVariables["XDG_STATE_HOME"] = folder.path
            for name in ["APIEXPLORER_CATALOG", "http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"] { environmentVariables[name] = nil }
            let arguments = ["call", "shop/\(id)", "--catalog", folder.path, "--live", "--no-history", "--trust"] + variables.flatMap { ["--var", $0] }
            let called = await (try ChildProcess(
                BuiltProducts.executable(named: "apiexplorer").path, arguments, environment: environmentVariables, directory: folder.path)).finish()
            #expect(called.status == 0, "\(id): \(called.errors)")
            let fromCall = try #require(server.lastRequest)

            #expect(fromClient.method == fromCall.method, "\(id)")
            #expect(fromClient.uri == fromCall.uri, "\(id)")
            #expect(fromClient.body == fromCall.body, "\(id): \(String(decoding: fromClient.body, as: UTF8.self)) vs \(String(decoding: fromCall.body, as: UTF8.self))")
            let headers = { (request: TestRequest) in
                request.headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
            }
            #expect(headers(fromClient) == headers(fromCall), "\(id)")
        }
        // The catalog's values arrive: the secret from the process environment, the body escaped.
        let createItem = server.requests.first { $0.uri == "/shop/items" }
        #expect(createItem?.headers["Authorization"].first == "Bearer token-123")
        #expect(createItem.map { String(decoding: $0.body, as: UTF8.self) } == #"{"name":"Pen \"Deluxe\"\n\\","price":3,"tags":["a","é"]}"#)
    }
}
