import CatalogTestSupport
import DispatcherCore
import Foundation
import JSONSupport
import Testing

@testable import Catalog
import TestTraits

/// Every concept a catalog carries is read into the core's types.
@Suite(.offPool) struct ConceptParsingTests {
    static let catalog = """
        service: shop
        title: The Shop
        description: Sells things.
        variables: { region: eu, petId: "1" }
        environments:
          local:
            type: development
            baseURL: http://127.0.0.1:4010/shop
            headers: { Accept: application/json, X-Region: "{{region}}" }
            groupHeaders:
              admin: { X-Admin-Env: local }
            variables: { petId: 7 }
            secretDefaults: { SHOP_TOKEN: demo }
            cachePolicy: reloadIgnoringCache
            fixtures: delayed(0.3)
            timeouts: { connect: 5, read: 250ms, total: none }
            retry:
              limit: 3
              statuses: [502, 503]
              methods: [GET, POST]
              networkErrors: [timedOut]
              backoff: 0.2
              multiplier: 3
              maxBackoff: 10
              honourRetryAfter: false
              maxRetryAfter: 20s
            redirects: { follow: false }
            maxBodySize: 10MiB
          qa:
            type: qa
            baseURL: https://qa.shop.example.com
            fixtures: immediate
            retry: none
            tls:
              ca: certs/ca.pem
              clientCertificate: { certificate: certs/client.pem, key: certs/client.key }
              insecure: true
          production:
            type: production
            baseURL: https://shop.example.com/v2
            fixtures: never
            tls:
              pins: [sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=]
        groups:
          admin:
            title: Administrators
            headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" }
          public:
        auth:
          refresh:
            endpoint: login
            on: [401, 419, sessionExpired]
            token: $.data.token
            into: secret.SHOP_TOKEN
        errors:
          - status: 400
            error: badRequest
            message: $.errors[*].message
          - status: [401, 403]
            error: denied
            message: Access denied
          - status: 2xx
            when: $.error
            error: applicationError
            message: $.error.message
          - status: 500-599
            error: serverError
          - name: teapot rule
            status: 418
            error: clientError
        endpoints:
          login:
            method: POST
            path: /login
            form: { user: demo, password: "{{secret.SHOP_PASSWORD}}" }
            stub: { body: { data: { token: fresh } } }
          findPet:
            title: Find a pet
            description: By id.
            group: admin
            method: get
            path: /pet/{{petId}}
            query: { expand: [owner, tags], verbose: null, page: 2 }
            headers: { X-Trace: on }
            parameters: { petId: "9" }
            validation: [200, 404]
            timeouts: { read: 2 }
            expectsBody: false
            stub:
              status: 200
              headers: { ETag: '"v1"' }
              bodyFile: fixtures/pet.json
            examples:
              notFound: { status: 404, body: { message: gone }, delay: 1.5 }
              text: { status: 500, body: "plain text" }
              offline: { networkError: notConnectedToInternet, message: Airplane mode }
          upload:
            method: PUT
            path: /upload
            bodyFile: fixtures/photo.png
          note:
            method: POST
            path: /note
            body: "Hello {{region}}"
            validation: successAndRedirectCodes
        """

    let service: Service

    init() throws {
        let folder = try TemporaryCatalog([
            "shop.yaml": Self.catalog, "fixtures/pet.json": #"{"id": 7}"#, "fixtures/photo.png": "PNG",
            "certs/ca.pem": "CA", "certs/client.pem": "CERT", "certs/client.key": "KEY",
        ])
        let catalog = folder.load()
        #expect(catalog.diagnostics.filter(\.isError).isEmpty, "\(catalog.diagnostics)")
        service = try #require(catalog.services.first)
    }

    @Test func serviceFields() {
        #expect(service.id == "shop")
        #expect(service.title == "The Shop")
        #expect(service.summary == "Sells things.")
        #expect(service.file == "cat/shop.yaml")
        #expect(service.variables == ["region": "eu", "petId": "1"])
        #expect(service.environments.map(\.name) == ["local", "qa", "production"])
        #expect(service.endpoints.map(\.id) == ["login", "findPet", "upload", "note"])
        #expect(service.groups.map(\.id) == ["admin", "public"])
        #expect(service.groups[0].title == "Administrators")
    }

