import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// Streams in the real binary against the mock server: Server-Sent Events listed one by one
    /// while the stream is open, and closed with Esc keeping what arrived.
    @Suite(.offPool) struct ExplorerStreamTests {
        @Test func eventsAppearWhileTheStreamIsOpenAndEscClosesIt() async throws {
            let mocked = try MockedCatalogs(delays: true)
            defer { mocked.remove() }
            let session = try mocked.launch("--env httpbin/local --live")
            defer { session.close() }
            try await session.waitFor("Enter sends")
            try await session.send("/", "Server-Sent", "Enter")
            try await session.waitFor("GET    /stream")
            try await session.send("Enter")
            // The mock sends an event every 30 ms: the first shows while the last is 3 s away.
            let early = try await session.waitFor("#1 ")
            #expect(early.contains("open"))
            #expect(early.contains("streaming"))
            #expect(!early.contains("#100"))
            let ended = try await session.waitFor("#100")
            #expect(ended.contains("done"))
            try await session.waitFor("ended")
            try await session.waitFor("100 events")

            // Sent again and closed with Esc after a few events: what arrived stays, as a response.
            try await session.send("r")
            try await session.waitFor("#5 ")
            try await session.send("Escape")
            let closed = try await session.waitFor("closed by you")
            #expect(!closed.contains("#100"))
            #expect(!closed.contains("cancelled"))
            try await session.send("3")
            try await session.waitFor("No error: 200 OK")
            try await session.waitFor("The stream was closed by you after")
        }
    }
}
