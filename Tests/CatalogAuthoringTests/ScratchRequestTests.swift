import Catalog
import CatalogAuthoring
import DispatcherCore
import Foundation
import Testing
import TestTraits

/// Scratch requests: `METHOD URL`, a URL or a curl command, sent with the settings of the
/// environment whose base URL holds it, and turned back into a request when saved.
@Suite(.offPool) struct ScratchRequestTests {
    static let catalog = CatalogLoader.load(
        fileSystem: InMemoryFileSystem(texts: [
            "shop.yaml": """
                service: shop
                environments:
                  local:
                    baseURL: http://127.0.0.1:9/shop
                    headers: { X-Tenant: acme }
                    timeouts: { read: 3 }
                endpoints:
                  getItem: { path: /items/1 }
                """
        ]), source: .bundled)

    @Test func aURLAloneIsAGetAndAMethodMayComeFirst() throws {
        let bare = try ScratchRequest.parse("  example.com/items?page=2 ")
        #expect(bare.method == .get)
        #expect(bare.url.absoluteString == "https://example.com/items?page=2")
        let posted = try ScratchRequest.parse("post http://127.0.0.1:9/shop/items")
        #expect(posted.method == .post)
        let curl = try ScratchRequest.parse("curl -X PUT http://127.0.0.1:9/x -H 'X-A: b' -d '{\"a\":1}'")
        #expect(curl.method == .put && curl.header("X-A") == "b" && curl.body == "{\"a\":1}")
    }

    /// A development server typed without a scheme (`127.0.0.1:9280/uuid`) is plain http, as curl
    /// assumes; a public name stays https, as browsers assume.
    @Test func aBareHostAndPortIsHTTP() throws {
        #expect(try ScratchRequest.parse("127.0.0.1:9280/uuid").url.absoluteString == "http://127.0.0.1:9280/uuid")
        #expect(try ScratchRequest.parse("localhost/health").url.absoluteString == "http://localhost/health")
        #expect(try ScratchRequest.parse("POST api.example.com:8080/x").url.absoluteString == "http://api.example.com:8080/x")
        #expect(try ScratchRequest.parse("[::1]:8000").url.absoluteString == "http://[::1]:8000")
        #expect(try ScratchRequest.parse("api.example.com:443/x").url.absoluteString == "https://api.example.com:443/x")
        #expect(try ScratchRequest.parse("example.com?q=1:2").url.absoluteString == "https://example.com?q=1:2")
    }

    @Test func whatIsNotARequestSaysWhy() {
        #expect(throws: AuthoringError.self) { try ScratchRequest.parse("FETCH http://x") }
        #expect(throws: AuthoringError.self) { try ScratchRequest.parse("GET http://x http://y") }
        #expect(throws: AuthoringError.self) { try ScratchRequest.parse("ftp://x/file") }
        #expect(throws: AuthoringError.self) { try ScratchRequest.parse("   ") }
    }

    @Test func aURLUnderAnEnvironmentBorrowsItsSettings() throws {
        let request = try ScratchRequest.parse("curl http://127.0.0.1:9/shop/items/3?full=1 -H 'X-Trace: 1'")
        let (service, matched) = ScratchRequest.service(for: request, id: "scratch-1", title: "Scratch 1", in: Self.catalog, preferring: nil)
        #expect(matched == EnvironmentKey(try #require(Self.catalog.service("shop")), environment: "local"))
        let environment = try #require(service.environments.first)
        #expect(environment.baseURL.absoluteString == "http://127.0.0.1:9/shop")
        #expect(environment.headers["X-Tenant"] == "acme")
        let endpoint = try #require(service.endpoints.first)
        #expect(endpoint.path == "/items/3")
        #expect(endpoint.query == [QueryItem(name: "full", value: "1")])
        #expect(endpoint.headers["X-Trace"] == "1")
        #expect(endpoint.serviceID == "scratch-1")
    }

    @Test func anyOtherURLGoesDirectlyWithDefaults() throws {
        let request = try ScratchRequest.parse("DELETE http://127.0.0.1:8/other/7")
        let (service, matched) = ScratchRequest.service(for: request, id: "scratch-2", title: "Scratch 2", in: Self.catalog, preferring: nil)
        #expect(matched == nil)
        #expect(service.environments.map(\.name) == ["direct"])
        #expect(service.environments.first?.baseURL.absoluteString == "http://127.0.0.1:8")
        #expect(service.endpoints.first?.path == "/other/7")
        #expect(service.endpoints.first?.method == .delete)
    }

    @Test func aSavedScratchRequestIsTheRequestItSent() throws {
        let typed = "curl -X POST 'http://127.0.0.1:9/shop/items?draft=1' -H 'Content-Type: application/json' -d '{\"name\":\"Desk\"}'"
        let (service, _) = ScratchRequest.service(for: try ScratchRequest.parse(typed), id: "scratch-1", title: "S", in: Self.catalog, preferring: nil)
        let endpoint = try #require(service.endpoints.first)
        let back = ScratchRequest.curlRequest(for: endpoint, baseURL: try #require(service.environments.first).baseURL)
        #expect(back.method == .post)
        #expect(back.url.absoluteString == "http://127.0.0.1:9/shop/items?draft=1")
        #expect(back.header("Content-Type") == "application/json")
        #expect(back.body == "{\"name\":\"Desk\"}")
    }
}

/// A pasted `--data-raw` is sent as it was written: JSON is checked, never compacted.
@Suite(.offPool) struct ScratchBodyBytesTests {
    @Test func aPastedJSONBodyKeepsEveryByte() throws {
        let typed = #"curl http://127.0.0.1:8/hook -H 'Content-Type: application/json' --data-raw '{"k": "v", "n": 1}'"#
        let (service, _) = ScratchRequest.service(
            for: try ScratchRequest.parse(typed), id: "scratch-1", title: "S", in: ScratchRequestTests.catalog, preferring: nil)
        let endpoint = try #require(service.endpoints.first)
        #expect(endpoint.body.encoded().data == Data(#"{"k": "v", "n": 1}"#.utf8), "18 bytes stay 18")
        let bare = try ScratchRequest.parse(#"curl http://127.0.0.1:8/hook --data-raw '[1,  2]'"#)
        let (plain, _) = ScratchRequest.service(for: bare, id: "scratch-2", title: "S", in: ScratchRequestTests.catalog, preferring: nil)
        // Without a JSON Content-Type, curl's `-d` rule: a form, its bytes as typed all the same.
        #expect(plain.endpoints.first?.body == .text("[1,  2]", contentType: "application/x-www-form-urlencoded"))
    }
}
