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

/// One test per defect issue 36 found on documents nobody here wrote, each from a minimal file in
/// Resources/regressions (see its README): partial imports that say what and where, Swagger 2.0,
/// OpenAPI styles and required fields, `.http` fidelity, exports that keep every endpoint.
@Suite(.offPool) struct ImportRegressionTests {
    static func text(_ name: String) throws -> String { String(decoding: try interopResource("regressions/\(name)"), as: UTF8.self) }

    static func stub(_ catalog: CatalogSet, _ service: String, _ endpoint: String, values: [String: String] = [:]) async throws -> Exchange {
        let service = try #require(catalog.service(service))
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let selection = EndpointSelection(service: service, endpoint: try #require(service.endpoint(endpoint)), environment: service.environments[0])
        return await caller.call(selection, mode: .stub, values: values).exchange
    }

    // MARK: Partial imports

    /// A HAR with repeated response headers (Set-Cookie, Vary), HTTP/2 and request-line
    /// pseudo-headers and a broken header line was refused whole; now each is repaired with a note
    /// naming its entry, and only the CONNECT entry is left out.
    @Test func harRepeatedAndPseudoHeadersAreRepairedNotRefused() async throws {
        let result = try HARImporter.catalog(har: try interopResource("regressions/repeated-headers.har"), documentName: "repeated-headers.har")
        let (_, catalog) = try loadWritten(result)
        let shop = try #require(catalog.service("shop"))
        let list = try #require(shop.endpoints.first { $0.method == .get })
        #expect(list.headers["X-Feature"] == "a, b", "a repeated request header is joined")
        #expect(list.headers.fields.allSatisfy { !$0.name.contains(" ") && !$0.name.hasPrefix(":") })
        guard case .response(_, let headers, _) = list.stub.sample else { Issue.record("no stub"); return }
        #expect(headers["Vary"] == "Accept, Origin")
        #expect(headers["Set-Cookie"] == nil, "credentials are never written")
        #expect(result.messages.contains("repeated-headers.har /log/entries/0/request/headers: the repeated header X-Feature was joined into one (values separated as HTTP allows)"))
        #expect(result.messages.contains { $0.hasPrefix("repeated-headers.har /log/entries/0/request/headers: a header whose name is not a header name") })
        // The same repair in two entries is one note naming both places.
        #expect(result.groupedNotes.contains {
            $0.message.hasPrefix("the repeated header Vary was joined")
                && $0.places == ["repeated-headers.har /log/entries/0/response/headers", "repeated-headers.har /log/entries/1/response/headers"]
        })
        #expect(result.notes.contains(ImportNote(.skipped, at: "repeated-headers.har /log/entries/2", "a CONNECT request was left out: catalogs do not send it")))
        #expect(result.isPartial)
        #expect(try await Self.stub(catalog, "shop", list.id).error == nil)
    }

    /// A GraphQL request with templated variables (`{ "id": {{streamId}} }`) and its own
    /// Content-Type made the collection a duplicate-key YAML and was refused whole.
    @Test func templatedGraphQLVariablesAreKeptAsText() async throws {
        let result = try PostmanImporter.catalog(
            collection: try interopResource("regressions/graphql-templated-variables.postman_collection.json"), documentName: "streams.json")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("streams"))
        #expect(service.endpoints.map(\.id) == ["streamById", "streams"])
        let byID = try #require(service.endpoint("streamById"))
        #expect(byID.headers.fields.filter { $0.name.lowercased() == "content-type" }.count == 1)
        #expect(result.messages.contains { $0.hasPrefix("streams.json /item/0: endpoint streamById: its GraphQL variables are not JSON until") })
        let sent = try await Self.stub(catalog, "streams", "streamById")
        #expect(try JSONValue.parse(sent.request.body ?? Data())["variables"] == ["id": 42], "filled in, it is JSON")
    }

    /// Form-data files on the exporter's machine made `multipart: null` and refused the import.
    @Test func missingFormDataFilesAreKeptAsFileFieldsMarkedMissing() async throws {
        let result = try PostmanImporter.catalog(
            collection: try interopResource("regressions/missing-form-data-files.postman_collection.json"), documentName: "uploads.json")
        let (_, catalog) = try loadWritten(result)
        let upload = try #require(catalog.service("uploads")?.endpoint("uploadAvatar"))
        guard case .multipart(let fields) = upload.body else { Issue.record("no multipart body: \(upload.body)"); return }
        #expect(fields.map(\.name) == ["avatar", "backup", "backup"])
        #expect(fields.map(\.filename) == ["me.png", "a.txt", "b.txt"])
        #expect(fields.map(\.content) == [
            .file(path: "{{avatar_file}}", filename: "me.png"), .file(path: "{{backup_file}}", filename: "a.txt"),
            .file(path: "{{backup_file2}}", filename: "b.txt"),
        ])
        #expect(result.notes.contains { $0.kind == .repaired && $0.source == "uploads.json /item/0" && $0.message.contains("marked missing") })
        #expect(!result.isPartial)
        let sent = try await Self.stub(catalog, "uploads", "uploadAvatar")
        #expect(sent.error?.message.contains("multipart file avatar uses {{avatar_file}}, which has no value") == true)
    }

    /// Nothing importable: an error, never exit 0 with nothing written (the CLI test below).
    @Test func aDocumentWithNothingToImportIsAnError() {
        #expect {
            try CatalogImport(drafts: [], notes: [ImportNote(.skipped, at: "x.har /log/entries/0", "gone")]).checked()
        } throws: { error in
            "\(error)".contains("nothing in the document could be imported") && "\(error)".contains("x.har /log/entries/0: gone")
        }
    }

    /// A part the loader refuses (here a header name a draft should never hold) is left out with
    /// the loader's reason and its source; the rest is written.
    @Test func whatTheLoaderRefusesIsLeftOutWithItsSource() throws {
        var draft = CatalogDraft(service: "mixed")
        draft.environments = [CatalogDraft.Environment(name: "local", baseURL: "http://127.0.0.1:4010/mixed")]
        var good = CatalogDraft.Endpoint(id: "good", method: "GET", path: "/good")
        good.source = "mixed.json /item/0"
        var bad = CatalogDraft.Endpoint(id: "bad", method: "GET", path: "/bad")
        bad.source = "mixed.json /item/1"
        bad.headers = [("Bad Name", "x")]
        bad.stub = CatalogDraft.Example(name: "default", status: 200, bodyFile: "fixtures/mixed/bad.json")
        draft.endpoints = [good, bad]
        draft.fixtures = [("fixtures/mixed/bad.json", Data("{}".utf8))]
        let checked = try CatalogImport(drafts: [draft]).checked()
        #expect(checked.drafts[0].endpoints.map(\.id) == ["good"])
        #expect(checked.drafts[0].fixtures.isEmpty, "the fixture only the left-out endpoint named goes with it")
        let note = try #require(checked.notes.first)
        #expect(note.kind == .skipped && note.source == "mixed.json /item/1")
        #expect(note.message.contains("'Bad Name' is not a valid header name"))
    }

    // MARK: .http

    /// `GET /users` with a `Host:` header was dropped, exit 0, nothing written.
    @Test func originFormWithHostBecomesAnAbsoluteURL() throws {
        let result = try HTTPFileImporter.catalog(text: try Self.text("origin-form.http"), documentName: "origin-form.http")
        let (_, catalog) = try loadWritten(result)
        let people = catalog.services.flatMap(\.environments).map(\.baseURL.absoluteString)
        #expect(people.contains("http://api.people.example"))
        #expect(people.contains("https://secure.people.example"))
        let list = try #require(catalog.services.flatMap(\.endpoints).first { $0.id == "listUsers" })
        #expect(list.path == "/users" && list.query == [QueryItem(name: "active", value: "true")])
        #expect(list.headers["Host"] == nil)
        #expect(result.notes.contains { $0.source == "origin-form.http:2" && $0.kind == .repaired })
    }

    /// A repeated `@var` (even with the same value) was refused: our own `export http` writes them.
    @Test func repeatedVariablesApplyFromWhereTheyAreSet() throws {
        let (_, catalog) = try loadWritten(try HTTPFileImporter.catalog(text: try Self.text("repeated-variables.http"), documentName: "repeated-variables.http"))
        let service = try #require(catalog.service("repeated-variables"))
        #expect(service.variables["user"] == "ann")
        #expect(service.endpoint("first")?.parameters["user"] == nil)
        #expect(service.endpoint("second")?.parameters["user"] == "bob")
        #expect(service.endpoint("third")?.parameters["user"] == "bob", "a variable applies from where it is set on")
    }

    /// `{{$uuid}}`, `{{$timestamp}}`, `{{$randomInt}}` … were not generated.
    @Test func dynamicVariablesAreGenerated() async throws {
        let result = try HTTPFileImporter.catalog(text: try Self.text("dynamic-variables.http"), documentName: "dynamic-variables.http")
        let (_, catalog) = try loadWritten(result)
        #expect(result.messages.contains { $0.contains("reads {{$processEnv DYNAMIC_TOKEN}}: set $APIEXPLORER_SECRET_DYNAMIC_TOKEN") })
        let sent = try await Self.stub(catalog, "dynamic-variables", "createOrder", values: ["secret.DYNAMIC_TOKEN": "t"])
        // No fixture in a .http file: the request is built, then stub mode has nothing to answer with.
        #expect(sent.error?.kind == .noFixture, "\(sent.error?.message ?? "")")
        let uuid = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/
        #expect(try uuid.wholeMatch(in: try #require(sent.request.headers["X-Request-Id"])) != nil)
        #expect(try uuid.wholeMatch(in: try #require(sent.request.headers["X-Trace"])) != nil)
        #expect(Int(sent.request.headers["X-Sent-At"] ?? "").map { abs($0 - Int(Date().timeIntervalSince1970)) < 3_600 } == true)
        let body = try JSONValue.parse(sent.request.body ?? Data())
        #expect(body["quantity"]?.intValue.map { (1..<10).contains($0) } == true)
        #expect(body["reference"]?.stringValue.map { try? uuid.wholeMatch(in: $0) } != nil)
        #expect(body["due"]?.stringValue?.hasSuffix("Z") == true)
    }

    /// `{{login.response.body.$.token}}` and a handler's `client.global.set` were left as text.
    @Test func requestReferencesBecomeResponseReferencesAndCaptures() throws {
        let result = try HTTPFileImporter.catalog(text: try Self.text("request-references.http"), documentName: "request-references.http")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("request-references"))
        let profile = try #require(service.endpoint("profile"))
        #expect(profile.headers["Authorization"] == "Bearer {{response.login $.token}}")
        #expect(profile.headers["X-Trace"] == "{{response.login header X-Trace-Id}}")
        let login = try #require(service.endpoint("login"))
        #expect(login.captures == [
            Capture(name: "sessionToken", selector: .body(try JSONPath("$.token"))), Capture(name: "requestId", selector: .header("X-Request-Id")),
        ])
    }

    /// An environment named `local` became `local2` (the mock's took the name).
    @Test func environmentNamesAreKept() throws {
        let folder = "regressions/local-environment/"
        let result = try HTTPFileImporter.catalog(
            text: String(decoding: try interopResource(folder + "api.http"), as: UTF8.self), documentName: "api.http",
            environments: try interopResource(folder + "http-client.env.json"))
        let (_, catalog) = try loadWritten(result)
        #expect(catalog.service("api")?.environments.map(\.name) == ["mock", "local", "Production"])
        #expect(catalog.service("api")?.environment(named: "local")?.baseURL.absoluteString == "http://localhost:8080")
    }

    /// REST Client's environments in VS Code settings (JSON with comments) are read, `$shared` as the service's variables.
    @Test func restClientSettingsGiveEnvironments() throws {
        let settings = """
            {
              // REST Client
              "rest-client.environmentVariables": {
                "$shared": { "version": "v2" },
                "local": { "baseUrl": "http://localhost:3000", },
                /* the real one */ "prod": { "baseUrl": "https://api.example.com" }
              },
            }
            """
        let text = "GET {{baseUrl}}/{{version}}/items\n"
        let (_, catalog) = try loadWritten(try HTTPFileImporter.catalog(text: text, documentName: "items.http", settings: Data(settings.utf8)))
        let service = try #require(catalog.service("items"))
        #expect(service.environments.map(\.name) == ["mock", "local", "prod"])
        #expect(service.variables["version"] == "v2")
    }

    // MARK: OpenAPI

    /// Form bodies sent deepObject and arrays as JSON text and filled every optional field; a GET
    /// carried a form Content-Type.
    @Test func stylesRequiredFieldsAndBodyHeaders() async throws {
        let draft = try OpenAPIImporter.draft(from: try interopResource("regressions/form-styles.openapi.yaml"), documentName: "form-styles.openapi.yaml")
        let (folder, catalog) = try loadWritten(CatalogImport(drafts: [draft]))
        let update = try await Self.stub(catalog, "forms", "updateProfile")
        #expect(String(decoding: update.request.body ?? Data(), as: UTF8.self) == "name=Ann&address%5Bcity%5D=Oslo&tags=a&tags=b", "the optional zip is not sent")
        let yaml = try #require(folder.read("forms.yaml"))
        #expect(yaml.contains("      # nickname: annie\n"), "optional fields are written commented out")
        let settings = try await Self.stub(catalog, "forms", "replaceSettings")
        #expect(try JSONValue.parse(settings.request.body ?? Data()) == ["theme": "dark"])
        #expect(yaml.contains("      # \"language\": \"en\"\n"))
        let search = try await Self.stub(catalog, "forms", "search")
        #expect(search.request.headers["Content-Type"] == nil, "no body, no body headers")
        #expect(search.request.url.query == "filter%5Bstatus%5D=open&filter%5Bowner%5D=ann&ids=1%7C2%7C3&words=red%20car&color=blue&color=black")
        #expect(yaml.contains("# page: \"1\"") && yaml.contains("# X-Debug: \"1\""))
    }

    /// Tags were not groups, webhooks were dropped silently, descriptions were cut, and the scheme
    /// chosen was the alphabetically first, not the document's.
    @Test func tagsWebhooksDescriptionsAndSchemeOrder() throws {
        let result = try OpenAPIImporter.catalog(
            from: try interopResource("regressions/tags-webhooks-security.openapi.yaml"), documentName: "ordered.yaml")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("ordered"))
        let accounts = try #require(service.endpoint("listAccounts"))
        #expect(accounts.group == "Accounts")
        // The first requirement names two schemes, both sent, in the document's order (aKey was taken alone, being first alphabetically).
        let headers = try #require(service.groups.first { $0.id == "Accounts" }?.headers)
        #expect(headers.fields.map(\.name) == ["Authorization", "X-API-Key"])
        #expect(headers["Authorization"] == "Bearer {{secret.ORDERED_ZTOKEN}}" && headers["X-API-Key"] == "{{secret.ORDERED_AKEY}}")
        #expect(accounts.summary == "Lists the accounts.\nPaginated: read the Link header for the next page.")
        #expect(service.summary?.contains("A second paragraph that must not be cut.") == true)
        #expect(result.messages.contains { $0.hasPrefix("ordered.yaml /webhooks/accountCreated: webhook 'accountCreated' (POST) was not imported") })
    }

    /// A referenced file written in YAML that starts with a flow mapping (`{ name: id, in: path }`)
    /// was read as JSON, failed, and its reference led nowhere.
    @Test func referencedFilesStartingWithAFlowMappingAreYAML() throws {
        let files = [
            "p.yaml": "{ name: id, in: path, required: true, schema: { type: integer, example: 4 } }",
            "r.yaml": "{ description: missing, content: { application/json: { example: { message: gone } } } }",
        ]
        let root = """
            openapi: 3.0.3
            info: { title: Flow, version: "1" }
            paths:
              /items/{id}:
                get:
                  operationId: getItem
                  parameters: [{ $ref: p.yaml }]
                  responses: { "200": { description: ok }, "404": { $ref: r.yaml } }
            """
        let draft = try OpenAPIImporter.draft(from: Data(root.utf8), documentName: "flow.yaml", files: DocumentFiles(files.mapValues { Data($0.utf8) }))
        #expect(draft.endpoints.first?.parameters.map { "\($0.0)=\($0.1)" } == ["id=4"])
        #expect(draft.endpoints.first?.examples.map(\.name) == ["notFound"])
    }

    /// Swagger 2.0 was refused ("convert it first").
    @Test func swagger2IsReadAsOpenAPI3() async throws {
        let result = try OpenAPIImporter.catalog(from: try interopResource("regressions/minimal.swagger2.yaml"), documentName: "minimal.swagger2.yaml")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("legacy-pets"))
        #expect(service.environments.map(\.baseURL.absoluteString) == ["http://127.0.0.1:4010/legacy-pets", "https://pets.legacy.example/v1", "http://pets.legacy.example/v1"])
        #expect(service.groups.map(\.id) == ["basicAuth", "apiKey"])
        #expect(service.groups[0].headers["Authorization"] == "Basic {{secret.LEGACY_PETS_BASICAUTH}}")
        #expect(service.endpoint("addPet")?.group == "apiKey", "the operation's own security wins")
        let list = try await Self.stub(catalog, "legacy-pets", "listPets")
        #expect(list.request.url.query == "status=available&status=sold", "collectionFormat multi")
        guard case .response(_, _, let pets) = try #require(service.endpoint("listPets")).stub.sample else { Issue.record("no stub"); return }
        #expect(try JSONValue.parse(pets) == [["id": 1, "name": "Rex"]])
        let add = try await Self.stub(catalog, "legacy-pets", "addPet")
        #expect(try JSONValue.parse(add.request.body ?? Data()) == ["name": "Rex"])
        #expect(add.request.headers["X-Key"] == "demo-legacy-pets-apikey")
        let upload = try #require(service.endpoint("uploadPhoto"))
        #expect(upload.path == "/pets/{{petId}}/photo" && upload.parameters["petId"] == "7")
        guard case .multipart(let fields) = upload.body else { Issue.record("no multipart body"); return }
        #expect(fields.map(\.name) == ["caption", "photo"])
        let notes = try await Self.stub(catalog, "legacy-pets", "replaceNotes")
        #expect(notes.request.body == Data("text=Friendly".utf8))
        #expect(result.messages.contains { $0.contains("is a Swagger 2.0 document: it was read as OpenAPI 3.0") })
    }

    // MARK: Exports

    /// `export openapi` dropped endpoints sharing a method and path, wrote a body file as a local
    /// absolute path, and lost multipart content types and groups.
    @Test func exportOpenAPIKeepsEveryEndpointAndBodies() throws {
        let folder = try TemporaryDirectory()
        for name in ["shop.yaml", "fixtures/prices.csv", "fixtures/photo.png"] {
            try folder.write(name, try interopResource("regressions/export-shop/\(name)"))
        }
        let original = try #require(CatalogLoader.load(folder.catalogSource).service("shop"))
        let (document, notes) = OpenAPIExporter.export(original)
        let text = document.compactText
        #expect(!text.contains(folder.path), "no local path")
        #expect(notes.contains { $0.contains("searchByTag shares GET /search") })
        #expect(document["tags"] == [["name": "catalog", "x-displayName": "The catalog"]])
        let draft = try OpenAPIImporter.draft(from: Data(document.prettyText().utf8), documentName: "shop.json", service: "shop")
        let (written, catalog) = try loadWritten(CatalogImport(drafts: [draft]))
        defer { withExtendedLifetime(written) {} }
        let again = try #require(catalog.service("shop"))
        #expect(again.endpoints.map(\.id) == original.endpoints.map(\.id))
        #expect(again.endpoint("searchByTag")?.group == "catalog")
        guard case .multipart(let fields)? = again.endpoint("addPhoto")?.body else { Issue.record("no multipart body"); return }
        #expect(fields.map(\.contentType) == ["text/plain; charset=utf-8", "image/png"])
        #expect(fields[1].filename == "sea.png")
        guard case .file(let path, _)? = fields.last?.content else { Issue.record("no file field"); return }
        #expect(FileManager.default.contents(atPath: path) == (try interopResource("regressions/export-shop/fixtures/photo.png")))
        // A body file comes back as a file of the same path and bytes (its type from its extension, as before).
        guard case .file(let prices, _)? = again.endpoint("uploadPrices")?.body else { Issue.record("no body file"); return }
        #expect(prices.hasSuffix("/fixtures/prices.csv"))
        #expect(FileManager.default.contents(atPath: prices) == Data("sku,price\npen,1.50\n".utf8))
    }
}
