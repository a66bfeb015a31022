import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import TestSupport
import Testing
import TestTraits

/// Postman Collection v2.1 import (the collection format's folders, variables, auth, bodies,
/// examples and scripts; environment files), checked through the real loader and a stub call.
@Suite(.offPool) struct PostmanImportTests {
    static func acme() throws -> CatalogImport {
        try PostmanImporter.catalog(
            collection: try interopResource("postman/acme.postman_collection.json"), documentName: "acme.postman_collection.json",
            environments: [
                .init(fileName: "staging.postman_environment.json", data: try interopResource("postman/staging.postman_environment.json")),
                .init(fileName: "production.postman_environment.json", data: try interopResource("postman/production.postman_environment.json")),
            ])
    }

    @Test func collectionBecomesCatalogsThatLoadAndAnswerInStubMode() async throws {
        let (folder, catalog) = try loadWritten(try Self.acme())
        #expect(catalog.services.map(\.id).sorted() == ["acme-api", "acme-api-status"])
        let acme = try #require(catalog.service("acme-api"))
        #expect(acme.environments.map(\.name) == ["local", "acme-staging", "acme-production"])
        #expect(acme.environments[1].baseURL.absoluteString == "https://staging.acme.example/v1")
        #expect(acme.environments[2].type == .production)
        #expect(acme.environments[1].variables["searchTerm"] == "lamp")
        #expect(acme.variables["limit"] == "25")
        #expect(acme.variables["disabledOne"] == nil)
        #expect(acme.endpoints.map(\.id) == ["listUsers", "getUser", "createUser", "deleteUser", "logIn", "uploadAvatar", "searchGraphQL", "health"])

        // Folders → groups; inherited bearer auth on the folder's group, the nested folder's API key on its own.
        #expect(acme.groups.map(\.id) == ["users", "admin", "forms-graphql"])
        #expect(acme.groups[0].headers["Authorization"] == "Bearer {{secret.ACME_API_ACCESSTOKEN}}")
        #expect(acme.groups[1].headers["X-Admin-Key"] == "{{secret.ACME_API_X_ADMIN_KEY}}")
        let getUser = try #require(acme.endpoint("getUser"))
        #expect(getUser.group == "users")
        #expect(getUser.path == "/users/{{id}}")
        #expect(getUser.parameters == ["id": "42"])
        #expect(getUser.exampleNames == ["default", "noSuchUser"])

        let list = try #require(acme.endpoint("listUsers"))
        #expect(list.query.map(\.name) == ["page", "limit", "api_key"])
        #expect(list.query[2].value == "{{secret.ACME_API_API_KEY}}")
        #expect(list.headers["X-Debug"] == nil)

        let create = try #require(acme.endpoint("createUser"))
        #expect(create.parameters["userName"] == "ann", "the folder's variable")
        let login = try #require(acme.endpoint("logIn"))
        #expect(login.group == nil, "it turns the folder's inherited bearer auth off, so it cannot be in the folder's group")
        #expect(login.headers["Authorization"] == nil)
        #expect(acme.endpoint("uploadAvatar")?.group == "forms-graphql")
        #expect(acme.endpoint("health")?.headers["X-Api-Key"] == "{{secret.ACME_API_APIKEY}}")

        // A stub call works, with the stand-in secret in the inherited header.
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let outcome = await caller.call(EndpointSelection(service: acme, endpoint: getUser, environment: acme.environments[0]), mode: .stub)
        #expect(outcome.exchange.error == nil, "\(outcome.exchange.error?.message ?? "")")
        #expect(outcome.exchange.request.url.absoluteString == "http://127.0.0.1:4010/acme-api/users/42")
        #expect(outcome.exchange.request.headers["Authorization"] == "Bearer demo-acme-api-accesstoken")
        let body = try #require(outcome.exchange.response.map { String(decoding: $0.body, as: UTF8.self) })
        #expect(body.contains(#""name": "Ann""#))
        #expect(outcome.exchange.response?.headers["X-Request-Id"] == "r-1")
        #expect(outcome.exchange.response?.headers["Set-Cookie"] == nil)
        // GraphQL answers errors inside a 200: a graphql body's built-in rule names them (no rule is written).
        #expect(acme.errorRules.isEmpty)
        #expect(acme.endpoint("searchGraphQL")?.graphQL != nil)
        let search = try #require(acme.endpoint("searchGraphQL"))
        let graphQL = await caller.call(EndpointSelection(service: acme, endpoint: search, environment: acme.environments[0]), mode: .stub)
        #expect(graphQL.exchange.response?.status == 200)
        #expect(graphQL.exchange.error?.kind.name == "graphQLError")
        #expect(graphQL.exchange.error?.message == "term too short (at search)")
        #expect(catalog.service("acme-api-status")?.errorRules.isEmpty == true)
        let missing = await caller.call(EndpointSelection(service: acme, endpoint: getUser, environment: acme.environments[0]), mode: .stub, example: "noSuchUser")
        #expect(missing.exchange.response?.status == 404)

        // Secret values are nowhere in what was written.
        let written = writtenText(folder)
        for secret in ["staging-real-token-123", "staging-password-456", "prod-real-token-789", "s3cr3t-admin-key", "live-api-key-never-written", "abc123literal", "abcdef0123456789"] {
            #expect(!written.contains(secret), "\(secret)")
        }
    }

