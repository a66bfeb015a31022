import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// `apiexplorer test` in the real binary: the bundled catalogs in stub mode and against the
    /// mock (green), and a broken fixture (red, saying what broke and where).
    @Suite(.offPool) struct TestCommandTests {
        /// Runs `apiexplorer test arguments…` with a state folder of its own.
        func test(_ arguments: [String]) async throws -> (status: Int32, output: String) {
            let state = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-test-state-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: state) }
            let (status, output) = try await ProductProcess.run(["test"] + arguments, environment: ["XDG_STATE_HOME": state.path])
            return (status, String(decoding: output, as: UTF8.self))
        }

        @Test func theBundledCatalogsPassInStubMode() async throws {
            let catalog = try TemporaryCatalog(mockPort: 4010)
            defer { catalog.remove() }
            let report = catalog.directory.appendingPathComponent("report.xml")
            let (status, output) = try await test(["--stub", "--catalog", catalog.directory.path, "--report", "junit:\(report.path)"])
            #expect(status == 0, "\(output)")
            #expect(output.contains("PASS   petstore/flow:adopt"))
            #expect(output.contains(" 0 failed, 0 errors, 0 skipped"))
            let xml = try String(contentsOf: report, encoding: .utf8)
            #expect(xml.contains(#"<testcase classname="petstore" name="flow:adopt""#))
        }

        @Test func theBundledCatalogsPassAgainstTheMock() async throws {
            let mocked = try MockedCatalogs()
            defer { mocked.remove() }
            let (status, output) = try await test(["--live", "--trust", "--catalog", mocked.catalog.directory.path])
            #expect(status == 0, "\(output)")
            #expect(output.contains("PASS   petstore/flow:adopt"))
            #expect(output.contains("PASS   petstore/login"))
            // A picked example is a fixture, never sent live: those tests are skipped, not failed.
            #expect(output.contains("SKIP   petstore/findPet#notFound"))
            #expect(output.contains(" 0 failed, 0 errors,"))
        }

        @Test func aBrokenFixtureFailsSayingWhatAndWhere() async throws {
            let catalog = try TemporaryCatalog(mockPort: 4010)
            defer { catalog.remove() }
            try #"{"id": "seven", "name": "Rex", "password": "hunter2-secret"}"#.write(
                to: catalog.directory.appendingPathComponent("fixtures/petstore/pet.json"), atomically: true, encoding: .utf8)
            let (status, output) = try await test(["--stub", "--catalog", catalog.directory.path, "petstore/findPet", "petstore/flow:adopt"])
            #expect(status == 1, "\(output)")
            #expect(output.contains("FAIL   petstore/findPet "))
            #expect(output.contains("FAIL   petstore/flow:adopt "))
            #expect(output.contains("$.id is of type integer  (\(catalog.directory.path)/petstore.yaml:"))
            #expect(output.contains("expected: is of type integer"))
            #expect(output.contains("actual:   \"seven\""))
            #expect(output.contains("step 'findPet' (status 200)"))
            #expect(output.contains("/petstore/pet/8"))  // the flow's findPet used the id addPet captured
            #expect(output.contains("Authorization: Bearer ••••"))
            #expect(!output.contains("hunter2-secret"))
            #expect(output.contains("3 tests: 1 passed, 2 failed"))  // findPet#notFound still passes
        }

        /// `--contract`: a stub that breaks the schema an import kept fails with the body's JSON
        /// Pointer and the schema's keyword; one that conforms passes; without the flag, no check.
        @Test func contractChecksEachResponseAgainstTheKeptSchema() async throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("e2e-contract-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: folder) }
            try #"""
                { "format": "apiexplorer-response-schemas/1", "dialect": "openapi-3.0", "source": "pets.yaml",
                  "endpoints": { "getPet": { "200": { "application/json": { "$ref": "#/components/schemas/Pet" } } },
                                 "goodPet": { "200": { "application/json": { "$ref": "#/components/schemas/Pet" } } } },
                  "components": { "schemas": { "Pet": { "type": "object", "required": ["id"], "properties": { "id": { "type": "integer", "minimum": 1 } } } } } }
                """#.write(to: folder.appendingPathComponent("pets.schemas.json"), atomically: true, encoding: .utf8)
            try """
                service: pets
                schemas: pets.schemas.json
                environments:
                  local:
                    baseURL: http://127.0.0.1:1
                endpoints:
                  getPet:
                    path: /pets/1
                    expect: { status: 200 }
                    stub: { headers: { Content-Type: application/json }, body: { id: -7 } }
                  goodPet:
                    path: /pets/2
                    expect: { status: 200 }
                    stub: { headers: { Content-Type: application/json }, body: { id: 2 } }
                """.write(to: folder.appendingPathComponent("pets.yaml"), atomically: true, encoding: .utf8)
            let (status, output) = try await test(["--stub", "--contract", "--catalog", folder.path])
            #expect(status == 1, "\(output)")
            #expect(output.contains("FAIL   pets/getPet "), "\(output)")
            #expect(output.contains("PASS   pets/goodPet "), "\(output)")
            #expect(output.contains("the response breaks its schema at /id: "), "\(output)")
            #expect(output.contains("[#/components/schemas/Pet/properties/id/minimum]"), "\(output)")
            let (plainStatus, plain) = try await test(["--stub", "--catalog", folder.path])
            #expect(plainStatus == 0, "\(plain)")
        }

        @Test func nothingToRunExitsFour() async throws {
            let catalog = try TemporaryCatalog(mockPort: 4010)
            defer { catalog.remove() }
            let (status, output) = try await test(["--stub", "--catalog", catalog.directory.path, "--grep", "no-such-test"])
            #expect(status == 4, "\(output)")
            #expect(output.contains("0 tests"))
        }
    }
}
