import Catalog
import CatalogTestSupport
import Foundation
import CatalogAuthoring
import DriftCheck
import StateStore
import MockServer
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// The commands as a person runs them: the built binary, its output, JSON fields and exit statuses.
    /// One at a time, as every suite under `BinaryTests`.
    @Suite(.offPool) struct CommandTests {
        /// A catalog folder with the shop catalog, and a state folder for the history.
        struct Setup {
            let catalog: TemporaryDirectory
            let state: TemporaryDirectory

            init(baseURL: String = "http://127.0.0.1:9/shop") throws {
                catalog = try TemporaryDirectory()
                state = try TemporaryDirectory()
                try ShopCatalog.write(into: catalog, baseURL: baseURL)
            }

            /// Runs a command that reads the catalog.
            func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> CLI.Result {
                try await CLI.run(arguments + ["--catalog", catalog.path], state: state, environment: environment)
            }

            /// Runs a command that only reads the state (history, export har).
            func runWithoutCatalog(_ arguments: [String]) async throws -> CLI.Result {
                try await CLI.run(arguments, state: state)
            }
        }

        /// Runs `body` with a mock server serving the shop catalog's fixtures and a setup pointing at it.
        func withMockShop(_ body: (Setup, MockServer) async throws -> Void) async throws {
            let source = try TemporaryDirectory()
            try ShopCatalog.write(into: source)
            let service = try #require(CatalogLoader.load(source.catalogSource, trust: .everything).service("shop"))
            let server = MockServer(services: [service], configuration: MockServer.Configuration(port: 0, honourDelays: false))
            try await server.start()
            do {
                let setup = try Setup(baseURL: try #require(server.baseURL(of: "shop")).absoluteString)
                try await body(setup, server)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
        }

        @Test func listPrintsServicesEnvironmentsAndEndpoints() async throws {
            let setup = try Setup()
            let text = try await setup.run(["list"])
            #expect(text.status == 0)
            #expect(text.output.contains("shop  Test shop"))
            #expect(text.output.contains("\n  GET   shop/getItem     /items/{{itemId}}  One item\n  GET   shop/listItems   /items\n  POST  shop/createItem  /items\n"))

            let json = try await setup.run(["list", "--json"])
            #expect(json.status == 0)
            let object = try jsonObject(json.stdout)
            let services = try #require(object["services"] as? [[String: Any]])
            #expect(services.map { $0["id"] as? String } == ["shop"])
            let environments = try #require(services[0]["environments"] as? [[String: Any]])
            #expect(environments[0]["name"] as? String == "local")
            #expect(environments[0]["default"] as? Bool == true)
            #expect(environments[0]["mode"] as? String == "stub")
            let endpoints = try #require(services[0]["endpoints"] as? [[String: Any]])
            #expect(endpoints.map { $0["id"] as? String } == ["getItem", "listItems", "createItem", "needsValue"])
            #expect(endpoints[0]["examples"] as? [String] == ["default", "missing"])
            #expect(endpoints[2]["method"] as? String == "POST")
        }

        @Test func callPrintsTheBodyAndExitsZero() async throws {
            let setup = try Setup()
            let result = try await setup.run(["call", "shop/getItem"])
            #expect(result.status == 0)
            #expect(result.output == ShopCatalog.item + "\n")
            #expect(result.errors.isEmpty)

            let included = try await setup.run(["call", "shop/getItem", "--include"])
            #expect(included.output.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\r\n{"))
        }

        @Test func callJSONDescribesRequestResponseAndError() async throws {
            let setup = try Setup()
            let result = try await setup.run(["call", "shop/getItem", "--json", "--var", "itemId=12"])
            #expect(result.status == 0)
            let object = try jsonObject(result.stdout)
            #expect(object["service"] as? String == "shop")
            #expect(object["endpoint"] as? String == "getItem")
            #expect(object["environment"] as? String == "local")
            #expect(object["mode"] as? String == "stub")
            #expect(object["error"] is NSNull)
            #expect(object["example"] is NSNull)
            let request = try #require(object["request"] as? [String: Any])
            #expect(request["method"] as? String == "GET")
            #expect(request["url"] as? String == "http://127.0.0.1:9/shop/items/12")
            let headers = try #require(request["headers"] as? [[String: String]])
            #expect(headers.contains { $0["name"] == "Authorization" && $0["value"] == "Bearer ••••" })
            #expect(!result.output.contains("shop-secret-token"))
            let response = try #require(object["response"] as? [String: Any])
            #expect(response["status"] as? Int == 200)
            #expect(response["size"] as? Int == ShopCatalog.item.utf8.count + 1)
            #expect(response["source"] as? String == "stub")
            #expect(response["timeMs"] is NSNumber)
            let body = try #require(response["body"] as? [String: Any])
            #expect(body["encoding"] as? String == "utf8")
            #expect(body["text"] as? String == ShopCatalog.item + "\n")
        }

        @Test func mappedErrorExitsOneWithTheErrorOnStandardError() async throws {
            let setup = try Setup()
            let plain = try await setup.run(["call", "shop/getItem", "--example", "missing"])
            #expect(plain.status == 1)
            #expect(plain.output == #"{"message":"No such item"}"#)
            #expect(plain.errors == "error: notFound (HTTP 404): No such item\n")

            let json = try await setup.run(["call", "shop/getItem", "--example", "missing", "--json"])
            #expect(json.status == 1)
            let error = try #require(try jsonObject(json.stdout)["error"] as? [String: Any])
            #expect(error["kind"] as? String == "notFound")
            #expect(error["message"] as? String == "No such item")
            #expect(error["status"] as? Int == 404)
        }

        @Test func usageAndCatalogErrorsExitTwo() async throws {
            let setup = try Setup()
            let unknownEndpoint = try await setup.run(["call", "shop/getItme"])
            #expect(unknownEndpoint.status == 2)
            #expect(unknownEndpoint.errors.contains("did you mean 'getItem'?"))
            let unknownService = try await setup.run(["call", "shp/getItem"])
            #expect(unknownService.status == 2)
            let unknownEnvironment = try await setup.run(["call", "shop/getItem", "--env", "prod"])
            #expect(unknownEnvironment.status == 2)
            let unknownExample = try await setup.run(["call", "shop/getItem", "--example", "gone"])
            #expect(unknownExample.status == 2)
            let unresolved = try await setup.run(["call", "shop/needsValue"])
            #expect(unresolved.status == 2)
            #expect(unresolved.errors.contains("{{query}}"))
            let bothModes = try await setup.run(["call", "shop/getItem", "--stub", "--live"])
            #expect(bothModes.status == 2)
            let badVariable = try await setup.run(["call", "shop/getItem", "--var", "oops"])
            #expect(badVariable.status == 2)
            let missingArgument = try await setup.run(["call"])
            #expect(missingArgument.status == 2)
        }

        @Test func liveCallGoesOverTheNetwork() async throws {
            try await withMockShop { setup, _ in
                let result = try await setup.run(["call", "shop/getItem", "--live", "--json"])
                #expect(result.status == 0, "\(result.errors)")
                let object = try jsonObject(result.stdout)
                #expect(object["mode"] as? String == "live")
                let response = try #require(object["response"] as? [String: Any])
                #expect(response["source"] as? String == "network")
                #expect(response["status"] as? Int == 200)

                // An example is a fixture: a live call refuses it rather than send X-Mock-Example.
                let missing = try await setup.run(["call", "shop/getItem", "--live", "--example", "missing"])
                #expect(missing.status == 2)
                #expect(missing.errors.contains("--example missing picks a fixture"))
            }
        }

        @Test func callsAreKeptInTheHistory() async throws {
            let setup = try Setup()
            _ = try await setup.run(["call", "shop/getItem"])
            _ = try await setup.run(["call", "shop/getItem", "--example", "missing"])
            _ = try await setup.run(["call", "shop/listItems", "--no-history"])
            _ = try await setup.run(["call", "shop/needsValue"])
            let text = try await setup.runWithoutCatalog(["history"])
            #expect(text.status == 0)
            let lines = text.output.split(separator: "\n")
            try #require(lines.count == 2)
            #expect(lines[0].contains("stub  GET shop/getItem (local)  200 OK"))
            #expect(lines[1].contains("404 Not Found  → notFound: No such item"))

            let json = try await setup.runWithoutCatalog(["history", "--json", "--limit", "1"])
            let entries = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
            #expect(entries.count == 1)
            #expect(entries[0]["example"] as? String == "missing")
            let file = setup.state.url.appendingPathComponent("apiexplorer/history.jsonl")
            let permissions = try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
            #expect(permissions?.intValue == 0o600)
            #expect(!(try String(contentsOf: file, encoding: .utf8)).contains("shop-secret-token"))

            let cleared = try await setup.runWithoutCatalog(["history", "--clear"])
            #expect(cleared.status == 0)
            #expect(try await setup.runWithoutCatalog(["history", "--json"]).output.trimmingCharacters(in: .whitespacesAndNewlines) == "[]")
        }

        @Test func exportCurlMasksSecretsUnlessRevealed() async throws {
            let setup = try Setup()
            let masked = try await setup.run(["export", "curl", "shop/getItem"])
            #expect(masked.status == 0)
            #expect(masked.output == """
                curl \\
                  http://127.0.0.1:9/shop/items/7 \\
                  -H 'Accept: application/json' \\
                  -H 'Authorization: Bearer ••••'

                """)
            let revealed = try await setup.run(["export", "curl", "shop/getItem", "--reveal", "--var", "itemId=8"])
            #expect(revealed.output.contains("-H 'Authorization: Bearer shop-secret-token'"))
            #expect(revealed.output.contains("/items/8"))
            let post = try await setup.run(["export", "curl", "shop/createItem", "--var", "name=Lamp"])
            #expect(post.output.contains("-X POST"))
            #expect(post.output.contains(#"--data-raw '{"name":"Lamp"}'"#))
            let unresolved = try await setup.run(["export", "curl", "shop/needsValue"])
            #expect(unresolved.status == 2)
        }

        @Test func exportHARWritesTheHistory() async throws {
            let setup = try Setup()
            _ = try await setup.run(["call", "shop/getItem"])
            _ = try await setup.run(["call", "shop/createItem", "--var", "name=Lamp"])
            let result = try await setup.runWithoutCatalog(["export", "har"])
            #expect(result.status == 0)
            let log = try HARReader.read(result.stdout)
            #expect(log.entries.count == 2)
            let out = setup.state.url.appendingPathComponent("out.har")
            let written = try await setup.runWithoutCatalog(["export", "har", "--out", out.path])
            #expect(written.status == 0)
            #expect(try HARReader.read(try Data(contentsOf: out)).entries.count == 2)
        }
    }
}

extension BinaryTests {
    /// `call` chains as the explorer does: captures kept in the state folder, response references
    /// read from the history, questions answered with --var (no terminal here).
    @Suite(.offPool) struct CallChainingTests {
        static let pets = """
            service: pets
            environments:
              local:
                baseURL: http://127.0.0.1:9
                fixtures: immediate
            endpoints:
              addPet:
                method: POST
                path: /pet
                captures: { petId: $.id }
                stub:
                  status: 201
                  body: { id: 12, name: Rex }
              getPet:
                path: /pet/{{petId}}
                stub:
                  body: { id: 12 }
              byReference:
                path: /pet/{{response.addPet $.name}}
              tagPet:
                method: PUT
                path: /pet/{{petId}}/tag/{{prompt.tag}}
                prompts:
                  tag: { message: Which tag?, choices: [red, blue] }
            """

        @Test func aCapturedIdFeedsTheNextCallAndQuestionsNeedAnAnswer() async throws {
            let catalog = try TemporaryDirectory()
            let state = try TemporaryDirectory()
            try Data(Self.pets.utf8).write(to: catalog.url.appendingPathComponent("pets.yaml"))
            func run(_ arguments: [String]) async throws -> CLI.Result {
                try await CLI.run(arguments + ["--catalog", catalog.path], state: state)
            }
            let before = try await run(["call", "pets/getPet"])
            #expect(before.status == 2)
            #expect(before.errors.contains("uses {{petId}}, which has no value"))

            #expect(try await run(["call", "pets/addPet"]).status == 0)
            let captured = ExplorerStateFiles.captured(in: state.url.appendingPathComponent("apiexplorer")).load()
            #expect(captured[EnvironmentKey(try #require(CatalogLoader.load(.folder(catalog.path), trust: .everything).service("pets")), environment: "local")]?.stub["petId"]?.value == "12")

            let after = try await run(["call", "pets/getPet", "--json"])
            #expect(after.status == 0)
            #expect(try jsonObject(after.stdout)["request"].flatMap { ($0 as? [String: Any])?["url"] as? String } == "http://127.0.0.1:9/pet/12")

            let reference = try await run(["call", "pets/byReference", "--json"])
            #expect(try jsonObject(reference.stdout)["request"].flatMap { ($0 as? [String: Any])?["url"] as? String } == "http://127.0.0.1:9/pet/Rex")

            let unanswered = try await run(["call", "pets/tagPet"])
            #expect(unanswered.status == 2)
            #expect(unanswered.errors.contains("asks \"Which tag?\" ({{prompt.tag}}) and there is no terminal to ask on: give --var prompt.tag=VALUE"))
            let answered = try await run(["call", "pets/tagPet", "--var", "prompt.tag=red", "--json"])
            #expect(try jsonObject(answered.stdout)["request"].flatMap { ($0 as? [String: Any])?["url"] as? String } == "http://127.0.0.1:9/pet/12/tag/red")
        }
    }
}
