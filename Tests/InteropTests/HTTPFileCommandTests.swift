import Foundation
import JSONSupport
import TestSupport
import TestTraits
import Testing

extension BinaryTests {
    @Suite(.offPool) struct HTTPFileCommandTests {
        @Test func importHTTPThenExportHTTP() async throws {
            let state = try TemporaryDirectory()
            let file = try #require(Bundle.module.url(forResource: "Resources/http/petstore.http", withExtension: nil))
            let result = try await CLI.run(["import", "http", file.path, "--out", "catalog"], state: state)
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.contains("service petstore, 6 endpoints, 3 environments, 1 fixtures"))
            #expect(state.read("catalog/fixtures/petstore/replaceFromAFile-body-pet.json") != nil)
            let export = try await CLI.run(["export", "http", "petstore/findPet", "--catalog", "catalog", "--env", "dev"], state: state)
            #expect(export.status == 0, "\(export.errors)")
            #expect(export.output.contains("@baseUrl = http://localhost:8080/api\n"))
            #expect(export.output.contains("### Find a pet\n# @name findPet\nGET {{baseUrl}}/pet/{{petId}}\nAccept: application/json\n"))
            let all = try await CLI.run(["export", "http", "petstore", "--catalog", "catalog", "--out", "all.http"], state: state)
            #expect(all.status == 0, "\(all.errors)")
            // Secrets as the HTTP clients write them, {{NAME}}, named in a private environment file beside it.
            #expect(state.read("all.http")?.contains("Authorization: Bearer {{PETSTORE_TOKEN}}") == true)
            #expect(state.read("all.http")?.contains("dev-secret-token") == false)
            let privateFile = try JSONValue.parse(Data(try #require(state.read("http-client.private.env.json")).utf8))
            #expect(privateFile["local"]?["PETSTORE_TOKEN"] == "")
            #expect(all.errors.contains("http-client.private.env.json: PETSTORE_TOKEN"), "\(all.errors)")
        }
    }
}
