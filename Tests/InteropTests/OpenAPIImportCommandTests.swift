import Foundation
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// `import openapi`: the Petstore 3 document written as a catalog that validates and answers, and
    /// the command's refusals.
    @Suite(.offPool) struct OpenAPIImportCommandTests {
        @Test func importCommandWritesTheCatalog() async throws {
            let state = try TemporaryDirectory()
            let document = try #require(Bundle.module.url(forResource: "Resources/petstore-openapi-3.0.yaml", withExtension: nil))
            let result = try await CLI.run(["import", "openapi", document.path, "--out", "catalog", "--service", "petstore"], state: state)
            #expect(result.status == 0, "\(result.errors)")
            #expect(state.read("catalog/IMPORT-NOTES.md")?.contains("the request body (application/octet-stream) is a file the document does not give") == true)
            #expect(result.output.contains("service petstore, 15 endpoints, 3 environments"))
            let validate = try await CLI.run(["validate", "catalog"], state: state)
            #expect(validate.status == 0, "\(validate.output)")
            let call = try await CLI.run(["call", "petstore/getPetById", "--catalog", "catalog", "--json"], state: state)
            #expect(call.status == 0, "\(call.errors)")
            let again = try await CLI.run(["import", "openapi", document.path, "--out", "catalog", "--service", "petstore"], state: state)
            #expect(again.status == 2)
            let missing = try await CLI.run(["import", "openapi", "nope.yaml"], state: state)
            #expect(missing.status == 2)
        }
    }
}
