import Catalog
import CatalogAuthoring
import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Sessions
import TestSupport
import Testing
import TestTraits

/// `.http` files (JetBrains HTTP Client syntax): parsing, import with the environment files, export,
/// and the round trip .http → catalog → .http.
@Suite(.offPool) struct HTTPFileTests {
    static func petstoreText() throws -> String { String(decoding: try interopResource("http/petstore.http"), as: UTF8.self) }

    static func petstore() throws -> CatalogImport {
        try HTTPFileImporter.catalog(
            text: try petstoreText(), documentName: "petstore.http",
            environments: try interopResource("http/http-client.env.json"),
            privateEnvironments: try interopResource("http/http-client.private.env.json"),
            files: DocumentFiles(folder: interopResourceURL("http").path))
    }

    @Test func parsesTheJetBrainsSyntax() throws {
        let file = HTTPFile(parsing: try Self.petstoreText())
        #expect(file.variables == [.init("host", "https://petstore.example/api"), .init("petId", "7")])
        #expect(file.requests.map(\.method) == ["GET", "GET", "POST", "POST", "PUT", "GET"])
        #expect(file.requests.map(\.name) == ["findPet", nil, "addPet", nil, nil, nil])
        #expect(file.requests.map(\.title) == ["Find a pet", "Search by status", "Add a pet", "Log in (form)", "Replace from a file", nil])
        #expect(file.requests[1].url == "{{host}}/pet/findByStatus?status=available&limit=10")
        #expect(file.requests[2].url == "{{host}}/pet", "HTTP/1.1 is not part of the URL")
        #expect(file.requests[2].headers == [.init("Content-Type", "application/json"), .init("Authorization", "Bearer {{token}}")])
        #expect(file.requests[2].body == .text("{\n  \"name\": \"Rex\",\n  \"tags\": [\"{{tag}}\"]\n}"))
        #expect(file.requests[2].handlers.count == 1)
        #expect(file.requests[2].handlers[0].hasSuffix("%}"))
        #expect(file.requests[3].headers.count == 1, "the // comment is not a header")
        #expect(file.requests[4].body == .file("./pet.json"))
        #expect(file.requests[5].url == "{{host}}/health")
    }

