import Foundation
import NIOHTTP1
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `test --contract SERVICE` on a whole imported document (issue 49, item 3): every operation is
/// counted, checked against the schema the import kept (by its stub fixtures, and live against a
/// server that breaks the document), or said not checkable and why — without one `expect:`.
@Suite(.offPool) struct ContractDocumentTests {
    static let document = """
        openapi: 3.0.3
        info: { title: Shop, version: "1.0" }
        paths:
          /pets:
            get:
              operationId: listPets
              responses:
                "200":
                  description: the pets
                  content:
                    application/json:
                      schema: { type: array, items: { $ref: "#/components/schemas/Pet" } }
            post:
              operationId: createPet
              requestBody:
                content:
                  application/json:
                    schema: { $ref: "#/components/schemas/NewPet" }
                    example: { name: Bo }
              responses:
                "201":
                  description: created
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Pet" }
          /pets/{petId}:
            parameters:
              - { name: petId, in: path, required: true, schema: { type: integer }, example: 1 }
            get:
              operationId: getPet
              responses:
                "200":
                  description: a pet
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Pet" }
                "404":
                  description: none
                  content:
                    application/json:
                      schema: { $ref: "#/components/schemas/Error" }
            delete:
              operationId: deletePet
              responses:
                "204": { description: deleted }
          /owners/{ownerId}:
            get:
              operationId: getOwner
              parameters:
                - { name: ownerId, in: path, required: true, schema: { type: string } }
              responses:
                "200":
                  description: an owner
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [name]
                        properties: { name: { type: string } }
          /health:
            get:
              operationId: health
              responses:
                "200":
                  description: up
                  content:
                    text/plain:
                      schema: { type: string }
          /stats:
            get:
              operationId: stats
              responses:
                "200":
                  description: counts
                  content:
                    application/json:
                      schema:
                        type: object
                        required: [count]
                        properties: { count: { type: integer } }
        components:
          schemas:
            Pet:
              type: object
              required: [id, name]
              properties:
                id: { type: integer, minimum: 1 }
                name: { type: string }
                tag: { type: string }
            NewPet:
              type: object
              required: [name]
              properties: { name: { type: string } }
            Error:
              type: object
              required: [code]
              properties: { code: { type: string } }
        """

    /// Breaks the document: listPets (two violations in one item), getPet (a wrong type), stats
    /// (a 500); createPet, deletePet, getOwner and health answer as documented.
    static func answer(_ request: TestRequest) -> TestResponse {
        let path = request.path
        switch (request.method, path) {
        case (.GET, "/pets"): return .json(#"[{"id":1,"name":"Rex"},{"id":0,"name":5}]"#)
        case (.POST, "/pets"): return .json(#"{"id":3,"name":"Bo"}"#, status: .created)
        case (.DELETE, _): return .status(.noContent)
        case (.GET, "/health"): return .text("up", headers: ["Content-Type": "text/plain"])
        case (.GET, "/stats"): return .json(#"{"error":"boom"}"#, status: .internalServerError)
        case (.GET, _) where path.hasPrefix("/owners/"): return .json(#"{"name":"Ann"}"#)
        case (.GET, _) where path.hasPrefix("/pets/"): return .json(#"{"id":"seven","name":"Rex"}"#)
        default: return .json(#"{"code":"notFound"}"#, status: .notFound)
        }
    }

    /// Imports the document with the server as its `servers` entry; the catalog folder and the
    /// name of the environment at the server.
    static func imported(server: TestHTTPServer, state: TemporaryDirectory) async throws -> (catalog: String, environment: String) {
        try state.write("shop-openapi.yaml", document.replacingOccurrences(of: "paths:", with: "servers: [{ url: \"\(server.baseURL.absoluteString)\" }]\npaths:"))
        let run = try await CLI.run(["import", "openapi", "shop-openapi.yaml", "--out", "catalog", "--service", "shop"], state: state)
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        let yaml = try #require(state.read("catalog/shop.yaml"))
        let lines = yaml.split(separator: "\n").map(String.init)
        let at = try #require(lines.firstIndex { $0.contains("baseURL: \(server.baseURL.absoluteString)") }, "\(yaml)")
        // The environment's key: the nearest line above at two spaces' indent (`  server1:`).
        let key = try #require(lines[..<at].last { $0.hasPrefix("  ") && !$0.hasPrefix("   ") })
        let name = key.trimmingCharacters(in: .whitespaces).prefix { $0 != ":" }
        return (state.url.appendingPathComponent("catalog").path, String(name))
    }

    static func contract(_ run: ChildProcess.Captured) throws -> [String: Any] {
        let report = try jsonObject(run.stdout)
        let summary = try #require(report["summary"] as? [String: Any])
        return try #require(summary["contract"] as? [String: Any], "\(run.output)")
    }

    @Test func everyOperationIsCheckedOrSaidWhyNot() async throws {
        try await withTestHTTPServer(handler: { Self.answer($0) }) { server in
            let state = try TemporaryDirectory()
            let (catalog, environment) = try await Self.imported(server: server, state: state)

            // Live: the server's breaks, each with its JSON Pointer; the report alone on standard output.
            let live = try await CLI.run(
                ["test", "--contract", "shop", "--live", "--env", environment, "--catalog", catalog, "--report", "json:-"], state: state)
            #expect(live.status == 1, "\(live.errors)")
            let counts = try Self.contract(live)
            #expect(counts["operations"] as? Int == 7)
            #expect(counts["checked"] as? Int == 5)
            #expect(counts["broken"] as? Int == 3)
            #expect(counts["findings"] as? Int == 4)
            #expect(counts["notCheckable"] as? [String: Int] == ["no schema": 2])
            #expect(live.errors.contains("Contract: 7 operations;"), "\(live.errors)")
            #expect(live.errors.contains("/1/id: "), "\(live.errors)")
            #expect(live.errors.contains("/1/name: "), "\(live.errors)")
            #expect(live.errors.contains("/id: "), "\(live.errors)")
            #expect(live.errors.contains("a server error (status 500)"), "\(live.errors)")
            #expect(live.errors.contains("SKIP   shop/health "), "\(live.errors)")

            // Stub: the fixtures the import made conform to the schemas they came from.
            let stub = try await CLI.run(["test", "--contract", "shop", "--stub", "--catalog", catalog, "--report", "json:-"], state: state)
            let stubCounts = try Self.contract(stub)
            #expect(stubCounts["operations"] as? Int == 7, "\(stub.errors)")
            #expect(stubCounts["broken"] as? Int == 0, "\(stub.errors)")
        }
    }
}
