import CatalogTestSupport
import DispatcherCore
import Foundation
import Sessions
import Testing

@testable import Catalog
import TestTraits

/// The catalogs compiled into the binary.
@Suite(.offPool) struct BundledCatalogTests {
    let catalog = BundledCatalogs.load()

    @Test func theGeneratedFileIsUpToDate() throws {
        let expected = BundledCatalogGenerator.source(for: try BundledCatalogGenerator.files())
        if ProcessInfo.processInfo.environment["UPDATE_BUNDLED_CATALOGS"] == "1" {
            try Data(expected.utf8).write(to: BundledCatalogGenerator.generatedFile)
            return
        }
        let committed = try String(contentsOf: BundledCatalogGenerator.generatedFile, encoding: .utf8)
        #expect(committed == expected, "environments/ changed: run scripts/generate-bundled-catalogs")
    }

    @Test func theEmbeddedBytesAreTheFiles() throws {
        let files = try BundledCatalogGenerator.files()
        #expect(Set(BundledCatalogs.fileSystem.files.keys) == Set(files.map(\.path)))
        for file in files {
            #expect(BundledCatalogs.fileSystem.files[file.path] == file.data, "\(file.path)")
        }
        #expect(!files.contains { $0.path.hasPrefix(".") || $0.path.contains("/.") })
    }

    @Test func theyLoadCleanly() {
        #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
        #expect(catalog.services.map(\.id) == ["httpbin", "petstore"])
        #expect(catalog.source == .bundled)
        for service in catalog.services {
            // httpbin's TLS environments try the mock's HTTPS (MockTLSTests); blue and green ask
            // the mock for two deployments' answers (`apiexplorer diff`, DiffCommandTests).
            let tls = service.id == "httpbin" ? ["tls", "wrongPin", "untrusted", "blue", "green"] : []
            #expect(service.environments.map(\.name) == ["local"] + tls + ["staging", "production"])
            #expect(service.environments.map(\.type) == [.development] + tls.map { _ in .development } + [.staging, .production])
            #expect(service.environments[0].baseURL.absoluteString == "http://127.0.0.1:4010/\(service.id)")
            #expect(!service.environments.last!.trust.pins.isEmpty)
            #expect(service.endpoints.count >= 8)
        }
    }

    @Test func everyEndpointAndExampleWorksOfflineInStubMode() async throws {
        for service in catalog.services {
            let session = ServiceSession(service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: [:]), clock: .instant)
            for endpoint in service.endpoints {
                for example in endpoint.exampleNames {
                    let exchange = await session.send(endpoint, options: RequestOptions(stubBehavior: .immediate, example: example))
                    #expect(exchange.error?.kind != .invalidRequest, "\(endpoint.key) [\(example)]: \(exchange.error?.message ?? "")")
                    if example == CatalogExample.defaultName {
                        #expect(exchange.error == nil, "\(endpoint.key) default stub fails: \(exchange.error?.description ?? "")")
                    }
                }
            }
        }
    }

    @Test func examplesCoverEveryMappedErrorKind() async throws {
        var kinds = Set<String>()
        for service in catalog.services {
            let session = ServiceSession(service: service, environment: service.environments[0], secrets: SecretStore(processEnvironment: [:]), clock: .instant)
            for endpoint in service.endpoints {
                for example in endpoint.examples {
                    let exchange = await session.send(endpoint, options: RequestOptions(stubBehavior: .immediate, example: example.name))
                    if let error = exchange.error { kinds.insert(error.kind.name) }
                    // An expired session is mapped, then refreshed and resumed to a success.
                    for event in exchange.trace { if case .errorMapped(let kind, _) = event.kind { kinds.insert(kind.name) } }
                }
            }
        }
        let expected: Set<String> = [
            "badRequest", "unauthorized", "forbidden", "notFound", "tooManyRequests", "internalServerError", "clientError",
            "serverError", "noData", "timeout", "cannotConnect", "connectionLost", "notConnected", "tlsFailure", "pinningFailed", "bodyTooLarge",
            "decodingFailed", "expiredUserSession", "petLocked", "applicationError",
        ]
        #expect(expected.subtracting(kinds).isEmpty, "not covered: \(expected.subtracting(kinds).sorted())")
    }

    @Test func aStubbedRateLimitCarriesRetryAfter() async throws {
        let service = try #require(catalog.service("petstore"))
        let session = ServiceSession(service: service, environment: service.environments[0], clock: .instant)
        let exchange = await session.send("listPets", options: RequestOptions(stubBehavior: .immediate, example: "rateLimited"))
        #expect(exchange.error?.kind == .tooManyRequests)
        #expect(exchange.error?.retryAfter == .seconds(2))
        let invalid = await session.send("listPets", options: RequestOptions(stubBehavior: .immediate, example: "invalidStatus"))
        #expect(invalid.error?.message == "status must be one of available, pending, sold; limit must be at most 100")
    }
}