    @Test func environmentFields() throws {
        let local = try #require(service.environment(named: "local"))
        #expect(local.type == .development)
        #expect(local.baseURL.absoluteString == "http://127.0.0.1:4010/shop")
        #expect(local.headers.map(\.name) == ["Accept", "X-Region"])
        #expect(local.headers["X-Region"] == "{{region}}")
        #expect(local.groupHeaders["admin"]?["Authorization"] == "Bearer {{secret.SHOP_TOKEN}}")
        #expect(local.groupHeaders["admin"]?["X-Admin-Env"] == "local")
        #expect(local.variables == ["petId": "7"])
        #expect(service.secretDefaults["local"] == ["SHOP_TOKEN": "demo"])
        #expect(local.cachePolicy == .reloadIgnoringCache)
        #expect(local.fixtures == .delayed(.milliseconds(300)))
        #expect(local.timeouts == Timeouts(connect: .seconds(5), read: .milliseconds(250), total: nil))
        let retry = try #require(local.retry)
        #expect(retry.limit == 3)
        #expect(retry.statuses == [502, 503])
        #expect(retry.methods == [.get, .post])
        #expect(retry.transportCodes == [.timedOut])
        #expect(retry.initialBackoff == .milliseconds(200))
        #expect(retry.multiplier == 3)
        #expect(retry.maximumBackoff == .seconds(10))
        #expect(retry.honoursRetryAfter == false)
        #expect(retry.maximumRetryAfter == .seconds(20))
        #expect(local.redirects.follow == false)
        #expect(local.maximumBodySize == 10 * 1024 * 1024)

        let qa = try #require(service.environment(named: "qa"))
        #expect(qa.type == .custom("qa"))
        #expect(qa.retry == nil)
        #expect(qa.fixtures == .immediate)
        #expect(qa.trust.certificateAuthority?.lastPathComponent == "ca.pem")
        #expect(qa.trust.clientCertificate?.certificate.lastPathComponent == "client.pem")
        #expect(qa.trust.clientCertificate?.privateKey.lastPathComponent == "client.key")
        #expect(qa.trust.allowInsecure)
        #expect(qa.timeouts == .standard)

        let production = try #require(service.environment(named: "production"))
        #expect(production.type.isProduction)
        #expect(production.fixtures == .never)
        #expect(production.trust.pins.map(\.description) == ["sha256/47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="])
        #expect(production.groupHeaders["admin"]?["X-Admin-Env"] == nil)
    }

