import Catalog
import Foundation
import GRPCMock
import SystemSupport
import TestSupport
import Testing
import TestTraits

@testable import apiexplorer

/// `apiexplorer mock`'s gRPC server answers from the catalog's RPC fixtures (the CLI calls it
/// live), and `import grpc` reads it back by reflection; `import protoset` writes the same catalog.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio-tools (the test protoset)"))
struct MockAndImportTests {
    @Test func theMockServesFixturesWithDelaysAndStatuses() async throws {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: 1)
        let loaded = CatalogLoader.load(.folder(catalog.path), trust: .everything)
        let plan = RPCMock.plan(loaded.services)
        #expect(plan.problems.isEmpty, "\(plan.problems)")
        let server = try GRPCMockServer(methods: plan.methods, descriptors: plan.descriptors)
        let port = try await server.start()
        try await withShutdown {
            try await RouteGuideCatalog.write(into: catalog, port: port)
            let stub = try await CLI.run(["call", "routeguide/getFeature", "--live", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(stub.status == 0, "\(stub.errors)")
            #expect(stub.output.contains("\"name\": \"stubbed\""), "\(stub.output)")
            let stream = try await CLI.run(["call", "routeguide/listFeatures", "--live", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(stream.output.contains("\"name\": \"a\"") && stream.output.contains("\"name\": \"b\""), "\(stream.output)")
            // The example's status with its details, picked by metadata as HTTP picks by header.
            let gone = try await CLI.run(
                ["call", "routeguide/getFeature", "--live", "--var", "pick=gone", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(gone.status == 1)
            #expect(gone.errors.contains("error: notFound (HTTP 404): NOT_FOUND: no feature there; ErrorInfo: GONE (domain routes.test)"), "\(gone.errors)")
            // A method without a fixture answers UNIMPLEMENTED, naming what to add.
            let none = try await CLI.run(["call", "routeguide/recordRoute", "--live", "--catalog", catalog.path, "--no-history"], state: state)
            #expect(none.status == 1)
            #expect(none.errors.contains("UNIMPLEMENTED: routeguide/recordRoute has no fixture"), "\(none.errors)")
            // Reflection describes what the mock serves: import grpc writes a catalog of it.
            let imported = try TemporaryDirectory()
            let result = try await CLI.run(["import", "grpc", "127.0.0.1:\(port)", "--plaintext", "--out", imported.path], state: state)
            #expect(result.status == 0, "\(result.errors)")
            let text = try String(contentsOfFile: imported.url.appendingPathComponent("routeguide.yaml").path, encoding: .utf8)
            #expect(text.contains("grpc: routeguide.RouteGuide/ListFeatures"), "\(text)")
            #expect(text.contains("descriptors: routeguide.protoset"))
            let reloaded = CatalogLoader.load(.folder(imported.path), trust: .everything)
            #expect(reloaded.diagnostics.filter(\.isError).isEmpty, "\(reloaded.diagnostics)")
            #expect(reloaded.service("routeguide")?.endpoints.compactMap(\.rpc?.method).contains("routeguide.Probe/Echo") == true)
        } shutdown: {
            await server.stop()
        }
    }

    @Test func importProtosetWritesACatalogThatLoadsAndAnswersFromItsStubs() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try folder.write("in.protoset", Data(try await RouteGuideCatalog.protoset.value))
        let out = folder.url.appendingPathComponent("catalog").path
        let result = try await CLI.run(["import", "protoset", folder.url.appendingPathComponent("in.protoset").path, "--out", out], state: state)
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("6 methods"), "\(result.output)")
        let call = try await CLI.run(["call", "routeguide/getFeature", "--stub", "--catalog", out, "--no-history"], state: state)
        #expect(call.status == 0, "\(call.errors)")
        #expect(call.output.contains("\"location\""), "\(call.output)")
        // Again without --force: nothing is replaced.
        let again = try await CLI.run(["import", "protoset", folder.url.appendingPathComponent("in.protoset").path, "--out", out], state: state)
        #expect(again.status == 2)
        #expect(again.errors.contains("--force replaces it"))
        let damaged = try await CLI.run(["import", "protoset", "/dev/null", "--out", out], state: state)
        #expect(damaged.status == 2)
        #expect(damaged.errors.contains("error:"), "\(damaged.errors)")
    }
}
