import Foundation
import TestSupport
import Testing
import TestTraits

extension BinaryTests {
    /// `call -o FILE`: the body goes to the file, standard error says so, and `--json` says where
    /// it went and how large it is (the history keeps the same, never the bytes).
    @Suite(.offPool) struct CallDownloadTests {
        /// A catalog whose one endpoint, `d/blob`, goes live to `baseURL`; the state folder; the file to download to.
        static func blobCatalog(_ baseURL: String) throws -> (TemporaryDirectory, TemporaryDirectory, String) {
            let folder = try TemporaryDirectory()
            try folder.write("d.yaml", """
                service: d
                environments:
                  local: { baseURL: "\(baseURL)", fixtures: never }
                endpoints:
                  blob: { path: /blob }
                """)
            return (folder, try TemporaryDirectory(), folder.url.appendingPathComponent("blob.bin").path)
        }

        @Test func theBodyGoesToTheFileAndJSONSaysWhere() async throws {
            try await withTestHTTPServer(handler: { _ in .chunked(totalBytes: 300_000, chunkSize: 30_000) }) { server in
                let (folder, state, target) = try Self.blobCatalog(server.baseURL.absoluteString)
                let plain = try await CLI.run(["call", "d/blob", "-o", target, "--catalog", folder.path], state: state)
                #expect(plain.status == 0)
                #expect(plain.output.isEmpty)
                // Standard error is a pipe here: no progress line, only where the body went.
                #expect(plain.errors == "Saved 300 kB to \(target).\n")
                #expect(FileManager.default.contents(atPath: target) == Data(TestPattern.bytes(count: 300_000)))

                // The file is there now: it is replaced only when asked.
                let json = try await CLI.run(["call", "d/blob", "-o", target, "--force", "--json", "--catalog", folder.path], state: state)
                let response = try #require(try jsonObject(json.stdout)["response"] as? [String: Any])
                #expect(response["file"] as? String == target)
                #expect(response["size"] as? Int == 300_000)
                #expect((response["body"] as? [String: Any])?["size"] as? Int == 0)
            }
        }

        /// On a terminal, standard error gets the progress line (then `Saved …`), as curl's meter.
        @Test func aTerminalGetsTheProgressLine() async throws {
            try await withTestHTTPServer(handler: { _ in .chunked(totalBytes: 300_000, chunkSize: 30_000) }) { server in
                let (folder, state, target) = try Self.blobCatalog(server.baseURL.absoluteString)
                let (status, bytes) = try SecurityTests.runOnTerminal(["call", "d/blob", "-o", target, "--trust", "--catalog", folder.path], state: state)
                let output = String(decoding: bytes, as: UTF8.self)
                #expect(status == 0, "\(output)")
                #expect(output.contains("\r\u{1B}[K↓ "), "\(output)")
                #expect(output.contains("Saved 300 kB to"), "\(output)")
            }
        }
    }
}
