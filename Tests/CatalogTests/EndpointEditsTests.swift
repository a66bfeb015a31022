import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// Edits change an endpoint for the next requests only: method, path, query items and headers
/// (each can be turned off), inherited headers turned off, the body checked before anything is sent.
@Suite(.offPool) struct EndpointEditsTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:1/api
            fixtures: immediate
            headers: { Accept: application/json, X-Client: explorer }
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" } }
        endpoints:
          getItem:
            group: signedIn
            path: /items/{{id}}
            query: { expand: owner, page: "1" }
            headers: { X-Trace: t1 }
            parameters: { id: "7" }
            body: { name: Lamp }
        """

    func session() throws -> (ServiceSession, RecordingTransport, CatalogEndpoint) {
        let service = try loadCleanService(Self.catalog)
        let transport = RecordingTransport { request throws(TransportError) in Response.json(200, "{}") }
        let session = ServiceSession(
            service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: ["APIEXPLORER_SECRET_SHOP_TOKEN": "tok-1234"]),
            transport: transport, clock: .instant)
        return (session, transport, try #require(service.endpoint("getItem")))
    }

    @Test func noEditIsEmptyAndChangesNothing() throws {
        let (_, _, endpoint) = try session()
        #expect(EndpointEdits().isEmpty)
        #expect(try endpoint.applying(EndpointEdits()) == endpoint)
    }

    @Test func everyPartCanChange() async throws {
        let (session, transport, endpoint) = try session()
        var edits = EndpointEdits()
        edits.method = .put
        edits.path = "/items/{{id}}/archive"
        edits.query = [.init(name: "expand", value: "owner", isEnabled: false), .init(name: "page", value: "2"), .init(name: "debug", value: nil)]
        edits.headers = [.init(name: "X-Trace", value: "t2"), .init(name: "X-New", value: "{{id}}")]
        edits.removedHeaders = ["x-client"]
        edits.body = .text(#"{"name": "Chair", "id": "{{id}}"}"#, isJSON: true)
        let exchange = await session.send(endpoint, edits: edits, options: RequestOptions(stubBehavior: .never))
        #expect(exchange.error == nil, "\(exchange.error?.message ?? "")")
        let request = try #require(transport.requests.first)
        #expect(request.method == .put)
        #expect(request.url.absoluteString == "http://127.0.0.1:1/api/items/7/archive?page=2&debug")
        #expect(request.headers["X-Trace"] == "t2")
        #expect(request.headers.first { $0.name == "X-Trace" }?.origin == .edited)
        #expect(request.headers["X-New"] == "7")
        #expect(request.headers["X-Client"] == nil, "an inherited header turned off is not sent")
        #expect(request.headers["Accept"] == "application/json")
        #expect(request.headers["Authorization"] == "Bearer tok-1234")
        #expect(try JSONValue.parse(request.body ?? Data()) == ["name": "Chair", "id": "7"])
        // The catalog's endpoint is unchanged: the next plain send is as written.
        _ = await session.send(endpoint, options: RequestOptions(stubBehavior: .never))
        #expect(transport.requests.last?.url.absoluteString == "http://127.0.0.1:1/api/items/7?expand=owner&page=1")
    }

    /// A signed body breaks if a byte changes: edited JSON is checked, then sent as written
    /// (spacing, key order, number spelling), a value filled into one of its strings escaped.
    @Test func anEditedJSONBodyIsSentByteForByte() async throws {
        let (session, transport, endpoint) = try session()
        let typed = "{\"k\": \"v\",  \"n\": 1.50,\n \"id\": \"{{id}}\", \"q\": \"{{quote}}\"}"
        let edits = EndpointEdits(body: .text(typed, isJSON: true))
        let exchange = await session.send(
            endpoint, values: ["quote": #"say "hi"\"#], edits: edits, options: RequestOptions(stubBehavior: .never))
        #expect(exchange.error == nil, "\(exchange.error?.message ?? "")")
        let request = try #require(transport.requests.first)
        let sent = String(decoding: request.body ?? Data(), as: UTF8.self)
        #expect(sent == "{\"k\": \"v\",  \"n\": 1.50,\n \"id\": \"7\", \"q\": \"say \\\"hi\\\"\\\\\"}")
        #expect(try JSONValue.parse(Data(sent.utf8))["q"] == .string(#"say "hi"\"#))
        #expect(request.headers["Content-Type"] == "application/json")
    }

    @Test func anEditedHeaderSaysSoAndAnUnchangedOneKeepsItsOrigin() throws {
        let (_, _, endpoint) = try session()
        var edits = EndpointEdits(headers: EndpointEdits.items(of: endpoint.headers))
        var edited = try endpoint.applying(edits)
        #expect(edited.headers.first?.origin == .endpoint)
        edits.headers?[0].value = "changed"
        edited = try endpoint.applying(edits)
        #expect(edited.headers.first?.origin == .edited)
        #expect(HeaderOrigin.edited.description == "edited")
    }

    @Test func aJSONBodyThatDoesNotParseIsNotSentAndSaysWhere() async throws {
        let (session, transport, endpoint) = try session()
        let edits = EndpointEdits(body: .text("{\n  \"name\": \"Chair\",\n}", isJSON: true))
        #expect(throws: EditsError.self) { try endpoint.applying(edits) }
        let exchange = await session.send(endpoint, edits: edits, options: RequestOptions(stubBehavior: .never))
        #expect(exchange.error?.kind == .invalidRequest)
        #expect(exchange.error?.message.contains("line 3, column 1") == true, "\(exchange.error?.message ?? "")")
        #expect(transport.requests.isEmpty)
    }

    @Test func bodiesTextAndFormsAndNone() throws {
        let (_, _, endpoint) = try session()
        #expect(try endpoint.applying(EndpointEdits(body: EndpointEdits.none)).body == .none)
        #expect(try endpoint.applying(EndpointEdits(body: .text("hello", isJSON: false))).body == .text("hello", contentType: nil))
        let form = try endpoint.applying(EndpointEdits(body: .form([.init(name: "a", value: "1"), .init(name: "b", value: "2", isEnabled: false)])))
        #expect(form.body == .form([QueryItem(name: "a", value: "1")]))
        #expect(EndpointEdits.body(of: endpoint.body) == .text("{\n  \"name\": \"Lamp\"\n}", isJSON: true))
    }

    @Test func editsRoundTripThroughJSON() throws {
        let edits = EndpointEdits(
            method: .post, path: "/x", query: [.init(name: "q", value: nil, isEnabled: false)], headers: [.init(name: "A", value: "b")],
            removedHeaders: ["Accept"], body: .text("{}", isJSON: true))
        let data = try JSONEncoder().encode(edits)
        #expect(try JSONDecoder().decode(EndpointEdits.self, from: data) == edits)
    }
}

extension EndpointEdits {
    /// Edits that send no body.
    static let none = EndpointEdits.Body.none
}
