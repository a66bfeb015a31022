import Catalog
import Foundation
import GRPCMock
import SystemSupport
import TestSupport
import Testing
import TestTraits

@testable import apiexplorer

/// `apiexplorer describe` and `list --grpc` print grpcurl's `describe` and `list` text, from the
/// catalogs' kept descriptor sets, a protoset, or reflection (grpcio's and the mock's).
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-reflection, grpcio-tools"))
struct DescribeAndListTests {
    /// grpcurl's `describe routeguide.RouteGuide` over routeguide.proto.
    static let routeGuide = """
        routeguide.RouteGuide is a service:
        service RouteGuide {
          rpc GetFeature ( .routeguide.Point ) returns ( .routeguide.Feature );
          rpc ListFeatures ( .routeguide.Rectangle ) returns ( stream .routeguide.Feature );
          rpc RecordRoute ( stream .routeguide.Point ) returns ( .routeguide.RouteSummary );
          rpc RouteChat ( stream .routeguide.RouteNote ) returns ( stream .routeguide.RouteNote );
        }

        """

    @Test func fromTheCatalogsKeptDescriptorSets() async throws {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: 1)
        let services = try await CLI.run(["list", "--grpc", "--catalog", catalog.path], state: state)
        #expect(services.status == 0, "\(services.errors)")
        #expect(services.output == "routeguide.Probe\nrouteguide.RouteGuide\n")
        let methods = try await CLI.run(["list", "routeguide.RouteGuide", "--catalog", catalog.path], state: state)
        #expect(methods.output == """
            routeguide.RouteGuide.GetFeature
            routeguide.RouteGuide.ListFeatures
            routeguide.RouteGuide.RecordRoute
            routeguide.RouteGuide.RouteChat