    @Test func bodiesOfEveryModeAreKept() throws {
        let result = try Self.acme()
        let acme = try #require(result.drafts.first)
        let endpoints = Dictionary(uniqueKeysWithValues: acme.endpoints.map { ($0.id, $0) })
        guard case .json(let user)? = endpoints["createUser"]?.body else { Issue.record("createUser: no JSON body"); return }
        #expect(user.compactText == #"{"name":"{{userName}}","email":"ann@example.com"}"#)
        guard case .form(let form)? = endpoints["logIn"]?.body else { Issue.record("logIn: no form"); return }
        #expect(form.map { "\($0.0)=\($0.1)" } == ["username=ann", "password={{secret.ACME_API_PASSWORD}}"])
        guard case .multipart(let parts)? = endpoints["uploadAvatar"]?.body else { Issue.record("uploadAvatar: no multipart body"); return }
        // The file was on the exporter's machine: the field stays, its file a placeholder to set (marked missing).
        #expect(parts == [
            CatalogDraft.MultipartDraftField(name: "caption", value: "Me, {{userName}}"),
            CatalogDraft.MultipartDraftField(name: "file", file: "{{file_file}}", filename: "avatar.png"),
        ])
        #expect(endpoints["uploadAvatar"]?.header("Content-Type") == nil, "the catalog's multipart body sets its own boundary")
        #expect(result.messages.contains {
            $0.contains("form-data file field 'file' names /home/ann/avatar.png, which is outside the document's folder (imports read no file from elsewhere): set {{file_file}}")
        }, "\(result.messages)")
        guard case .graphql(let query, let variables, let operationName)? = endpoints["searchGraphQL"]?.body else {
            Issue.record("search: no graphql body")
            return
        }
        #expect(variables == .object(["term": "{{searchTerm}}"]))
        #expect(query.hasPrefix("query Search($term: String!)"))
        #expect(operationName == nil)
    }

    @Test func scriptsAreListedAndKeptAsComments() throws {
        let result = try Self.acme()
        #expect(result.messages.contains("acme.postman_collection.json /event/0: a Postman pre-request script is not run; it is kept as a comment in the catalog"))
        #expect(result.notes.contains { $0.message == "a Postman test script is not run; it is kept as a comment in the catalog" && $0.source?.hasSuffix("/event/0") == true })
        #expect(result.messages.contains { $0.contains("{{$guid}}") } == false, "the script's text is not a request's")
        let yaml = try #require(result.drafts.first?.yaml)
        #expect(yaml.contains("""
              # Postman test script of endpoint acme-api/getUser (not run by apiexplorer):
              #   pm.test("status is 200", function () {
              #       pm.response.to.have.status(200);
              #   });
              getUser:
            """))
        #expect(yaml.contains("# Postman pre-request script of the collection (not run by apiexplorer):"))
        #expect(result.messages.contains { $0.contains("set $APIEXPLORER_SECRET_ACME_API_ACCESSTOKEN") })
        #expect(result.messages.contains { $0.contains("requests to https://status.acme.example are in service acme-api-status") })
    }

    @Test func collectionV20AuthObjectsAndStringURLsImport() throws {
        let collection = #"""
            {"info": {"name": "Old one", "schema": "https://schema.getpostman.com/json/collection/v2.0.0/collection.json"},
             "auth": {"type": "basic", "basic": {"username": "ann", "password": "hunter2"}},
             "item": [{"name": "Ping", "request": "http://localhost:8080/ping"},
                      {"name": "Pong", "request": {"method": "PUT", "url": "localhost:8080/pong/{{n}}"}},
                      {"name": "Sign in", "request": {"method": "POST", "url": "localhost:8080/signin",
                        "body": {"mode": "raw", "raw": "{\"user\": \"ann\", \"password\": \"json-literal-pw\"}", "options": {"raw": {"language": "json"}}}}},
                      {"name": "发送短信", "request": {"method": "POST", "url": "localhost:8080/sms/send?mobile=1"}},
                      {"name": "Token", "request": {"method": "POST", "url": "localhost:8080/token",
                        "body": {"mode": "urlencoded", "urlencoded": [{"key": "grant_type", "value": "client_credentials"}, {"key": "client_secret", "value": "form-literal-secret"}]}}}],
             "variable": [{"key": "n", "value": 3}]}
            """#
        let result = try PostmanImporter.catalog(collection: Data(collection.utf8), documentName: "old.json")
        let (folder, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("old-one"))
        #expect(service.environments.map(\.baseURL.absoluteString) == ["http://127.0.0.1:4010/old-one", "http://localhost:8080"])
        #expect(service.endpoint("ping")?.headers["Authorization"] == "Basic {{secret.OLD_ONE_BASIC}}")
        #expect(service.endpoint("pong")?.path == "/pong/{{n}}")
        #expect(service.endpoint("postSmsSend")?.title == "发送短信", "a name without ASCII letters: the id comes from the method and path")
        #expect(service.variables["n"] == "3")
        for secret in ["hunter2", "json-literal-pw", "form-literal-secret"] { #expect(!writtenText(folder).contains(secret), "\(secret)") }
        #expect(service.endpoint("signIn")?.body == .json(["user": "ann", "password": "{{secret.OLD_ONE_PASSWORD}}"]))
        #expect(result.messages.contains { $0.contains("{{secret.OLD_ONE_BASIC}} holds base64 of user:password") }, "\(result.messages)")
    }

    @Test func fileBodiesAreCopiedBesideTheCatalogWhenTheyCanBeRead() async throws {
        let collection = #"""
            {"info": {"name": "Files", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "Upload", "request": {"method": "PUT", "url": "https://files.example/doc",
                        "header": [{"key": "Content-Type", "value": "text/csv"}],
                        "body": {"mode": "file", "file": {"src": "data/report.csv"}}}},
                      {"name": "Missing", "request": {"method": "PUT", "url": "https://files.example/other",
                        "body": {"mode": "file", "file": {"src": "gone.bin"}}}}]}
            """#
        let result = try PostmanImporter.catalog(
            collection: Data(collection.utf8), documentName: "files.json", files: DocumentFiles(["data/report.csv": Data("a,b\n1,2\n".utf8)]))
        #expect(result.messages.contains { $0.contains("endpoint missing: its body is read from gone.bin, which could not be read: kept as a body file marked missing") })
        guard case .file(let missing)? = result.drafts.first?.endpoints.last?.body else { Issue.record("no body file"); return }
        #expect(missing == "{{body_file}}")
        let (folder, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("files"))
        let upload = try #require(service.endpoint("upload"))
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let sent = await caller.call(EndpointSelection(service: service, endpoint: upload, environment: service.environments[0]), mode: .stub)
        // A bodyFile is streamed from disk when sent (issue 14): the same bytes.
        // The file is read when sent, so the folder must still be there.
        #expect(FileManager.default.fileExists(atPath: folder.path))
        #expect(try sent.exchange.request.streamedBody?.collect(limit: 1 << 20) == Data("a,b\n1,2\n".utf8))
        #expect(sent.exchange.request.headers["Content-Type"] == "text/csv")
    }

    @Test func whatCannotBeImportedFailsWithAReasonAndWritesNothing() throws {
        #expect(throws: AuthoringError.invalidInput("v1.json is a Postman Collection v1; export it again as Collection v2.1 (Postman: Export, v2.1)")) {
            try PostmanImporter.catalog(collection: Data(#"{"name": "x", "requests": []}"#.utf8), documentName: "v1.json")
        }
        #expect(throws: AuthoringError.self) { try PostmanImporter.catalog(collection: Data("{oops".utf8), documentName: "x") }
        #expect(throws: AuthoringError.self) {
            try PostmanImporter.catalog(
                collection: Data(#"{"info": {"name": "x"}, "item": []}"#.utf8), documentName: "x",
                environments: [.init(fileName: "e.json", data: Data(#"{"name": "e"}"#.utf8))])
        }
        // A catalog the loader refuses is never written, not even in part.
        var draft = CatalogDraft(service: "broken")
        draft.environments = [CatalogDraft.Environment(name: "local", baseURL: "not a url")]
        draft.endpoints = [CatalogDraft.Endpoint(id: "a", method: "GET", path: "/a")]
        draft.fixtures = [("fixtures/broken/a.json", Data("{}".utf8))]
        let folder = try TemporaryDirectory()
        #expect(throws: AuthoringError.self) { try CatalogImport(drafts: [draft]).write(into: folder.url, force: false) }
        #expect(folder.fileNames().isEmpty)
    }
}

/// Form-data file fields whose files can be read become file fields of a `multipart:` body, the
/// file copied beside the catalog and streamed from there.
@Suite(.offPool) struct PostmanFormDataFileTests {
    @Test func readableFileFieldsAreCopiedAndSentAsFileParts() async throws {
        let collection = #"""
            {"info": {"name": "Photos", "schema": "https://schema.getpostman.com/json/collection/v2.1.0/collection.json"},
             "item": [{"name": "Upload", "request": {"method": "POST", "url": "https://photos.example/upload",
               "body": {"mode": "formdata", "formdata": [
                 {"key": "title", "value": "Holiday", "type": "text"},
                 {"key": "photo", "type": "file", "src": "pictures/beach.png", "contentType": "image/png"},
                 {"key": "more", "type": "file", "src": ["a.txt", "gone.txt"]}]}}}]}
            """#
        let files = ["pictures/beach.png": Data([0x89, 0x50, 0x4E, 0x47]), "a.txt": Data("first".utf8)]
        let result = try PostmanImporter.catalog(collection: Data(collection.utf8), documentName: "photos.json", files: DocumentFiles(files))
        #expect(result.messages.contains { $0.contains("'more' names gone.txt, which could not be read: set {{more_file}}") }, "\(result.messages)")
        let (folder, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("photos"))
        let upload = try #require(service.endpoint("upload"))
        guard case .multipart(let fields) = upload.body else { Issue.record("no multipart body: \(upload.body)"); return }
        #expect(fields.map(\.name) == ["title", "photo", "more", "more"])
        #expect(fields[3].content == .file(path: "{{more_file}}", filename: "gone.txt"), "the missing one stays, marked missing")
        #expect(fields[1].contentType == "image/png")
        #expect(FileManager.default.contents(atPath: folder.url.appendingPathComponent("fixtures/photos/upload-photo-beach.png").path) == files["pictures/beach.png"])

        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let missing = await caller.call(EndpointSelection(service: service, endpoint: upload, environment: service.environments[0]), mode: .stub).exchange
        #expect(missing.error?.message.contains("multipart file more uses {{more_file}}, which has no value") == true, "\(missing.error?.message ?? "")")
        try folder.write("more.txt", "second")
        let sent = await caller.call(
            EndpointSelection(service: service, endpoint: upload, environment: service.environments[0]), mode: .stub, values: ["more_file": "more.txt"]
        ).exchange
        #expect(sent.error?.kind != .invalidRequest, "\(sent.error?.message ?? "")")
    }
}