    @Test func importMakesACatalogWithTheEnvironmentsAndNoSecretInClear() async throws {
        let result = try Self.petstore()
        let (folder, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("petstore"))
        #expect(service.environments.map(\.name) == ["local", "dev", "prod"])
        #expect(service.environments[1].baseURL.absoluteString == "http://localhost:8080/api")
        #expect(service.environments[2].type == .production)
        #expect(service.endpoints.map(\.id) == ["findPet", "searchByStatus", "addPet", "logInForm", "replaceFromAFile", "getHealth"])
        let addPet = try #require(service.endpoint("addPet"))
        #expect(addPet.title == "Add a pet")
        #expect(addPet.headers["Authorization"] == "Bearer {{secret.PETSTORE_TOKEN}}")
        guard case .form(let form) = try #require(service.endpoint("logInForm")).body else { Issue.record("no form"); return }
        #expect(form == [QueryItem(name: "username", value: "ann"), QueryItem(name: "password", value: "{{secret.PETSTORE_PASSWORD}}")])
        #expect(service.endpoint("searchByStatus")?.query == [QueryItem(name: "status", value: "available"), QueryItem(name: "limit", value: "10")])
        #expect(result.messages.contains { $0.contains("an HTTP client test script is not run; it is kept as a comment in the catalog") }, "\(result.messages)")
        #expect(result.drafts[0].yaml.contains("  #   > {%\n"))

        // `< ./pet.json` is copied beside the catalog and sent as it is.
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let replace = try #require(service.endpoint("replaceFromAFile"))
        let put = await caller.call(EndpointSelection(service: service, endpoint: replace, environment: service.environments[0]), mode: .stub)
        // No fixture in a .http file: built and checked, then nothing to answer with (never a refusal).
        #expect(put.exchange.error?.kind == .noFixture, "\(put.exchange.error?.message ?? "")")
        // A `< file` body is a bodyFile: streamed from disk when sent (issue 14), the same bytes.
        #expect(try put.exchange.request.streamedBody?.collect(limit: 1 << 20) == (try interopResource("http/pet.json")))
        let post = await caller.call(EndpointSelection(service: service, endpoint: addPet, environment: service.environments[0]), mode: .stub)
        #expect(post.exchange.error?.kind == .noFixture, "\(post.exchange.error?.message ?? "")")
        #expect(String(decoding: post.exchange.request.body ?? Data(), as: UTF8.self).contains("dogs"), "local borrows dev's values")

        let written = writtenText(folder)
        for secret in ["dev-secret-token", "prod-secret-token", "dev-password-1"] { #expect(!written.contains(secret), "\(secret)") }
    }

    /// What a .http file says, with its variables filled in: the requests it sends.
    static func sent(_ text: String) -> [String] {
        let file = HTTPFile(parsing: text)
        var values: [String: String] = [:]
        func fill(_ text: String) -> String { (try? Template(text).render { values[$0] }) ?? text }
        return file.requests.map { request in
            for variable in request.variables { values[variable.name] = fill(variable.value) }
            let url = RequestURLText.normalized(fill(request.url))
            let headers = request.headers.map { "\($0.name.lowercased()): \(fill($0.value))" }.sorted()
            var body = ""
            if case .text(let text)? = request.body {
                body = (try? JSONValue.parse(fill(text)))?.compactText ?? fill(text)
            }
            return "\(request.method) \(url)\n\(headers.joined(separator: "\n"))\n\(body)"
        }
    }

    @Test func roundTripKeepsWhatBothFormatsSay() throws {
        let original = """
            @base = https://api.example.com/v2
            @user = ann

            ### List repositories
            # @name listRepos
            GET {{base}}/users/{{user}}/repos?sort=updated&per_page=5
            Accept: application/json

            ### Create a repository
            # @name createRepo
            POST {{base}}/user/repos
            Content-Type: application/json
            X-Trace: t-1

            {"name": "hello", "private": false, "topics": ["{{user}}"]}

            ### Search
            # @name search
            GET {{base}}/search?q=swift%20lang&page=2

            ### Log in
            # @name logIn
            POST {{base}}/login
            Content-Type: application/x-www-form-urlencoded

            user={{user}}&remember=yes
            """
        let result = try HTTPFileImporter.catalog(text: original, documentName: "github.http")
        let (_, catalog) = try loadWritten(result)
        let service = try #require(catalog.service("github"))
        let exported = HTTPFileExporter.text(service: service, environment: try #require(service.environment(named: "default")))
        #expect(Self.sent(exported) == Self.sent(original), "\(exported)")
        #expect(exported.contains("### List repositories\n# @name listRepos\nGET {{baseUrl}}/users/{{user}}/repos?sort=updated&per_page=5\n"))
        // And again: the exported file imports to the same endpoints.
        let again = try HTTPFileImporter.catalog(text: exported, documentName: "github.http")
        #expect(again.drafts[0].endpoints.map(\.id) == result.drafts[0].endpoints.map(\.id))
    }

    @Test func aFileWithoutRequestsIsRefused() {
        #expect(throws: AuthoringError.invalidInput("empty.http has no request (a line such as GET https://example.com/)")) {
            try HTTPFileImporter.catalog(text: "# nothing\n@a = 1\n", documentName: "empty.http")
        }
    }
}

/// URLs compared by what they send: the query decoded.
enum RequestURLText {
    static func normalized(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        let query = (components.queryItems ?? []).map { "\($0.name)=\($0.value ?? "")" }.joined(separator: "&")
        return "\(components.scheme ?? "")://\(components.host ?? "")\(components.path)" + (query.isEmpty ? "" : "?\(query)")
    }
}