    @Test func endpointFields() throws {
        let endpoint = try #require(service.endpoint("findPet"))
        #expect(endpoint.key == EndpointKey(service: "shop", endpoint: "findPet"))
        #expect(endpoint.title == "Find a pet")
        #expect(endpoint.summary == "By id.")
        #expect(endpoint.group == "admin")
        #expect(endpoint.method == .get)
        #expect(endpoint.path == "/pet/{{petId}}")
        #expect(endpoint.query == [
            QueryItem(name: "expand", value: "owner"), QueryItem(name: "expand", value: "tags"),
            QueryItem(name: "verbose", value: nil), QueryItem(name: "page", value: "2"),
        ])
        #expect(endpoint.headers["X-Trace"] == "on")
        #expect(endpoint.parameters == ["petId": "9"])
        #expect(endpoint.validation == .customCodes([200, 404]))
        #expect(endpoint.timeouts == Timeouts(connect: nil, read: .seconds(2), total: nil))
        #expect(endpoint.expectsResponseBody == false)
        #expect(endpoint.location.line == 77)
        #expect(endpoint.location.column == 3)

        guard case .response(let status, let headers, let body) = endpoint.stub.sample else {
            Issue.record("the stub is a response")
            return
        }
        #expect(status == 200)
        #expect(headers["ETag"] == "\"v1\"")
        #expect(headers["Content-Type"] == "application/json")
        #expect(String(decoding: body, as: UTF8.self) == #"{"id": 7}"#)

        #expect(endpoint.examples.map(\.name) == ["notFound", "text", "offline"])
        #expect(endpoint.exampleNames == ["default", "notFound", "text", "offline"])
        #expect(endpoint.examples[0].delay == .milliseconds(1500))
        #expect(endpoint.examples[0].sample == .response(status: 404, headers: .json, body: Data(#"{"message":"gone"}"#.utf8)))
        #expect(endpoint.examples[1].sample == .response(status: 500, headers: Headers(), body: Data("plain text".utf8)))
        #expect(endpoint.examples[2].sample == .networkError(TransportError(.notConnectedToInternet, message: "Airplane mode")))
    }

    @Test func bodies() throws {
        #expect(service.endpoint("login")?.body == .form([QueryItem(name: "user", value: "demo"), QueryItem(name: "password", value: "{{secret.SHOP_PASSWORD}}")]))
        #expect(service.endpoint("login")?.stub.sample == .response(status: 200, headers: .json, body: Data(#"{"data":{"token":"fresh"}}"#.utf8)))
        // A request's bodyFile is checked at load and read as it is sent (issue 14): kept as its absolute path.
        guard case .file(let path, nil)? = service.endpoint("upload")?.body else {
            Issue.record("bodyFile is a streamed file body")
            return
        }
        #expect(path.hasPrefix("/") && path.hasSuffix("/fixtures/photo.png"))
        #expect(service.endpoint("note")?.body == .text("Hello {{region}}", contentType: nil))
        #expect(service.endpoint("note")?.validation == .successAndRedirectCodes)
        #expect(service.endpoint("login")?.stub.sample != nil)
    }

    @Test func errorRules() throws {
        let rules = service.errorRules
        #expect(rules.count == 5)
        #expect(rules[0].statuses == .codes([400]))
        #expect(rules[0].kind == .badRequest)
        #expect(rules[0].message == .path(try JSONPath("$.errors[*].message")))
        #expect(rules[1].statuses == .codes([401, 403]))
        #expect(rules[1].kind == .custom("denied"))
        #expect(rules[1].message == .text("Access denied"))
        #expect(rules[2].statuses == .range(200...299))
        #expect(rules[2].when == (try JSONPath("$.error")))
        #expect(rules[2].kind == .custom("applicationError"))
        #expect(rules[3].statuses == .range(500...599))
        #expect(rules[3].kind == .serverError(500))
        #expect(rules[3].message == nil)
        #expect(rules[4].name == "teapot rule")
        #expect(rules[4].kind == .clientError(418))
        #expect(rules[0].name == "badRequest (shop.yaml:56)")
    }

    @Test func authRefreshRule() throws {
        let rule = try #require(service.authRefresh)
        #expect(rule.endpoint == "login")
        #expect(rule.statuses == [401, 419])
        #expect(rule.kinds == [.custom("sessionExpired")])
        #expect(rule.token == (try JSONPath("$.data.token")))
        #expect(rule.into == "SHOP_TOKEN")
        #expect(service.secretNames == ["SHOP_TOKEN", "SHOP_PASSWORD"])
    }

    @Test func mergeKeysAndAnchorsAreResolved() throws {
        let (catalog, _) = try loadCatalog("""
            environments:
              local: &base { baseURL: "http://127.0.0.1:1/x", headers: { A: "1" } }
              other:
                <<: *base
                headers: { B: "2" }
            endpoints:
              one: { path: /one }
            """)
        let service = try #require(catalog.services.first)
        #expect(service.id == "test")
        #expect(service.environment(named: "other")?.baseURL.absoluteString == "http://127.0.0.1:1/x")
        #expect(service.environment(named: "other")?.headers.map(\.name) == ["B"])
    }

    @Test func yamlCoreSchemaKeepsYesAndNoAsText() throws {
        let (catalog, _) = try loadCatalog("""
            environments:
              local: { baseURL: "http://127.0.0.1:1", variables: { a: yes, b: no, c: 0x1F, d: 1.50, e: ~ } }
            endpoints:
              one: { path: /one, body: { a: yes, n: 0x1F, f: 1.50, t: true, z: null, s: "7" } }
            """)
        #expect(catalog.services.isEmpty)
        #expect(catalog.diagnostics.contains { $0.message == "'e' in the variables of environment 'local' must be text, not null" })
        let (clean, _) = try loadCatalog("""
            environments:
              local: { baseURL: "http://127.0.0.1:1", variables: { a: yes, b: no, c: 0x1F, d: 1.50 } }
            endpoints:
              one: { path: /one, body: { a: yes, n: 0x1F, f: 1.50, t: true, z: null, s: "7" } }
            """)
        let service = try #require(clean.services.first)
        #expect(service.environments[0].variables == ["a": "yes", "b": "no", "c": "0x1F", "d": "1.50"])
        #expect(service.endpoints[0].body == .json(["a": "yes", "n": 31, "f": .number("1.50"), "t": true, "z": nil, "s": "7"]))
    }
}
