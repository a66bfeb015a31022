import Foundation
import SystemSupport
import TestSupport
import Testing
import TestTraits

#if canImport(Glibc)
import Glibc
#endif

extension BinaryTests {
    /// Plain `call` writes a successful body to standard output as it arrives, in bounded memory
    /// (issue 34); what needs the whole body (an error's, `--json`) still holds it.
    @Suite(.offPool) struct CallBodyStreamTests {
        static func catalog(_ server: TestHTTPServer, retry: String = "none") -> String {
            """
            service: s
            environments:
              local: { baseURL: "\(server.baseURL.absoluteString)", fixtures: never, retry: \(retry), timeouts: { total: none } }
            endpoints:
              small: { path: /small }
              body: { path: /body }
            """
        }

        /// What a child wrote to standard output, read as it comes: the byte count, the first bytes,
        /// and whether `marker` was seen (then `onMarker` ran, once).
        struct Reading {
            var count = 0
            var start = [UInt8]()
            var exit: ChildProcess.Status = 0
            var peakMemory = 0
            var errors = ""
        }

        static func runReading(_ arguments: [String], state: TemporaryDirectory, keep: Int = 1 << 16, onFirstBytes: @escaping @Sendable () -> Void = {}) async throws -> Reading {
            var environment = ProcessInfo.processInfo.environment
            for name in ["APIEXPLORER_CATALOG", "http_proxy", "https_proxy", "HTTP_PROXY", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"] {
                environment[name] = nil
            }
            environment["XDG_STATE_HOME"] = state.path
            var arguments = arguments
            if let index = arguments.firstIndex(of: "--catalog") { arguments.insert("--trust", at: index) }
            let child = try ChildProcess(CLI.binary.path, arguments, environment: environment, directory: state.path, newSession: true)
            return await offPool {
                let errorDescriptor = child.errors
                nonisolated(unsafe) var errors = Data()
                let group = DispatchGroup()
                DispatchQueue(label: "call-body-stream.stderr").async(group: group) {
                    if let errorDescriptor {
                        errors = Data(FileDescriptor.readAll(errorDescriptor))
                        close(errorDescriptor)
                    }
                }
                var reading = Reading()
                var buffer = [UInt8](repeating: 0, count: 1 << 20)
                if let descriptor = child.output {
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
                        if count < 0, errno == EINTR { continue }
                        if count <= 0 { break }
                        if reading.count == 0 { onFirstBytes() }
                        if reading.start.count < keep { reading.start += buffer[0..<min(count, keep - reading.start.count)] }
                        reading.count += count
                    }
                    close(descriptor)
                }
                group.wait()
                (reading.exit, reading.peakMemory) = child.waitMeasuring()
                reading.errors = String(decoding: errors, as: UTF8.self)
                return reading
            }
        }

        @Test func theFirstBytesArePrintedBeforeTheRestOfTheBodyIsSent() async throws {
            // The server holds its second chunk until the first was printed: a call that held the
            // body would wait for it in vain (the gate gives up after 60 s, and the test says so).
            let printed = LockedValue(false)
            let gate: @Sendable (Int) async -> Void = { _ in
                let deadline = ContinuousClock.now + .seconds(60)
                while !printed.value, ContinuousClock.now < deadline { try? await Task.sleep(for: .milliseconds(20)) }
            }
            let handler: TestHTTPServer.Handler = { _ in
                .chunked(["first part\n", "second part\n"], headers: ["Content-Type": "application/octet-stream"], gate: gate)
            }
            try await withTestHTTPServer(handler: handler) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("s.yaml", Self.catalog(server))
                let started = ContinuousClock.now
                let reading = try await Self.runReading(["call", "s/body", "--catalog", folder.path], state: state) { printed.value = true }
                #expect(reading.exit == 0, "\(reading.errors)")
                #expect(String(decoding: reading.start, as: UTF8.self) == "first part\nsecond part\n")
                #expect(ContinuousClock.now - started < .seconds(60), "the first part was printed only once the body was complete")
            }
        }

        @Test func aOneGigabyteBodyToStandardOutputGrowsMemoryByLessThan32MB() async throws {
            let size = 1 << 30
            try await withTestHTTPServer(handler: PeakMemoryTests.oneGigabyte) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("s.yaml", Self.catalog(server))
                let small = try await Self.runReading(["call", "s/small", "--no-history", "--catalog", folder.path], state: state)
                #expect(small.exit == 0, "\(small.errors)")
                // Over the 256 MiB cap: a successful body printed as it arrives is not held, so no cap applies.
                let big = try await Self.runReading(["call", "s/body", "--catalog", folder.path], state: state, keep: 4096)
                #expect(big.exit == 0, "\(big.errors)")
                #expect(big.count == size)
                #expect(big.start == TestPattern.bytes(count: 4096))
                let growth = big.peakMemory - small.peakMemory
                #expect(growth < 32 << 20, "grew \(growth >> 20) MiB (\(small.peakMemory >> 20) → \(big.peakMemory >> 20) MiB)")
                // The history keeps the body's size and its first 64 KiB, as for any body.
                let history = try await CLI.run(["history", "--json"], state: state)
                let entries = try #require(try JSONSerialization.jsonObject(with: history.stdout) as? [[String: Any]])
                let entry = try #require(entries.last)
                let body = try #require((entry["response"] as? [String: Any])?["body"] as? [String: Any])
                #expect(body["truncated"] as? Bool == true)
                #expect((entry["response"] as? [String: Any])?["size"] as? Int == size)
            }
        }

        @Test func aConnectionLostAfterBytesWerePrintedIsNotRetried() async throws {
            let handler: TestHTTPServer.Handler = { _ in
                .chunked(totalBytes: 200_000, chunkSize: 10_000, abortAfterBytes: 50_000, abortEnding: .reset)
            }
            try await withTestHTTPServer(handler: handler) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("s.yaml", Self.catalog(server, retry: "{ limit: 3, backoff: 0.01 }"))
                let result = try await CLI.run(["call", "s/body", "--no-history", "--catalog", folder.path], state: state)
                #expect(result.status == 1)
                #expect(result.errors.contains("connectionLost"), "\(result.errors)")
                // Printed once: a retry would have printed the start again.
                #expect(server.requestCount == 1)
                #expect(result.stdout.count <= 60_000 && result.stdout.count >= 10_000, "\(result.stdout.count)")
                #expect(result.stdout == Data(TestPattern.bytes(count: result.stdout.count)))
            }
        }

        @Test func anErrorsBodyIsStillReadWholeAndMapped() async throws {
            let handler: TestHTTPServer.Handler = { _ in .json(#"{"message":"no such thing"}"#, status: .notFound) }
            try await withTestHTTPServer(handler: handler) { server in
                let folder = try TemporaryDirectory()
                let state = try TemporaryDirectory()
                try folder.write("s.yaml", Self.catalog(server))
                let result = try await CLI.run(["call", "s/body", "--no-history", "--catalog", folder.path], state: state)
                #expect(result.status == 1)
                #expect(result.output == #"{"message":"no such thing"}"#)
                #expect(result.errors.contains("notFound (HTTP 404): no such thing"), "\(result.errors)")
            }
        }
    }
}
