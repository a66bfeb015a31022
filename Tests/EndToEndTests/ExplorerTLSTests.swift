import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// README's tour, TLS: the bundled httpbin's tls environments against `apiexplorer mock --tls`:
    /// a pin mismatch names the key the server presented; the pinned environment answers; without
    /// the mock's CA the certificate is not trusted.
    @Suite(.offPool) struct ExplorerTLSTests {
        @Test func everyTLSOutcomeInTheExplorer() async throws {
            let mocked = try MockedCatalogs()
            defer { mocked.remove() }
            let session = try mocked.launch("--env httpbin/wrongPin --live")
            defer { session.close() }
            try await session.waitFor("Enter sends")
            try await session.send("/", "A UUID", "Enter")
            try await session.waitFor("GET    /uuid")
            try await session.send("Enter")
            try await session.waitFor("pinningFailed")
            try await session.send("3")
            try await session.waitFor("Server pin     sha256/9V2bSKVe+q3BuPV5g4lTjfUWTpfo3/JU5/J0R/ifacY=")

            // The environment that pins the mock's key and trusts its CA.
            try await session.send("E")
            try await session.waitFor("httpbin · tls")
            try await session.send("Enter")
            try await session.waitFor("No error: 200 OK")

            // Without the mock's CA.
            try await session.send("e", "e")
            try await session.waitFor("httpbin · untrusted")
            try await session.send("Enter")
            try await session.waitFor("tlsFailure")
        }
    }
}
