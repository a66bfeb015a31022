import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// A WebSocket conversation in the real binary against the mock server: the bundled chat
    /// endpoint's script greets, acknowledges, then echoes what is typed; Esc closes normally.
    @Suite(.offPool) struct ExplorerWebSocketTests {
        @Test func anEchoConversationTypedInTheExplorer() async throws {
            let mocked = try MockedCatalogs(delays: true)
            defer { mocked.remove() }
            let session = try mocked.launch("--env httpbin/local --live")
            defer { session.close() }
            try await session.waitFor("Enter sends")
            try await session.send("/", "WebSocket", "Enter")
            try await session.waitFor("GET    /chat")
            try await session.send("Enter")
            let opened = try await session.waitFor("WebSocket · chat.v1")
            #expect(opened.contains("101 Switching Protocols"))
            try await session.waitFor(#"{"type":"welcome","room":"lobby"}"#)

            // A named message (Tab) and a typed one.
            try await session.send("m")
            try await session.waitFor("Message on httpbin/chat")
            try await session.send("Enter")
            try await session.waitFor("first message received")
            try await session.send("m", "C-u", "echo me", "Enter")
            let echoed = try await session.waitFor("↓ text    echo me")
            #expect(echoed.contains("↑ text    echo me"))
            #expect(echoed.contains("↑ 2 ↓ 3"))

            // Esc closes with 1000: the server answers and the conversation is kept on screen.
            try await session.send("Escape")
            let closed = try await session.waitFor("closed by you: 1000 normal")
            #expect(closed.contains("↓ close   1000 normal"))
            try await session.send("3")
            try await session.waitFor("No error: 101 Switching Protocols")
        }
    }
}
