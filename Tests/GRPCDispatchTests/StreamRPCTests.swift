import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

/// `call` prints a server stream's messages as they arrive: plain output the list's text piece by
/// piece (the same bytes as the whole list), `--json` one line per message, then the outcome.
@Suite(.offPool, .enabled(if: PythonGRPCServer.isAvailable, "python3 with grpcio, grpcio-reflection, grpcio-status"))
struct StreamRPCTests {
    static let extra = """
          endless:
            grpc: routeguide.Probe/Stream
            body: { text: tick, count: 0, intervalMs: 50 }
          failing:
            grpc: routeguide.Probe/Stream
            body: { text: tick, count: 2, failWith: NOT_FOUND }
        """

    private func catalog() async throws -> TemporaryDirectory {
        let server = try await PythonGRPCServer.shared()
        let catalog = try TemporaryDirectory()
        try await RouteGuideCatalog.write(into: catalog, port: server.port, extra: Self.extra)
        return catalog
    }

    /// A stream that never ends: what is printed before the call is stopped came as it arrived.
    private func endless(_ options: [String], until enough: @escaping @Sendable (String) -> Bool) async throws -> (text: String, satisfied: Bool) {
        let catalog = try await catalog()
        let process = try CLI.start(["call", "routeguide/endless", "--live", "--catalog", catalog.path, "--no-history"] + options, state: try TemporaryDirectory())
        let read = await CLI.read(process, until: enough)
        process.kill()
        _ = await offPool { process.wait() }
        return read
    }

    @Test func jsonPrintsOneLinePerMessageAsItArrives() async throws {
        let read = try await endless(["--json"]) { $0.split(separator: "\n").count >= 3 }
        #expect(read.satisfied, "\(read.text)")
        let lines = read.text.split(separator: "\n").prefix(3)
        for (index, line) in lines.enumerated() {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            let message = try #require(object["message"] as? [String: Any], "\(line)")
            #expect(message["text"] as? String == "tick")
            #expect((message["index"] as? Int ?? 0) == index)
            #expect(object["at"] is Double || object["at"] is Int, "\(line)")
        }
    }

    @Test func plainOutputPrintsTheListsTextAsMessagesArrive() async throws {
        let read = try await endless([]) { $0.components(separatedBy: "\"tick\"").count > 3 }
        #expect(read.satisfied, "\(read.text)")
        #expect(read.text.hasPrefix("[\n  {\n    \"text\": \"tick\""), "\(read.text)")
        #expect(read.text.contains("\n  },\n  {\n"), "\(read.text)")
    }

    @Test func aStreamThatFailsKeepsWhatCameAndSaysTheStatus() async throws {
        let catalog = try await catalog()
        let state = try TemporaryDirectory()
        let plain = try await CLI.run(["call", "routeguide/failing", "--live", "--catalog", catalog.path, "--no-history"], state: state)
        #expect(plain.status == 1)
        let list = try #require(try JSONSerialization.jsonObject(with: Data(plain.output.utf8)) as? [[String: Any]], "\(plain.output)")
        #expect(list.count == 2)
        #expect(plain.errors.contains("error: notFound (HTTP 404): NOT_FOUND"), "\(plain.errors)")
        let json = try await CLI.run(["call", "routeguide/failing", "--live", "--json", "--catalog", catalog.path, "--no-history"], state: state)
        #expect(json.status == 1)
        let lines = json.output.split(separator: "\n")
        #expect(lines.count == 3, "\(json.output)")
        let outcome = try #require(try JSONSerialization.jsonObject(with: Data(String(lines.last ?? "").utf8)) as? [String: Any])
        #expect((outcome["error"] as? [String: Any])?["kind"] as? String == "notFound", "\(outcome)")
        // A stream that ends well: the same list as before, whole.
        let ok = try await CLI.run(["call", "routeguide/listFeatures", "--live", "--catalog", catalog.path, "--no-history"], state: state)
        #expect(ok.status == 0, "\(ok.errors)")
        #expect(ok.output.hasPrefix("[\n  {\n") && ok.output.hasSuffix("}\n]") || ok.output.hasSuffix("}\n]\n"), "\(ok.output)")
    }
}
