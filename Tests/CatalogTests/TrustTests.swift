import CatalogTestSupport
import Sessions
import TestTraits
import DispatcherCore
import Foundation
import Testing

@testable import Catalog

/// Catalog trust by content hash, and what an untrusted catalog may not do.
@Suite(.offPool) struct TrustTests {
    static let catalog = """
        service: shop
        secrets: { SHOP_TOKEN: { env: GITHUB_TOKEN } }
        environments:
          local: { baseURL: "https://api.shop.example:8443/v1", fixtures: never }
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}", X-Key: "{{secret.KEY}}" } }
        endpoints:
          items: { path: /items, group: signedIn, stub: { body: [] } }
          report: { path: /report, download: reports/r.csv, bodyFile: "files/{{name}}" }
        """

    @Test func filesOnDiskAreTrustedByTheirContent() throws {
        let folder = try TemporaryCatalog(["shop.yaml": Self.catalog])
        let untrusted = CatalogLoader.load(folder.source)
        let service = try #require(untrusted.service("shop"))
        #expect(!service.isTrusted)
        let hash = try #require(service.contentHash)
        #expect(hash == CatalogTrust.contentHash(of: Data(Self.catalog.utf8)))
        #expect(hash.count == 64)
        #expect(CatalogLoader.load(folder.source, trust: CatalogTrust(contentHashes: [hash])).service("shop")?.isTrusted == true)
        #expect(CatalogLoader.load(folder.source, trust: .everything).service("shop")?.isTrusted == true)
        // Any change makes it a stranger's again.
        try folder.write("shop.yaml", Self.catalog + "\n# one more line\n")
        #expect(CatalogLoader.load(folder.source, trust: CatalogTrust(contentHashes: [hash])).service("shop")?.isTrusted == false)
    }

    @Test func theBundledCatalogsAndTheirCopiesAreTrusted() throws {
        #expect(BundledCatalogs.load().services.allSatisfy { $0.isTrusted })
        var files: [String: String] = [:]
        for file in BundledCatalogFiles.files { files[file.path] = String(decoding: file.data, as: UTF8.self) }
        let copy = try TemporaryCatalog(files)
        let loaded = CatalogLoader.load(copy.source)
        #expect(!loaded.services.isEmpty)
        #expect(loaded.services.allSatisfy { $0.isTrusted })
    }

