import DispatcherCore
import Foundation
import Synchronization
import TestSupport
import Testing

import Catalog

/// A catalog folder in a unique temporary directory, removed when the test ends.
package final class TemporaryCatalog {
    private let folder: TemporaryDirectory

    package init(_ files: [String: String] = [:]) throws {
        folder = try TemporaryDirectory(prefix: "catalog-tests")
        for (path, text) in files { try write(path, text) }
    }

    /// The folder.
    package var directory: URL { folder.url }

    package func write(_ path: String, _ text: String) throws {
        try folder.write(path, text)
    }

    package func write(_ path: String, _ data: Data) throws {
        try folder.write(path, data)
    }

    /// The source as `--catalog cat` would give it, shown as `cat/…` in diagnostics.
    package var source: CatalogSource {
        CatalogSource(origin: .option, directory: directory, displayPath: "cat")
    }

    /// Loads the folder, trusted: the test made it (trust itself is tested in `SecurityTests`).
    package func load() -> CatalogSet { CatalogLoader.load(source, trust: .everything) }
}

/// Loads one catalog file given as text, shown as `cat/test.yaml`.
package func loadCatalog(_ text: String, files: [String: String] = [:]) throws -> (catalog: CatalogSet, folder: TemporaryCatalog) {
    var all = files
    all["test.yaml"] = text
    let folder = try TemporaryCatalog(all)
    return (folder.load(), folder)
}

/// The one service of a catalog given as text, which must load without diagnostics.
package func loadCleanService(_ text: String) throws -> Service {
    let (catalog, _) = try loadCatalog(text)
    #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
    return try #require(catalog.services.first)
}

/// Diagnostics as `line:column: severity: message` without the file, for compact expectations.
package func positions(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.map { "\($0.line):\($0.column): \($0.severity.rawValue): \($0.message)" }
}

/// A clock whose sleeps return at once, so delayed stubs and backoff cost no time.
package struct InstantClock: Clock {
    package init() {}

    package struct Instant: InstantProtocol {
        package var offset: Duration
        package func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        package func duration(to other: Instant) -> Duration { other.offset - offset }
        package static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    package var now: Instant { Instant(offset: .zero) }
    package var minimumResolution: Duration { .zero }
    package func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
    }
}

extension DispatchClock {
    /// Sleeps cost nothing.
    package static let instant = DispatchClock(InstantClock())
}

/// A transport that answers from a closure and records what it was sent.
package final class RecordingTransport: Transport {
    private let sent = Mutex<[Request]>([])
    private let answer: @Sendable (Request) throws(TransportError) -> Response

    package init(answer: @escaping @Sendable (Request) throws(TransportError) -> Response) {
        self.answer = answer
    }

    package var requests: [Request] { sent.withLock { $0 } }

    package func send(_ request: Request) async throws(TransportError) -> Response {
        sent.withLock { $0.append(request) }
        return try answer(request)
    }
}

/// Values appended from any thread.
package final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    package init() {}

    package func append(_ item: Element) { items.withLock { $0.append(item) } }
    package var all: [Element] { items.withLock { $0 } }
}

extension Headers {
    /// `Content-Type: application/json`, as a fixture implies it.
    package static let json = Headers([("Content-Type", "application/json")], origin: .server)
}

extension Response {
    /// A JSON response.
    package static func json(_ status: Int, _ text: String) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }
}
