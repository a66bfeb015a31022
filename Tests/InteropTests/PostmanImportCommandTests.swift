import Foundation
import TestSupport
import TestTraits
import Testing

extension BinaryTests {
    @Suite(.offPool) struct PostmanImportCommandTests {
        @Test func importPostmanWritesCatalogsThatCallWorksWith() async throws {
            let state = try TemporaryDirectory()
            let collection = try #require(Bundle.module.url(forResource: "Resources/postman/acme.postman_collection.json", withExtension: nil))
            let staging = try #require(Bundle.module.url(forResource: "Resources/postman/staging.postman_environment.json", withExtension: nil))
            let result = try await CLI.run(["import", "postman", collection.path, "--environment", staging.path, "--output", "catalog"], state: state)
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.contains("service acme-api, 8 endpoints, 2 environments"))
            #expect(result.errors.contains("a Postman test script is not run; it is kept as a comment in the catalog"), "\(result.errors)")
            let call = try await CLI.run(["call", "acme-api/getUser", "--catalog", "catalog", "--json"], state: state)
            #expect(call.status == 0, "\(call.errors)")
            let again = try await CLI.run(["import", "postman", collection.path, "--output", "catalog"], state: state)
            #expect(again.status == 2)
            #expect(again.errors.contains("--force replaces"))
        }
    }
}
