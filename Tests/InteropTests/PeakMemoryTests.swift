import Foundation
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#endif

extension BinaryTests {
    /// Peak memory of a capped response, measured in the child process `call` runs in: a gzip bomb
    /// printed as JSON stays near the cap (issue 12: cap + 64 MB whatever the output format).
    @Suite struct PeakMemoryTests {
        @Test func aGzipBombPrintedAsJSONStaysNearTheCap() async throws {
            #if canImport(Glibc)
            let bomb = TestResponse.compressionBomb(.gzip, decodedSize: 1 << 30)
            try await withTestHTTPServer(handler: { _ in bomb }) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("m.yaml", """
                    service: m
                    environments:
                      local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never, retry: none }
                    endpoints:
                      bomb: { path: /bomb }
                    """)
                let cap = 32 << 20
                let started = ContinuousClock.now
                let result = try await CLI.run(
                    ["call", "m/bomb", "--json", "--max-body-size", "\(cap)", "--no-history", "--catalog", folder.path], state: state)
                let wall = ContinuousClock.now - started
                var usage = rusage()
                getrusage(RUSAGE_CHILDREN.rawValue, &usage)
                let peak = Int(usage.ru_maxrss) * 1024  // the largest child waited for so far: this one
                #expect(result.status == 1)
                let object = try jsonObject(result.stdout)
                #expect((object["error"] as? [String: Any])?["kind"] as? String == "bodyTooLarge")
                let body = try #require((object["response"] as? [String: Any])?["body"] as? [String: Any])
                #expect(body["truncated"] as? Bool == true)
                #expect((body["size"] as? Int ?? .max) <= cap)
                // A debug binary alone takes ~40 MB.
                #expect(peak < cap + (64 << 20) + (48 << 20), "peak \(peak >> 20) MiB")
                #expect(wall < .seconds(20), "\(wall)")
            }
            #endif
        }
    }
}