    @Test func theDeclarationSaysWhatTrustAllows() throws {
        let folder = try TemporaryCatalog(["shop.yaml": Self.catalog])
        let service = try #require(CatalogLoader.load(folder.source).service("shop"))
        #expect(TrustDeclaration(service).lines == [
            "shop (cat/shop.yaml)",
            "  sends requests to https://api.shop.example:8443",
            "  follows redirects from them to any host they name, without its credentials (local)",
            "  reads secret KEY from $APIEXPLORER_SECRET_KEY (or .env beside it)",
            "  reads secret SHOP_TOKEN from $GITHUB_TOKEN or $APIEXPLORER_SECRET_SHOP_TOKEN (or .env beside it)",
            "  reads the file named by files/{{name}}",
            "  writes downloads to reports/r.csv in the downloads folder",
        ])
    }

    @Test func secretsComeOnlyFromWhatTheCatalogDeclares() throws {
        let folder = try TemporaryCatalog(["shop.yaml": Self.catalog])
        let environment = ["GITHUB_TOKEN": "declared", "APIEXPLORER_SECRET_KEY": "prefixed", "KEY": "named-only", "SHOP_TOKEN": "named-only"]
        let trusted = try #require(CatalogLoader.load(folder.source, trust: .everything).service("shop"))
        let store = SecretStore(processEnvironment: environment, dotEnv: ["KEY": "dotenv"], dotEnvPath: "cat/.env")
        #expect(store.lookup("SHOP_TOKEN", for: trusted)?.value == "declared")
        #expect(store.lookup("SHOP_TOKEN", for: trusted)?.source == .processEnvironment("GITHUB_TOKEN"))
        #expect(store.lookup("KEY", for: trusted)?.value == "prefixed")
        let untrusted = try #require(CatalogLoader.load(folder.source).service("shop"))
        #expect(store.lookup("SHOP_TOKEN", for: untrusted) == nil)
        #expect(store.lookup("KEY", for: untrusted)?.value == "dotenv")
        #expect(SecretStore(processEnvironment: ["SHOP_TOKEN": "named-only"]).lookup("SHOP_TOKEN", for: trusted) == nil)
    }

    @Test func anUntrustedCatalogSendsNothingAndReadsNoFileOutside() async throws {
        let outside = try TemporaryCatalog(["secret.txt": "outside"])
        let folder = try TemporaryCatalog([
            "shop.yaml": """
                allowOutsidePaths: true
                environments:
                  local: { baseURL: "http://127.0.0.1:1", fixtures: never }
                endpoints:
                  live: { path: /live, stub: { body: { ok: true } } }
                  upload: { method: PUT, path: /u, bodyFile: "\(outside.directory.path)/secret.txt" }
                """
        ])
        let untrusted = CatalogLoader.load(folder.source)
        #expect(untrusted.diagnostics.contains { $0.message.contains("which takes effect once you trust it") })
        let service = try #require(untrusted.service("shop"))
        let transport = RecordingTransport { _ in Response(status: 200, body: Data()) }
        let session = ServiceSession(service: service, environment: service.environments[0], transport: transport, clock: .instant)
        let live = await session.send("live")
        #expect(live.error?.kind == .invalidRequest)
        #expect(live.error?.message.contains("is not trusted, so it may not send requests over the network") == true)
        let stub = await session.send("live", options: RequestOptions(stubBehavior: .immediate))
        #expect(stub.error == nil)
        #expect(transport.requests.isEmpty)
        // Trusted, the catalog's allowOutsidePaths holds.
        let trusted = CatalogLoader.load(folder.source, trust: .everything)
        #expect(trusted.service("shop")?.endpoint("upload") != nil)
    }

    @Test func literalCredentialsAreFoundAndReplaced() {
        #expect(LiteralCredential.isCredential(name: "Authorization", value: "Bearer abc123"))
        #expect(!LiteralCredential.isCredential(name: "Authorization", value: "Bearer {{secret.T}}"))
        #expect(!LiteralCredential.isCredential(name: "Authorization", value: "Bearer"))
        #expect(LiteralCredential.isCredential(name: "X-Anything", value: "ghp_0123456789abcdefghij0123456789abcdef"))
        #expect(!LiteralCredential.isCredential(name: "Accept", value: "application/json"))
        #expect(LiteralCredential.suggestedName(service: "shop", label: "X-API-Key") == "SHOP_X_API_KEY")
        #expect(LiteralCredential.suggestedName(service: "shop", label: "shop-token") == "SHOP_TOKEN")
        let edits = EndpointEdits(
            query: [.init(name: "api_key", value: "k-1234"), .init(name: "page", value: "2")],
            headers: [.init(name: "Authorization", value: "Bearer tok-5678"), .init(name: "Cookie", value: "sid=abcd")],
            body: .text(#"{"user":"ann","password":"hunter22"}"#, isJSON: true))
        let found = edits.typedCredentials(service: "shop")
        #expect(found.map(\.place) == ["header Authorization", "header Cookie", "query item api_key", "body member password"])
        #expect(found.map(\.suggestedName) == ["SHOP_TOKEN", "SHOP_COOKIE", "SHOP_API_KEY", "SHOP_PASSWORD"])
        #expect(found.map(\.value) == ["tok-5678", "sid=abcd", "k-1234", "hunter22"])
        let replaced = edits.replacingCredentials(service: "shop", names: ["T", "C", "K", "P"])
        #expect(replaced.headers?.map(\.value) == ["Bearer {{secret.T}}", "{{secret.C}}"])
        #expect(replaced.query?.map(\.value) == ["{{secret.K}}", "2"])
        #expect(replaced.body == .text(#"{"user":"ann","password":"{{secret.P}}"}"#, isJSON: true))
        #expect(replaced.typedCredentials(service: "shop").isEmpty)
    }

    /// One catalog using each capability once: the question names every one of them, as the walk
    /// the request builder and the download check obey finds them.
    @Test func theQuestionNamesEachCapabilityOnce() throws {
        let catalog = """
            service: every
            cookies: { persist: true }
            variables: { v: "{{secret.S_SERVICE_VARIABLE}}" }
            groups:
              g: { headers: { X-G: "{{secret.S_GROUP}}" } }
            environments:
              local:
                baseURL: https://one.example
                headers: { X-E: "{{secret.S_ENVIRONMENT}}" }
                variables: { w: "{{secret.S_ENVIRONMENT_VARIABLE}}" }
              other: { baseURL: "https://two.example:8443", redirects: { follow: false } }
            auth:
              oauth2: { tokenURL: https://login.example/token, clientID: c, clientSecret: "{{secret.S_OAUTH}}", persist: true }
              digest: { username: u, password: "{{secret.S_DIGEST}}" }
              refresh: { endpoint: login, token: $.token, into: S_REFRESH }
            endpoints:
              login: { method: POST, path: /login, group: g }
              path: { path: "/p/{{secret.S_PATH}}", parameters: { x: "{{secret.S_PARAMETER}}" } }
              query: { path: /q, query: { k: "{{secret.S_QUERY}}" } }
              json: { method: POST, path: /j, body: { k: "{{secret.S_BODY}}" } }
              form: { method: POST, path: /f, form: { k: "{{secret.S_FORM}}" } }
              multi: { method: POST, path: /m, multipart: [{ name: a, value: "{{secret.S_MULTIPART}}" }, { name: b, file: "{{name}}" }] }
              gql: { path: /g, graphql: { query: "query { a }", variables: { k: "{{secret.S_GRAPHQL}}" } } }
              ws: { path: /w, websocket: { messages: { m: { k: "{{secret.S_WEBSOCKET}}" } } } }
              save: { path: /d, download: reports/out.csv, captures: { id: $.id } }
              refused: { path: /d, download: ../out.csv }
              reads: { path: "/r/{{response.login $.id}}" }
            flows:
              f:
                steps:
                  - endpoint: json
                    variables: { z: "{{secret.S_STEP_VALUE}}" }
                  - endpoint: json
                    name: again
                    body: { k: "{{secret.S_STEP_BODY}}" }
            """
        let folder = try TemporaryCatalog(["every.yaml": catalog])
        let loaded = CatalogLoader.load(folder.source, trust: CatalogTrust(contentHashes: [], trustsEverything: false))
        let service = try #require(loaded.service("every"), "\(loaded.diagnostics)")
        #expect(!loaded.hasErrors, "\(loaded.diagnostics)")
        #expect(service.endpoints.count == 11 && service.flows.first?.steps.count == 2)
        let lines = TrustDeclaration(service).lines
        let secrets = [
            "S_SERVICE_VARIABLE", "S_GROUP", "S_ENVIRONMENT", "S_ENVIRONMENT_VARIABLE", "S_OAUTH", "S_DIGEST", "S_REFRESH", "S_PATH",
            "S_PARAMETER", "S_QUERY", "S_BODY", "S_FORM", "S_MULTIPART", "S_GRAPHQL", "S_WEBSOCKET", "S_STEP_VALUE", "S_STEP_BODY",
        ]
        for name in secrets { #expect(lines.contains("  reads secret \(name) from $APIEXPLORER_SECRET_\(name) (or .env beside it)"), "\(name)") }
        #expect(lines.filter { $0.hasPrefix("  reads secret") }.count == secrets.count)
        for line in [
            "  sends requests to https://one.example", "  sends requests to https://two.example:8443", "  sends requests to https://login.example",
            "  follows redirects from them to any host they name, without its credentials (local)",
            "  reads the file named by {{name}}",
            "  writes downloads to reports/out.csv in the downloads folder",
            "  keeps its OAuth 2.0 tokens between runs (its own, never another catalog's)",
            "  keeps its cookies between runs (its own, never another catalog's)",
            "  keeps values captured from its responses", "  reads its own latest responses ({{response.…}})",
        ] {
            #expect(lines.contains(line), "\(line): \(lines)")
        }
        // A download that would be refused is not announced.
        #expect(!lines.contains { $0.contains("../out.csv") })
    }

    /// What the walk does not find is not read: a request naming a secret the catalog declares
    /// nowhere (here an endpoint made outside it) gets no value from the environment.
    @Test func aSecretTheWalkDidNotFindIsNotRead() throws {
        let folder = try TemporaryCatalog(["shop.yaml": Self.catalog])
        let service = try #require(CatalogLoader.load(folder.source, trust: .everything).service("shop"))
        let store = SecretStore(processEnvironment: [
            "APIEXPLORER_SECRET_KEY": "declared-key", "GITHUB_TOKEN": "declared-token", "APIEXPLORER_SECRET_OTHER": "never-read",
        ])
        let environment = try #require(service.environments.first)
        let builder = RequestBuilder(service: service, environment: environment, secrets: store)
        #expect(builder.declares(secret: "KEY") && !builder.declares(secret: "OTHER"))
        var endpoint = try #require(service.endpoint("items"))
        endpoint.path = "/items/{{secret.OTHER}}"
        #expect(throws: UnresolvedPlaceholderError.self) { try builder.prepare(endpoint) }
        endpoint.path = "/items/{{secret.KEY}}"
        #expect(try builder.prepare(endpoint).target.path.contains("declared-key"))
    }
}

/// The smaller messages of issue 47: each said once, where it belongs.
@Suite(.offPool) struct CatalogMessageTests {
    /// Two endpoints naming the same templated file that leads out: each is told about once, at
    /// its own line.
    @Test func aTemplatedFileErrorIsSaidOnceAtItsOwnLine() throws {
        let (catalog, _) = try loadCatalog("""
            service: two
            variables: { f: "/etc/passwd" }
            environments:
              local: { baseURL: "http://127.0.0.1:9" }
            endpoints:
              first: { method: PUT, path: /a, bodyFile: "{{f}}" }
              second: { method: PUT, path: /b, bodyFile: "{{f}}" }
            """)
        let errors = catalog.diagnostics.filter { $0.message.contains("the file '{{f}}'") }
        #expect(errors.map(\.line) == [6, 7], "\(catalog.diagnostics)")
        #expect(errors[0].message.contains("endpoint 'first'") && errors[1].message.contains("endpoint 'second'"))
    }

    /// `download: "{{x}}"` would write a file named `{{x}}`: download names are not templates.
    @Test func aPlaceholderInADownloadNameIsAnError() throws {
        let (catalog, _) = try loadCatalog("""
            service: d
            environments:
              local: { baseURL: "http://127.0.0.1:9" }
            endpoints:
              get: { path: /a, download: "{{x}}.csv" }
              climb: { path: /a, download: ../up.csv }
            """)
        let messages = catalog.diagnostics.map(\.description)
        #expect(messages.contains { $0.contains("test.yaml:5:30: error: 'download' of endpoint 'get': '{{x}}.csv' holds a placeholder") }, "\(messages)")
        #expect(messages.contains { $0.contains("warning: 'download' of endpoint 'climb': '../up.csv' names a file outside the downloads folder") }, "\(messages)")
    }
}
