import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// gRPC in the real binary: the bundled routeguide service browsed, a unary call sent live to
    /// `apiexplorer mock`'s gRPC server (started here on a free port), the mapped error of a method
    /// whose fixture is a status read in the Errors tab, and the Edit tab's check of a message.
    @Suite(.offPool) struct ExplorerRPCTests {
        @Test func aUnaryCallGoesLiveToTheMockAndAStatusIsAMappedError() async throws {
            let mocked = try MockedCatalogs()
            defer { mocked.remove() }
            let session = try mocked.launch("--env routeguide/local --live")
            defer { session.close() }
            try await session.waitFor("Enter sends")
            try await session.waitFor("/routeguide.RouteGuide/GetFeature")
            // The first method, live: the mock's gRPC server answers with the fixture's message.
            try await session.send("Enter")
            let answered = try await session.waitFor("Berkshire Valley Management Area Trail")
            #expect(answered.contains("200"), "\(answered)")
            #expect(answered.contains("LIVE"), "\(answered)")
            // Headers tab: the response metadata and the trailers, grpc-status among them.
            try await session.send("2")
            try await session.waitFor("x-served-by")
            try await session.waitFor("x-features-scanned")
            try await session.waitFor("grpc-status")
            // RenameFeature's fixture is a status: PERMISSION_DENIED is forbidden, its ErrorInfo read.
            try await session.send("/", "RenameFeature", "Enter")
            try await session.waitFor("routeguide › renameFeature")
            try await session.send("Enter")
            try await session.waitFor("403")
            try await session.send("3")
            try await session.waitFor("PERMISSION_DENIED: features are read-only here")
            try await session.waitFor("ErrorInfo: READ_ONLY (domain routeguide.example)")
            try await session.waitFor("grpc-status PERMISSION_DENIED")
            // The Edit tab checks the request message against the descriptors.
            try await session.send("6")
            try await session.waitFor("Message  routeguide.RenameRequest")
            try await session.waitFor("✓ the message fits routeguide.RenameRequest")
            try await session.send("q")
        }
    }
}
