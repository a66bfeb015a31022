import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// The catalog's handlers and the HTTP cache in the real binary against the mock: a 429 retried
    /// after Retry-After and explained step by step, and a cached answer revalidated with a 304.
    @Suite(.offPool) struct ExplorerHandlerTests {
        @Test func a429IsRetriedAfterRetryAfterAndACachedAnswerIsServedThenRevalidated() async throws {
            let mocked = try MockedCatalogs()
            defer { mocked.remove() }
            // In STUB: a picked example is a fixture, which a live send never asks for.
            let session = try mocked.launch("--env petstore/local")
            defer { session.close() }
            try await session.waitFor("Enter sends")
            // petstore/getInventory's busy example: 429 with Retry-After: 1, retried once by its own handler.
            try await session.send("/", "inventory", "Enter")
            try await session.waitFor("GET    /store/inventory")
            try await session.send("x")
            try await session.waitFor("busy")
            try await session.send("j", "Enter")
            try await session.waitFor("200 OK")
            try await session.send("3")
            try await session.waitFor("as Retry-After said")
            try await session.waitFor("Retries        1")

            // httpbin/cache: the second send within 10 s comes from the HTTP cache.
            let cached = try mocked.launch("--env httpbin/local --live")
            defer { cached.close() }
            try await cached.waitFor("Enter sends")
            try await cached.send("/", "revalidated", "Enter")
            try await cached.waitFor("GET    /cache")
            try await cached.send("Enter")
            try await cached.waitFor("· network")
            try await cached.send("r")
            try await cached.waitFor("· cache")
        }
    }
}
