import Catalog
import DispatcherCore
import DriftCheck
import Foundation
import Sessions
import StateStore
import Testing
import TestTraits

/// Drift between stubs and live responses: each kind of difference is found, values alone are
/// not drift, and a check sends each endpoint in stub mode and live and compares them.
@Suite(.offPool) struct DriftCheckerTests {
    func response(_ body: String, status: Int = 200, contentType: String? = "application/json") -> Response {
        var headers = Headers()
        if let contentType { headers.add("Content-Type", contentType, origin: .server) }
        return Response(status: status, headers: headers, body: Data(body.utf8))
    }

    func differences(stub: String, live: String) -> [DriftDifference] {
        DriftChecker.compare(stub: response(stub), live: response(live))
    }

    @Test func sameShapeWithOtherValuesIsNoDrift() {
        #expect(differences(
            stub: #"{"id": 1, "name": "Pen", "tags": ["a"], "owner": {"email": null}, "items": [{"n": 1}, {"n": 2}]}"#,
            live: #"{"id": 99, "name": "Cup", "tags": ["b", "c"], "owner": {"email": null}, "items": [{"n": 5}]}"#).isEmpty)
    }

    @Test func statusAndContentType() {
        #expect(DriftChecker.compare(stub: response("{}"), live: response("{}", status: 404)) == [.status(stub: 200, live: 404)])
        #expect(DriftChecker.compare(stub: response("{}"), live: response("{}", contentType: "application/problem+json"))
            == [.contentType(stub: "application/json", live: "application/problem+json")])
        #expect(DriftChecker.compare(stub: response("{}", contentType: "application/json; charset=utf-8"), live: response("{}")).isEmpty)
        #expect(DriftChecker.compare(stub: response("{}"), live: response("<html/>", contentType: "text/html"))
            == [.contentType(stub: "application/json", live: "text/html"), .bodyFormat(stub: "JSON", live: "not JSON")])
    }

    @Test func membersMissingAndExtra() {
        #expect(differences(stub: #"{"id": 1, "name": "x"}"#, live: #"{"id": 1, "sku": "x"}"#)
            == [.missingMember(path: "$.name", always: true), .extraMember(path: "$.sku")])
        #expect(differences(stub: #"{"a": {"b": 1}}"#, live: #"{"a": {}}"#) == [.missingMember(path: "$.a.b", always: true)])
        #expect(differences(stub: #"{"odd key": 1}"#, live: "{}") == [.missingMember(path: "$['odd key']", always: true)])
    }

    @Test func valueTypes() {
        #expect(differences(stub: #"{"price": 1.5}"#, live: #"{"price": "1.5"}"#) == [.type(path: "$.price", stub: [.number], live: [.string])])
        #expect(differences(stub: "[1]", live: #"{"items": [1]}"#) == [.type(path: "$", stub: [.array], live: [.object])])
    }

    @Test func nullability() {
        #expect(differences(stub: #"{"email": "a@b.c"}"#, live: #"{"email": null}"#)
            == [.nullability(path: "$.email", stubNullable: false, liveNullable: true)])
        #expect(differences(stub: #"{"email": null}"#, live: #"{"email": "a@b.c"}"#)
            == [.nullability(path: "$.email", stubNullable: true, liveNullable: false)])
        // Some elements null live: the element shape is nullable.
        #expect(differences(stub: #"[{"v": 1}, {"v": 2}]"#, live: #"[{"v": 1}, {"v": null}]"#)
            == [.nullability(path: "$[*].v", stubNullable: false, liveNullable: true)])
    }

    @Test func arrayElementShapes() {
        #expect(differences(stub: #"[{"id": 1, "tags": ["a"]}]"#, live: #"[{"id": 1, "tags": [2]}, {"id": 2, "tags": []}]"#)
            == [.type(path: "$[*].tags[*]", stub: [.string], live: [.number])])
        #expect(differences(stub: #"[{"id": 1, "name": "a"}]"#, live: #"[{"id": 1, "name": "a"}, {"id": 2}]"#)
            == [.missingMember(path: "$[*].name", always: false)])
        let empty = differences(stub: #"{"tags": []}"#, live: #"{"tags": ["a"]}"#)
        #expect(empty == [.arrayElements(path: "$.tags", stubEmpty: true)])
        #expect(empty.allSatisfy { !$0.isDrift })
    }

    @Test func reportTextReadsWell() {
        let report = DriftReport(service: "shop", environment: "local", date: Date(), endpoints: [
            EndpointDrift(endpoint: "getItem", method: "GET", outcome: .same),
            EndpointDrift(endpoint: "listItems", method: "GET", outcome: .drifted, differences: [.status(stub: 200, live: 500)]),
            EndpointDrift(endpoint: "createItem", method: "POST", outcome: .skipped, reason: "POST may change data"),
        ])
        #expect(report.text == """
            shop (local): 2 endpoints checked, 1 drifted, 1 skipped
              ✓ getItem     GET   no drift
              ✗ listItems   GET   1 difference
                  status: stub 200, live 500
              - createItem  POST  skipped: POST may change data
            """)
        #expect(report.hasProblems)
    }

    /// A live server whose answers have another shape than the stubs.
    struct DriftingServer: Transport {
        func send(_ request: Request) async throws(TransportError) -> Response {
            var headers = Headers()
            headers.add("Content-Type", "application/json", origin: .server)
            return Response(status: 200, headers: headers, body: Data(#"{"id": "7"}"#.utf8))
        }
    }

    @Test func aCheckComparesStubAndLiveAndSkipsWhatMayChangeData() async throws {
        let catalog = CatalogLoader.load(
            fileSystem: InMemoryFileSystem(texts: [
                "shop.yaml": """
                    service: shop
                    environments:
                      local: { baseURL: "http://127.0.0.1:9" }
                    endpoints:
                      getItem: { path: /items/1, stub: { body: { id: 1 } } }
                      deleteItem: { method: DELETE, path: /items/1, stub: { status: 204 } }
                    """
            ]), source: .bundled)
        let service = try #require(catalog.service("shop"))
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: DriftingServer())
        let report = await DriftChecker.check(service: service, environment: service.environments[0], caller: caller, date: Date())
        #expect(report.endpoints.map(\.outcome) == [.drifted, .skipped])
        #expect(report.endpoints.first?.differences == [.type(path: "$.id", stub: [.number], live: [.string])])
        #expect(report.endpoints.last?.reason == "DELETE may change data (--include-unsafe checks it)")
    }
}