            """, "\(methods.errors)")
        let json = try await CLI.run(["list", "--grpc", "--json", "--catalog", catalog.path], state: state)
        #expect(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String] == ["routeguide.Probe", "routeguide.RouteGuide"])
        let service = try await CLI.run(["describe", "routeguide.RouteGuide", "--catalog", catalog.path], state: state)
        #expect(service.status == 0, "\(service.errors)")
        #expect(service.output == Self.routeGuide)
        // SERVICE/METHOD, as `call` and grpcurl's invocations write it, names the method.
        let method = try await CLI.run(["describe", "routeguide.RouteGuide/GetFeature", "--catalog", catalog.path], state: state)
        #expect(method.output == "routeguide.RouteGuide.GetFeature is a method:\nrpc GetFeature ( .routeguide.Point ) returns ( .routeguide.Feature );\n")
        let message = try await CLI.run(["describe", "routeguide.Point", "--catalog", catalog.path], state: state)
        #expect(message.output == "routeguide.Point is a message:\nmessage Point {\n  int32 latitude = 1;\n  int32 longitude = 2;\n}\n", "\(message.output)")
        let everything = try await CLI.run(["describe", "--catalog", catalog.path], state: state)
        #expect(everything.output.hasPrefix("routeguide.Probe is a service:\n"))
        #expect(everything.output.contains("\n" + Self.routeGuide))
    }

    @Test func anUnknownSymbolOrServiceIsAnErrorNamingWhatThereIs() async throws {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: 1)
        let symbol = try await CLI.run(["describe", "routeguide.Nope", "--catalog", catalog.path], state: state)
        #expect(symbol.status == 1)
        #expect(symbol.output.isEmpty)
        #expect(symbol.errors.contains("error: There is no symbol 'routeguide.Nope' in the descriptors."), "\(symbol.errors)")
        let service = try await CLI.run(["list", "routeguide.Nope", "--catalog", catalog.path], state: state)
        #expect(service.status == 1)
        #expect(service.errors.contains("(services: routeguide.Probe, routeguide.RouteGuide)"), "\(service.errors)")
        // A catalog without descriptors says where descriptors come from.
        let plain = try TemporaryDirectory()
        try plain.write("plain.yaml", "service: plain\nenvironments:\n  local:\n    baseURL: http://127.0.0.1:1\nendpoints:\n  ping:\n    path: /ping\n")
        let none = try await CLI.run(["list", "--grpc", "--catalog", plain.path], state: state)
        #expect(none.status == 2)
        #expect(none.errors.contains("keeps gRPC descriptors"), "\(none.errors)")
        #expect(none.errors.contains("--reflect HOST:PORT"))
        let both = try await CLI.run(["describe", "--reflect", "127.0.0.1:1", "--protoset", "x.protoset"], state: state)
        #expect(both.status == 2)
        #expect(both.errors.contains("give one"), "\(both.errors)")
    }

    @Test func fromAProtoset() async throws {
        let folder = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try folder.write("in.protoset", Data(try await RouteGuideCatalog.protoset.value))
        let path = folder.url.appendingPathComponent("in.protoset").path
        let described = try await CLI.run(["describe", "routeguide.RouteGuide", "--protoset", path], state: state)
        #expect(described.status == 0, "\(described.errors)")
        #expect(described.output == Self.routeGuide)
        try folder.write("bad.protoset", Data("not a protoset".utf8))
        let bad = try await CLI.run(["list", "--protoset", folder.url.appendingPathComponent("bad.protoset").path], state: state)
        #expect(bad.status == 1)
        #expect(bad.errors.hasPrefix("error: "), "\(bad.errors)")
    }

    @Test func byReflectionFromGrpcio() async throws {
        let server = try await PythonGRPCServer.shared()
        let state = try TemporaryDirectory()
        let address = "127.0.0.1:\(server.port)"
        let services = try await CLI.run(["list", "--reflect", address, "--plaintext"], state: state)
        #expect(services.status == 0, "\(services.errors)")
        // grpcio lists what it was told to: both services and its reflection service (v1alpha).
        #expect(services.output == "grpc.reflection.v1alpha.ServerReflection\nrouteguide.Probe\nrouteguide.RouteGuide\n", "\(services.output)")
        let described = try await CLI.run(["describe", "routeguide.RouteGuide", "--reflect", address, "--plaintext"], state: state)
        #expect(described.output == Self.routeGuide, "\(described.errors)")
        if Grpcurl.isAvailable {
            // grpcurl's own text for the same server, symbol by symbol.
            #expect(try await Grpcurl.run(["-plaintext", address, "list"]).output == services.output)
            #expect(try await Grpcurl.run(["-plaintext", address, "list", "routeguide.Probe"]).output == "routeguide.Probe.Echo\nrouteguide.Probe.Stream\n")
            for symbol in ["routeguide.RouteGuide", "routeguide.Point", "routeguide.EchoReply", "routeguide.Point.latitude", ""] {
                let arguments = symbol.isEmpty ? [] : [symbol]
                let ours = try await CLI.run(["describe"] + arguments + ["--reflect", address, "--plaintext"], state: state)
                let theirs = try await Grpcurl.run(["-plaintext", address, "describe"] + arguments)
                #expect(theirs.status == 0, "\(theirs.errors)")
                #expect(ours.output == theirs.output, "describe \(symbol)")
            }
        }
        let silent = try await PythonGRPCServer.shared(PythonGRPCServer.Options(reflection: false))
        let refused = try await CLI.run(["list", "--reflect", "127.0.0.1:\(silent.port)", "--plaintext"], state: state)
        #expect(refused.status == 1)
        #expect(refused.errors.contains("does not support the reflection API"), "\(refused.errors)")
    }

    @Test func byReflectionFromTheMock() async throws {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: 1)
        let plan = RPCMock.plan(CatalogLoader.load(.folder(catalog.path), trust: .everything).services)
        let server = try GRPCMockServer(methods: plan.methods, descriptors: plan.descriptors)
        let port = try await server.start()
        try await withShutdown {
            let methods = try await CLI.run(["list", "routeguide.Probe", "--reflect", "127.0.0.1:\(port)", "--plaintext"], state: state)
            #expect(methods.status == 0, "\(methods.errors)")
            #expect(methods.output == "routeguide.Probe.Echo\nrouteguide.Probe.Stream\n", "\(methods.output)")
            let described = try await CLI.run(["describe", "routeguide.RouteGuide", "--reflect", "127.0.0.1:\(port)", "--plaintext"], state: state)
            #expect(described.output == Self.routeGuide, "\(described.errors)")
        } shutdown: {
            await server.stop()
        }
    }
}
