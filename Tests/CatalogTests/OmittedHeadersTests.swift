import CatalogTestSupport
import DispatcherCore
import Foundation
import Testing

@testable import Catalog
import TestTraits

/// `omitHeaders`: inherited headers (the environment's, the group's) an endpoint does not send.
@Suite(.offPool) struct OmittedHeadersTests {
    static let catalog = """
        service: shop
        environments:
          local:
            baseURL: http://127.0.0.1:1/api
            fixtures: immediate
            headers: { Accept: application/json, X-Client: "{{client}}" }
            groupHeaders: { signedIn: { X-Debug: "1" } }
            secretDefaults: { SHOP_TOKEN: tok-1234 }
        groups:
          signedIn: { headers: { Authorization: "Bearer {{secret.SHOP_TOKEN}}" } }
        endpoints:
          plain:
            group: signedIn
            path: /plain
          quiet:
            group: signedIn
            path: /quiet
            headers: { X-Own: own }
            omitHeaders: [accept, Authorization, x-client]
        """

    func prepared(_ id: String, removing: Set<String> = []) throws -> (PreparedRequest, RequestBuilder, CatalogEndpoint) {
        let service = try loadCleanService(Self.catalog)
        let endpoint = try #require(service.endpoint(id))
        let builder = RequestBuilder(service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: [:]))
        return (try builder.prepare(endpoint, values: ["client": "cli"], removingHeaders: removing), builder, endpoint)
    }

    func sentHeaders(_ prepared: PreparedRequest) -> [String] {
        let request = prepared.target.headers.map(\.name)
        let group = prepared.target.group.flatMap { prepared.environment.groupHeaders[$0] }?.map(\.name) ?? []
        return (prepared.environment.headers.map(\.name) + group + request).sorted()
    }

    @Test func namesAreReadInAnyCaseAndKeptAsWritten() throws {
        let service = try loadCleanService(Self.catalog)
        #expect(service.endpoint("quiet")?.omittedHeaders == ["accept", "Authorization", "x-client"])
        #expect(service.endpoint("plain")?.omittedHeaders == [])
    }

    @Test func omittedHeadersAreNotSentAndRemovedOnesAddToThem() throws {
        let (plain, _, _) = try prepared("plain")
        #expect(sentHeaders(plain) == ["Accept", "Authorization", "X-Client", "X-Debug"])
        let (quiet, _, _) = try prepared("quiet")
        #expect(sentHeaders(quiet) == ["X-Debug", "X-Own"])
        let (removed, _, _) = try prepared("quiet", removing: ["X-DEBUG"])
        #expect(sentHeaders(removed) == ["X-Own"])
    }

    @Test func placeholdersOfOmittedHeadersAreNotListed() throws {
        let (_, builder, quiet) = try prepared("quiet")
        #expect(builder.variables(for: quiet).map(\.name).isEmpty)
        let plain = try #require(builder.service.endpoint("plain"))
        #expect(builder.variables(for: plain).map(\.name) == ["client", "secret.SHOP_TOKEN"])
    }

    @Test func unknownNamesAreWarningsWithTheirPlace() throws {
        let (catalog, _) = try loadCatalog("""
            service: shop
            environments:
              local: { baseURL: "http://h", headers: { Accept: application/json } }
            endpoints:
              a:
                path: /a
                headers: { X-Own: own }
                omitHeaders: [Acept, X-Own, Accept]
              b:
                path: /b
                omitHeaders: Accept
              c:
                path: /c
                omitHeaders: ["bad name"]
              d:
                path: /d
                omitHeaders: { Accept: true }
            """)
        #expect(positions(catalog.diagnostics) == [
            "8:19: warning: 'omitHeaders' of endpoint 'a' names 'Acept', which no environment or group of it sends; did you mean 'Accept'?",
            "8:26: warning: 'omitHeaders' of endpoint 'a' names 'X-Own', one of its own headers, which is always sent: omitHeaders leaves out inherited headers only",
            "14:19: error: 'bad name' is not a valid header name in 'omitHeaders' of endpoint 'c'",
            "17:18: error: 'omitHeaders' of endpoint 'd' must be a list or a single value, not a mapping",
        ])
        let service = try #require(catalog.service("shop"))
        #expect(service.endpoints.map(\.id) == ["a", "b"])
        #expect(service.endpoint("a")?.omittedHeaders == ["Acept", "X-Own", "Accept"])
        #expect(service.endpoint("b")?.omittedHeaders == ["Accept"])
        #expect(catalog.diagnostics.first?.description.hasPrefix("cat/test.yaml:8:19: warning:") == true)
    }
}
