import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Sessions
import TestSupport
import Testing
import TestTraits

/// HAR 1.2 import: services by host, ids that vary become placeholders, responses become
/// fixtures, credentials never in clear.
@Suite(.offPool) struct HARImportTests {
    static func shop() throws -> CatalogImport {
        try HARImporter.catalog(har: try interopResource("har/shop.har"), documentName: "shop.har")
    }

    @Test func captureBecomesCatalogsByHost() async throws {
        let result = try Self.shop()
        let (folder, catalog) = try loadWritten(result)
        #expect(catalog.services.map(\.id).sorted() == ["cdn.shop.example", "shop"])
        let shop = try #require(catalog.service("shop"))
        #expect(shop.environments.map(\.name) == ["local", "recorded"])
        #expect(shop.environments[1].baseURL.absoluteString == "https://api.shop.example")
        #expect(shop.endpoints.map(\.id) == ["getApiUsers", "getApiOrders", "postApiLogin", "getApiItems", "postApiNewsletter"])

        // /users/42, /users/57, /users/99 share a shape: the id is a placeholder; the one order stays as it was.
        let users = try #require(shop.endpoint("getApiUsers"))
        #expect(users.path == "/api/users/{{userId}}")
        #expect(users.parameters == ["userId": "42"])
        #expect(users.exampleNames == ["default", "notFound"])
        #expect(shop.endpoint("getApiOrders")?.path == "/api/orders/3f2a1c9e-0000-4000-8000-000000000001")

        // Browser noise is left out; credentials are secrets.
        #expect(users.headers.map(\.name) == ["accept", "cookie", "authorization"])
        #expect(users.headers["authorization"] == "Bearer {{secret.SHOP_TOKEN}}")
        #expect(users.headers["cookie"] == "{{secret.SHOP_COOKIE}}")
        #expect(shop.endpoint("getApiItems")?.query == [QueryItem(name: "page", value: "1"), QueryItem(name: "api_key", value: "{{secret.SHOP_API_KEY}}")])
        let login = try #require(shop.endpoint("postApiLogin"))
        #expect(login.body == .json(["user": "ann", "password": "{{secret.SHOP_PASSWORD}}"]))
        guard case .form(let form) = try #require(shop.endpoint("postApiNewsletter")).body else { Issue.record("no form"); return }
        #expect(form == [QueryItem(name: "email", value: "ann@example.com"), QueryItem(name: "csrf_token", value: "{{secret.SHOP_CSRF_TOKEN}}")])

        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let outcome = await caller.call(EndpointSelection(service: shop, endpoint: users, environment: shop.environments[0]), mode: .stub)
        #expect(outcome.exchange.error == nil, "\(outcome.exchange.error?.message ?? "")")
        #expect(outcome.exchange.request.url.absoluteString == "http://127.0.0.1:4010/shop/api/users/42")
        let userBody = String(decoding: outcome.exchange.response?.body ?? Data(), as: UTF8.self)
        #expect(userBody.contains(#""name": "Ann""#))
        let loginReply = await caller.call(EndpointSelection(service: shop, endpoint: login, environment: shop.environments[0]), mode: .stub)
        let loginBody = String(decoding: loginReply.exchange.response?.body ?? Data(), as: UTF8.self)
        #expect(loginBody.contains(#""token": "••••""#))

        let cdn = try #require(catalog.service("cdn.shop.example"))
        #expect(folder.read("fixtures/cdn.shop.example/getStaticLogoTxt.txt") == "hello logo", "base64 content is decoded")
        #expect(cdn.endpoint("getStaticAppJs") != nil)
        // The data: and chrome-extension: entries never went over the network: named with their place.
        #expect(result.messages.contains("shop.har /log/entries/9: entries that are not http(s) requests (data:) were left out"))
        #expect(result.messages.contains("shop.har /log/entries/10: entries that are not http(s) requests (chrome-extension:) were left out"))
        #expect(!result.isPartial)

        let written = writtenText(folder)
        for secret in ["real-har-bearer", "har-cookie-value", "hunter2-har", "jwt-secret-value-123", "har-query-key", "har-csrf", "new-har-session"] {
            #expect(!written.contains(secret), "\(secret)")
        }
    }

    @Test func idsAreNumbersUUIDsAndLongHex() {
        let template = { (paths: [String]) -> [String] in
            var shapes = HARPathTemplateProbe()
            return shapes.templates(paths)
        }
        #expect(template(["/a/1/b", "/a/2/b"]) == ["/a/{{aId}}/b", "/a/{{aId}}/b"])
        #expect(template(["/orders/5f8d0d55b54764421b7156c9/items/3", "/orders/5f8d0d55b54764421b7156d0/items/4"])
            == ["/orders/{{orderId}}/items/{{itemId}}", "/orders/{{orderId}}/items/{{itemId}}"])
        #expect(template(["/v1/deadbeefcafe", "/v1/feedfacebeef"]) == ["/v1/deadbeefcafe", "/v1/feedfacebeef"], "hex words without digits are names")
        #expect(template(["/users/7/repos", "/users/7/repos"]) == ["/users/7/repos", "/users/7/repos"], "the same id twice is not a pattern")
    }

    @Test func notAHARIsRefused() {
        #expect(throws: AuthoringError.invalidInput("x.har is not a HAR file (no log.entries)")) {
            try HARImporter.catalog(har: Data(#"{"entries": []}"#.utf8), documentName: "x.har")
        }
        #expect(throws: AuthoringError.self) { try HARImporter.catalog(har: Data(#"{"log": {"entries": []}}"#.utf8), documentName: "x.har") }
    }
}

/// Templates paths the way the HAR import does, through its public entry point.
struct HARPathTemplateProbe {
    mutating func templates(_ paths: [String]) -> [String] {
        let entries = paths.map { path in
            #"{"request": {"method": "GET", "url": "https://h.example\#(path)", "headers": []}, "response": {"status": 200, "headers": [], "content": {}}}"#
        }
        let har = #"{"log": {"entries": [\#(entries.joined(separator: ","))]}}"#
        guard let result = try? HARImporter.catalog(har: Data(har.utf8), documentName: "probe.har") else { return [] }
        var byShape: [String: String] = [:]
        for endpoint in result.drafts[0].endpoints { byShape[endpoint.path.replacing(#/\{\{[^}]*\}\}/#, with: "*")] = endpoint.path }
        return paths.map { path in
            byShape.first { shape, _ in matches(path, shape) }?.value ?? path
        }
    }

    private func matches(_ path: String, _ shape: String) -> Bool {
        let a = path.split(separator: "/"), b = shape.split(separator: "/")
        return a.count == b.count && zip(a, b).allSatisfy { $0 == $1 || $1 == "*" }
    }
}
