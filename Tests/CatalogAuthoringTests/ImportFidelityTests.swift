import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Sessions
import TestSupport
import TestTraits
import Testing

/// Issue 50: one test per defect found on files as real editors and tools write them, each from a
/// minimal file written here.
@Suite(.offPool) struct ImportFidelityTests {
    static let bom = "\u{FEFF}"

    /// `text` with CR LF line ends and a UTF-8 byte-order mark, as a Windows editor saves it.
    static func windows(_ text: String) -> Data {
        Data((bom + text.replacing("\n", with: "\r\n")).utf8)
    }

    static func stub(_ catalog: CatalogSet, _ service: String, _ endpoint: String) async throws -> Exchange {
        let service = try #require(catalog.service(service))
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let selection = EndpointSelection(service: service, endpoint: try #require(service.endpoint(endpoint)), environment: service.environments[0])
        return await caller.call(selection, mode: .stub).exchange
    }

    // MARK: Files as editors save them

    /// Visual Studio's `.http` template starts with a byte-order mark: its first `@variable` line
    /// was read as a GET request. With CR LF too, every format reads as without them.
    @Test func aByteOrderMarkAndCRLFAreReadInEveryFormat() throws {
        let http = Self.windows("@host = https://api.example.com\n\n### Ping\nGET {{host}}/ping\nAccept: application/json\n")
        let fromHTTP = try HTTPFileImporter.catalog(text: String(decoding: http, as: UTF8.self), documentName: "vs.http")
        #expect(fromHTTP.drafts.flatMap(\.endpoints).map(\.path) == ["/ping"])
        #expect(fromHTTP.drafts.first?.variables.contains { $0.0 == "host" } == true)

        let openAPI = Self.windows("openapi: 3.0.3\ninfo: { title: Bom, version: \"1\" }\npaths:\n  /a:\n    get:\n      responses: { \"200\": { description: ok } }\n")
        #expect(try OpenAPIImporter.draft(from: openAPI, documentName: "bom.yaml").endpoints.map(\.path) == ["/a"])
        let swagger = Self.windows("swagger: \"2.0\"\ninfo: { title: Bom, version: \"1\" }\nhost: api.example.com\npaths:\n  /b:\n    get:\n      responses: { \"200\": { description: ok } }\n")
        #expect(try OpenAPIImporter.draft(from: swagger, documentName: "bom.yaml").endpoints.map(\.path) == ["/b"])
        let openAPIJSON = Self.windows(#"{"openapi": "3.1.0", "info": {"title": "Bom", "version": "1"}, "paths": {"/c": {"get": {"responses": {"200": {"description": "ok"}}}}}}"#)
        #expect(try OpenAPIImporter.draft(from: openAPIJSON, documentName: "bom.json").endpoints.map(\.path) == ["/c"])

        let insomnia = Self.windows("""
            _type: export
            __export_format: 4
            resources:
              - { _id: wrk_1, _type: workspace, name: Bom }
              - { _id: req_1, _type: request, parentId: wrk_1, name: Ping, method: GET, url: "https://api.example.com/ping" }

            """)
        #expect(try InsomniaImporter.catalog(export: insomnia, documentName: "bom.yaml").drafts.flatMap(\.endpoints).map(\.path) == ["/ping"])
        let postman = Self.windows(#"{"info": {"name": "Bom", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"}, "item": [{"name": "Ping", "request": {"method": "GET", "url": "https://api.example.com/ping"}}]}"#)
        let environment = PostmanImporter.EnvironmentFile(fileName: "prod.json", data: Self.windows(#"{"name": "prod", "values": [{"key": "x", "value": "1"}]}"#))
        #expect(try PostmanImporter.catalog(collection: postman, documentName: "bom.json", environments: [environment]).drafts.flatMap(\.endpoints).map(\.path) == ["/ping"])
        let har = Self.windows(#"{"log": {"version": "1.2", "entries": [{"request": {"method": "GET", "url": "https://api.example.com/ping", "headers": []}, "response": {"status": 204, "headers": [], "content": {"size": 0}}}]}}"#)
        #expect(try HARImporter.catalog(har: har, documentName: "bom.har").drafts.flatMap(\.endpoints).map(\.path) == ["/ping"])
        let sdl = Self.windows("type Query {\n  ping: String\n}\n")
        #expect(try GraphQLImporter.catalog(schema: sdl, documentName: "bom.graphql", url: URL(string: "http://localhost:4000/graphql")!).endpointCount == 1)
        #expect(try CurlCommandParser.parse(Self.bom + "curl https://api.example.com/ping").url.absoluteString == "https://api.example.com/ping")
    }

    /// `< ./file` parts of a `.http` multipart body were sent as the literal text: now each part
    /// reads its file's bytes as they are (CR LF inside a file stays), text parts are sent with
    /// CR LF between their lines as both clients send them, and the catalog sends the same upload.
    @Test func httpMultipartPartsReadTheirFiles() async throws {
        let picture = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF])
        let files = DocumentFiles(["photo.png": picture, "notes/readme.txt": Data("line one\r\nline two\n".utf8)])
        let text = """
            POST https://api.example.com/upload
            Content-Type: multipart/form-data; boundary=WebAppBoundary

            --WebAppBoundary
            Content-Disposition: form-data; name="title"

            Holiday
            in the hills
            --WebAppBoundary
            Content-Disposition: form-data; name="photo"; filename="photo.png"
            Content-Type: image/png

            < ./photo.png
            --WebAppBoundary
            Content-Disposition: form-data; name="notes"; filename="readme.txt"

            < notes/readme.txt
            --WebAppBoundary--
            """
        let result = try HTTPFileImporter.catalog(text: text, documentName: "upload.http", files: files)
        let (folder, catalog) = try loadWritten(result)
        let endpoint = try #require(catalog.services.first?.endpoints.first)
        guard case .multipart(let fields) = endpoint.body else { Issue.record("not multipart: \(endpoint.body)"); return }
        #expect(fields.map(\.name) == ["title", "photo", "notes"])
        #expect(fields.first?.content == .text("Holiday\r\nin the hills"))
        #expect(fields[1].contentType == "image/png")
        #expect(fields[1].filename == "photo.png")
        guard case .file(let photoPath, _) = fields[1].content, case .file(let notesPath, _) = fields[2].content else { Issue.record("files: \(fields)"); return }
        #expect(try Data(contentsOf: URL(fileURLWithPath: photoPath)) == picture)
        #expect(try Data(contentsOf: URL(fileURLWithPath: notesPath)) == Data("line one\r\nline two\n".utf8))
        #expect(fields[2].filename == "readme.txt")
        #expect(endpoint.headers["Content-Type"] == nil, "the form makes its own boundary")

        // `export http` writes the files as `< ./path` parts that read back to the same upload.
        let service = try #require(catalog.services.first)
        let exported = HTTPFileExporter.export(service: service, environment: service.environments[1], folder: folder.path)
        #expect(exported.text.contains("< ./\(photoPath.dropFirst(folder.path.count + 1))"), "\(exported.text)")
        #expect(!exported.text.contains(folder.path), "no absolute path: \(exported.text)")
        #expect(!exported.notes.contains { $0.contains("outside the folder") }, "\(exported.notes)")
        #expect(exported.notes.contains { $0.contains("a .http file has no place for the other environments") }, "\(exported.notes)")
        let again = try HTTPFileImporter.catalog(text: exported.text, documentName: "again.http", files: DocumentFiles(folder: folder.path))
        let (reloadedFolder, reloaded) = try loadWritten(again)
        defer { withExtendedLifetime(reloadedFolder) {} }
        guard case .multipart(let back)? = reloaded.services.first?.endpoints.first?.body else { Issue.record("lost the form"); return }
        #expect(back.map(\.name) == fields.map(\.name))
        #expect(back.first?.content == fields.first?.content)
        for (before, after) in zip(fields.dropFirst(), back.dropFirst()) {
            guard case .file(let one, _) = before.content, case .file(let two, _) = after.content else { Issue.record("not files"); continue }
            #expect(try Data(contentsOf: URL(fileURLWithPath: one)) == Data(contentsOf: URL(fileURLWithPath: two)))
            #expect(before.filename == after.filename)
            #expect(before.contentType == after.contentType)
        }
    }

    /// A title of several lines was written after `###` whole, its second line then read as the
    /// request line; a body file was written with its absolute path even inside the folder.
    @Test func exportHTTPWritesOneLineTitlesAndRelativeFiles() throws {
        let folder = try TemporaryDirectory()
        try folder.write("fixtures/files/body.json", #"{"a": 1}"#)
        try folder.write("svc.yaml", """
            service: svc
            environments:
              local: { baseURL: "https://api.example.com" }
            endpoints:
              create:
                title: "Create a response\\nwith streaming"
                method: POST
                path: /responses
                bodyFile: fixtures/files/body.json
                headers: { Content-Type: application/json }
              list: { title: List, path: /responses }
            """)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        let service = try #require(catalog.services.first)
        let exported = HTTPFileExporter.export(service: service, environment: service.environments[0], folder: folder.path)
        #expect(exported.text.contains("### Create a response with streaming\n# @name create\n"), "\(exported.text)")
        #expect(exported.text.contains("< ./fixtures/files/body.json"), "\(exported.text)")
        let again = try HTTPFileImporter.catalog(text: exported.text, documentName: "svc.http", files: DocumentFiles(folder: folder.path))
        #expect(again.drafts.flatMap(\.endpoints).map(\.id) == ["create", "list"])
        // Elsewhere, the path stays absolute and the note says `import http` will not read it.
        let other = HTTPFileExporter.export(service: service, environment: service.environments[0], folder: "/somewhere/else")
        #expect(other.notes.contains { $0.contains("is outside the folder of the .http file") }, "\(other.notes)")
    }

    // MARK: Repairs, not losses

    /// A path key holding a query (`/responses?beta=true`) was left out; a `oneOf` multipart
    /// schema became `multipart: null`. Both are repaired, each with a note at its place.
    @Test func queryInAPathKeyAndOneOfMultipartAreRepaired() async throws {
        let document = """
            openapi: 3.1.0
            info: { title: Repairs, version: "1" }
            paths:
              /responses?beta=true:
                get:
                  operationId: listResponses
                  responses: { "200": { description: ok } }
              /shared_items#folders:
                get: { operationId: sharedFolders, responses: { "200": { description: ok } } }
              /shared_items#web_links:
                get: { operationId: sharedWebLinks, responses: { "200": { description: ok } } }
              /files:
                post:
                  operationId: upload
                  requestBody:
                    required: true
                    content:
                      multipart/form-data:
                        schema:
                          oneOf:
                            - { title: by file, type: object, required: [file, purpose], properties: { file: { type: string, format: binary }, purpose: { type: string, example: batch } } }
                            - { title: by URL, type: object, required: [url], properties: { url: { type: string } } }
                  responses: { "200": { description: ok } }
            """
        let result = try OpenAPIImporter.catalog(from: Data(document.utf8), documentName: "repairs.yaml")
        #expect(!result.isPartial, "\(result.messages)")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.services.first)
        let list = try #require(service.endpoint("listResponses"))
        #expect(list.path == "/responses")
        #expect(list.query.map { "\($0.name)=\($0.value ?? "")" } == ["beta=true"])
        #expect(result.messages.contains("repairs.yaml /paths/~1responses?beta=true/get: a path holds a query (/responses?beta=true): the path is /responses, the query items are sent with every request"))
        #expect(service.endpoint("sharedFolders")?.path == "/shared_items")
        #expect(service.endpoint("sharedWebLinks")?.path == "/shared_items")
        #expect(result.messages.contains("repairs.yaml /paths/~1shared_items#web_links/get: a path holds a fragment, which is never sent: the path is /shared_items"))
        let upload = try #require(service.endpoint("upload"))
        guard case .multipart(let fields) = upload.body else { Issue.record("\(upload.body)"); return }
        #expect(fields.map(\.name) == ["file", "purpose"])
        #expect(result.messages.contains("repairs.yaml /paths/~1files/post: a multipart body is one of 2 forms: the first ('by file') is sent"))
    }

    /// Postman OAuth 1.0 was a `note:` with exit 0; the contract is `left out:` and exit 3. Its
    /// consumer key and secret (environment values) are never written in clear.
    @Test func postmanOAuth1IsLeftOutAndItsCredentialsStaySecret() throws {
        let collection = #"""
            {"info": {"name": "Signed", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "auth": {"type": "oauth1", "oauth1": [{"key": "consumerKey", "value": "{{consumer_key}}"}, {"key": "consumerSecret", "value": "{{consumer_secret}}"}, {"key": "signatureMethod", "value": "HMAC-SHA1"}]},
             "item": [{"name": "Statuses", "request": {"method": "GET", "url": "{{base}}/statuses"}}]}
            """#
        let environment = PostmanImporter.EnvironmentFile(fileName: "prod.json", data: Data(#"""
            {"name": "prod", "values": [{"key": "base", "value": "https://api.example.com"}, {"key": "consumer_key", "value": "canary-consumer-key"}, {"key": "consumer_secret", "value": "canary-consumer-secret"}]}
            """#.utf8))
        let result = try PostmanImporter.catalog(collection: Data(collection.utf8), documentName: "signed.json", environments: [environment])
        #expect(result.isPartial)
        #expect(result.notes.contains { $0.kind == .skipped && $0.message.contains("OAuth 1.0 auth was left out") }, "\(result.messages)")
        let (folder, _) = try loadWritten(result)
        #expect(!writtenText(folder).contains("canary-consumer"))
    }

    /// A HAR entry whose response body the browser did not keep got a 200 stub without a body
    /// that `call --stub` refused (noData): now the stub says so and answers.
    @Test func aHAREntryWithoutItsBodyAnswersInStubMode() async throws {
        let har = #"""
            {"log": {"version": "1.2", "entries": [
              {"request": {"method": "GET", "url": "https://shop.example.com/api/cart", "headers": []},
               "response": {"status": 200, "headers": [{"name": "Content-Type", "value": "application/json"}], "content": {"size": 512, "mimeType": "application/json"}}},
              {"request": {"method": "GET", "url": "https://shop.example.com/api/items", "headers": []},
               "response": {"status": 200, "headers": [], "content": {"size": 9, "mimeType": "application/json"}}},
              {"request": {"method": "GET", "url": "https://shop.example.com/api/items", "headers": []},
               "response": {"status": 200, "headers": [], "content": {"size": 9, "mimeType": "application/json", "text": "[1, 2, 3]"}}}
            ]}}
            """#
        let result = try HARImporter.catalog(har: Data(har.utf8), documentName: "browser.har")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.services.first?.id)
        let cart = try await Self.stub(catalog, service, "getApiCart")
        #expect(cart.error == nil, "\(cart.error?.message ?? "")")
        #expect(cart.response?.status == 200)
        #expect(cart.response?.headers["Content-Type"] == "application/json")
        #expect(result.messages.contains("browser.har /log/entries/0: the capture kept no response body: the stub answers its status and headers without one (expectsBody: false)"))
        // A later entry that kept its body gives the stub.
        let items = try await Self.stub(catalog, service, "getApiItems")
        #expect(items.response.map { String(decoding: $0.body, as: UTF8.self) }?.contains("1") == true)
    }

    // MARK: Secrets by what they are

    /// `token_id`, `credential_id` and `secret_name` are identifiers: after a round trip they
    /// stay path values. Basic, Digest and AWS credentials get a secret each.
    @Test func identifiersNamedLikeSecretsStayValuesAndEachCredentialHasItsName() throws {
        let text = """
            @token_id = tok_123
            @secret_name = deploy-key
            @api_token = canary-api-token

            ### One token
            GET https://api.example.com/tokens/{{token_id}}/secrets/{{secret_name}}
            Authorization: Bearer {{api_token}}

            ### Basic
            GET https://api.example.com/basic
            Authorization: Basic ann canary-password

            ### Digest
            GET https://api.example.com/digest
            Authorization: Digest bob canary-digest

            ### AWS
            GET https://api.example.com/aws
            Authorization: AWS canary-access canary-aws-secret
            """
        let result = try HTTPFileImporter.catalog(text: text, documentName: "ids.http")
        let draft = try #require(result.drafts.first)
        #expect(draft.variables.contains { $0 == ("token_id", "tok_123") }, "\(draft.variables)")
        #expect(draft.variables.contains { $0 == ("secret_name", "deploy-key") }, "\(draft.variables)")
        #expect(!draft.variables.contains { $0.0 == "api_token" }, "a credential's value is not written")
        let headers = draft.endpoints.compactMap { $0.header("Authorization") }
        #expect(headers == ["Bearer {{secret.IDS_API_TOKEN}}", "Basic {{secret.IDS_BASIC}}", "Digest {{secret.IDS_AUTHORIZATION_DIGEST}}", "AWS {{secret.IDS_AUTHORIZATION_AWS}}"], "\(headers)")
        #expect(!draft.yaml.contains("canary"))
        #expect(result.messages.contains { $0.contains("IDS_BASIC") && $0.contains("base64 of user:password") }, "\(result.messages)")
    }

    /// Adyen's `sessionId` is an id, not a credential: kept. A `password` member is a secret.
    @Test func bodyMembersAreSecretsByWhatTheyAre() throws {
        let har = #"""
            {"log": {"version": "1.2", "entries": [
              {"request": {"method": "POST", "url": "https://checkout.example.com/payments", "headers": [],
                "postData": {"mimeType": "application/json", "text": "{\"sessionId\": \"CS12345\", \"password\": \"canary-pw\", \"token_type\": \"bearer\"}"}},
               "response": {"status": 200, "headers": [], "content": {"size": 30, "mimeType": "application/json", "text": "{\"sessionId\": \"CS12345\", \"sessionData\": \"canary-session\"}"}}}
            ]}}
            """#
        let result = try HARImporter.catalog(har: Data(har.utf8), documentName: "adyen.har")
        let (folder, _) = try loadWritten(result)
        let text = writtenText(folder)
        #expect(text.contains("CS12345"))
        #expect(text.contains("\"token_type\": \"bearer\""), "\(text)")
        #expect(!text.contains("canary"), "\(text)")
    }

    /// `validate` warned about the `"password": "string"` samples the importer wrote itself.
    @Test func theImportersOwnSamplesDrawNoValidateWarning() throws {
        let document = """
            openapi: 3.0.3
            info: { title: Accounts, version: "1" }
            paths:
              /login:
                post:
                  requestBody:
                    required: true
                    content:
                      application/json:
                        schema: { type: object, required: [username, password, token_id], properties: { username: { type: string }, password: { type: string }, token_id: { type: string } } }
                  responses: { "200": { description: ok } }
            """
        let result = try OpenAPIImporter.catalog(from: Data(document.utf8), documentName: "accounts.yaml")
        let (_, catalog) = try loadWritten(result)
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
        let body = try #require(catalog.services.first?.endpoints.first?.body)
        guard case .json(let value) = body else { Issue.record("\(body)"); return }
        #expect(value["password"] == "{{secret.ACCOUNTS_PASSWORD}}")
        #expect(value["token_id"] == "{{token_id}}")
    }

    // MARK: Notes a person can read

    /// 223 identical notes were 223 lines: now one, with the count and every place; a garbled
    /// message reads; a whole description is kept; an id has no stray full stop.
    @Test func notesAreGroupedAndReadableIdsAndDescriptionsWhole() throws {
        var items: [String] = []
        for index in 0..<30 {
            items.append(#"{"name": "Get \#(index)", "event": [{"listen": "test", "script": {"exec": ["var json = JSON.parse(responseBody);", "pm.environment.set('x', json.x);"]}}], "request": {"method": "GET", "url": "https://api.example.com/items/\#(index)"}}"#)
        }
        items.append(#"{"name": "Upload", "request": {"method": "POST", "url": "https://api.example.com/avatar", "body": {"mode": "formdata", "formdata": [{"key": "avatar", "type": "file", "src": "/Users/someone/avatar.png"}]}}}"#)
        let collection = #"""
            {"info": {"name": "Gotify REST API.", "description": "First paragraph.\n\nSecond paragraph, with details.", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "auth": {"type": "bearer", "bearer": [{"key": "token", "value": "canary-token"}]},
             "item": [\#(items.joined(separator: ","))]}
            """#
        let result = try PostmanImporter.catalog(collection: Data(collection.utf8), documentName: "gotify.json")
        let draft = try #require(result.drafts.first)
        #expect(draft.service == "gotify-rest-api")
        #expect(draft.description == "First paragraph.\n\nSecond paragraph, with details.")
        let groups = result.groupedNotes.filter { $0.message.contains("test script is not run") }
        #expect(groups.count == 1, "\(result.groupedNotes)")
        #expect(groups.first?.places.count == 30)
        #expect(groups.first?.description.contains("(30 places: gotify.json /item/0/event/0, gotify.json /item/1/event/0") == true, "\(groups)")
        let upload = try #require(result.messages.first { $0.contains("avatar") })
        #expect(upload.contains("'avatar' names /Users/someone/avatar.png, which is outside the document's folder"), "\(upload)")
        #expect(upload.contains("set {{avatar_file}}"), "\(upload)")
        let notes = CatalogImport(drafts: result.drafts, notes: result.notes)
        let (folder, _) = try loadWritten(notes)
        let written = folder.read("IMPORT-NOTES.md") ?? ""
        #expect(written.contains("(30 places):\n  - `gotify.json /item/0/event/0`"), "\(written)")
        #expect(result.messages.contains { $0.hasPrefix("set $APIEXPLORER_SECRET_GOTIFY_REST_API_TOKEN ") }, "\(result.messages)")
    }

    /// `import` said "7 fixtures" for 6 files: the response schemas are not a fixture.
    @Test func fixtureCountsCountFiles() throws {
        let document = #"{"openapi": "3.0.3", "info": {"title": "Count", "version": "1"}, "paths": {"/a": {"get": {"responses": {"200": {"description": "ok", "content": {"application/json": {"schema": {"type": "object", "properties": {"id": {"type": "integer"}}}}}}}}}}}"#
        let draft = try OpenAPIImporter.draft(from: Data(document.utf8), documentName: "count.json")
        #expect(draft.schemas != nil)
        #expect(draft.fixtures.count == 2)
        #expect(draft.fixtureFileCount == 1)
    }
}

