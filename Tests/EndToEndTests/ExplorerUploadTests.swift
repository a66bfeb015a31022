import Foundation
import TestSupport
import Testing
import TestTraits

extension EndToEnd {
    /// The bundled multipart upload in the real binary: echoed by its stub, then sent live to the mock
    /// with its file read as it is sent, described in the Request tab, and echoed by the mock.
    @Suite(.offPool) struct ExplorerUploadTests {
        @Test func theBundledMultipartUploadGoesInStubAndLiveMode() async throws {
            let mocked = try MockedCatalogs()
            defer { mocked.remove() }
            let session = try mocked.launch("--env httpbin/local")
            defer { session.close() }
            try await session.waitFor("Enter sends")
            try await session.send("/", "Multipart", "Enter")
            try await session.waitFor("POST   /upload")
            try await session.send("Enter")
            try await session.waitFor("201 Created")
            try await session.waitFor("stub")
            // Stub mode echoes the parts too, made from the request in process.
            try await session.send("1")
            try await session.waitFor(#""filename": "photo.png""#)
            try await session.send("4")
            try await session.waitFor("<multipart/form-data: title=Holiday 2026, photo=@photo.png (70 B)>")
            try await session.send("s", "Enter")
            try await session.waitFor("network")
            try await session.waitFor("boundary=apiexplorer-")
            try await session.send("5")
            try await session.waitFor("↑ request body sent")
            // The mock echoes the parts it received (the example says echo: true).
            try await session.send("1")
            try await session.waitFor(#""contentType": "image/png""#)
            try await session.waitFor(#""title": "Holiday 2026""#)
        }
    }
}
