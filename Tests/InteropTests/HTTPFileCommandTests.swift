import Foundation
import JSONSupport
import TestSupport
import TestTraits
import Testing

extension BinaryTests {
    @Suite(.offPool) struct HTTPFileCommandTests {
        /// Files as editors save them (issue 50): Visual Studio's template (a byte-order mark, CR
        /// LF, a variable first) is one GET, not a request made of the variable; multipart parts
        /// from files beside the document bring those files' bytes; one outside the folder does not.
        @Test func filesAsEditorsSaveThemImport() async throws {
            let state = try TemporaryDirectory()
            let template = try #require(Bundle.module.url(forResource: "Resources/http/vs-template/WebShop.http", withExtension: nil))
            let vs = try await CLI.run(["import", "http", template.path, "--out", "vs"], state: state)
            #expect(vs.status == 0, "\(vs.errors)")
            #expect(vs.output.contains("service webshop, 1 endpoints"), "\(vs.output)")
            let catalog = try #require(state.read("vs/webshop.yaml"))
            #expect(catalog.contains("path: /weatherforecast/"), "\(catalog)")
            #expect(catalog.contains("WebShop_HostAddress: http://localhost:5095"), "\(catalog)")

            let document = try #require(Bundle.module.url(forResource: "Resources/http/uploads/upload.http", withExtension: nil))
            let files = document.deletingLastPathComponent().appendingPathComponent("files")
            let upload = try await CLI.run(["import", "http", document.path, "--out", "up"], state: state)
            #expect(upload.status == 0, "\(upload.errors)")
            #expect(upload.output.contains("service upload, 2 endpoints, 2 environments, 3 fixture files"), "\(upload.output)")
            #expect(state.url.appendingPathComponent("up/fixtures/upload/uploadCatalog-prices-prices.csv").contentsIfReadable == (try Data(contentsOf: files.appendingPathComponent("prices.csv"))))
            #expect(state.url.appendingPathComponent("up/fixtures/upload/uploadCatalog-picture-avatar.png").contentsIfReadable == (try Data(contentsOf: files.appendingPathComponent("avatar.png"))))
            let written = try #require(state.read("up/upload.yaml"))
            #expect(written.contains(#"{ name: description, value: "Spring prices\r\n(second line)" }"#), "\(written)")
            #expect(written.contains("{ name: secret, file: \"{{secret_file}}\", filename: passwd }"), "\(written)")
            #expect(upload.errors.contains("upload.http:25: endpoint aPartWrittenInlineAndOneFromAFileOutsideTheFolder: form-data file field 'secret' names ../../../../../etc/passwd, which is outside the document's folder"), "\(upload.errors)")
            #expect(!written.contains("dev-secret-token"))
        }

        @Test func importHTTPThenExportHTTP() async throws {
            let state = try TemporaryDirectory()
            let file = try #require(Bundle.module.url(forResource: "Resources/http/petstore.http", withExtension: nil))
            let result = try await CLI.run(["import", "http", file.path, "--out", "catalog"], state: state)
            #expect(result.status == 0, "\(result.errors)")
            #expect(result.output.contains("service petstore, 6 endpoints, 3 environments, 1 fixture file"))
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

extension URL {
    /// The file's bytes, nil when it cannot be read.
    fileprivate var contentsIfReadable: Data? { try? Data(contentsOf: self) }
}
