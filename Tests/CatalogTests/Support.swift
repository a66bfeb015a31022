import DispatcherCore
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Catalog

/// A catalog folder in a unique temporary directory, removed when the test ends.
final class TemporaryCatalog {
    private let folder: TemporaryDirectory

    init(_ files: [String: String] = [:]) throws {
        folder = try TemporaryDirectory(prefix: "catalog-tests")
        for (path, text) in files { try write(path, text) }
    }

    /// The folder.
    var directory: URL { folder.url }

    func write(_ path: String, _ text: String) throws {
        try folder.write(path, text)
    }

    func write(_ path: String, _ data: Data) throws {
        try folder.write(path, data)
    }

    /// The source as `--catalog cat` would give it, shown as `cat/…` in diagnostics.
    var source: CatalogSource {
        CatalogSource(origin: .option, directory: directory, displayPath: "cat")
    }

    /// Loads the folder, trusted: the test made it (trust itself is tested in `SecurityTests`).
    func load() -> CatalogSet { CatalogLoader.load(source, trust: .everything) }
}

/// Loads one catalog file given as text, shown as `cat/test.yaml`.
func loadCatalog(_ text: String, files: [String: String] = [:]) throws -> (catalog: CatalogSet, folder: TemporaryCatalog) {
    var all = files
    all["test.yaml"] = text
    let folder = try TemporaryCatalog(all)
    return (folder.load(), folder)
}

/// The one service of a catalog given as text, which must load without diagnostics.
func loadCleanService(_ text: String) throws -> Service {
    let (catalog, _) = try loadCatalog(text)
    #expect(catalog.diagnostics.isEmpty, "\(catalog.diagnostics)")
    return try #require(catalog.services.first)
}

/// Diagnostics as `line:column: severity: message` without the file, for compact expectations.
func positions(_ diagnostics: [Diagnostic]) -> [String] {
    diagnostics.map { "\($0.line):\($0.column): \($0.severity.rawValue): \($0.message)" }
}

/// A clock whose sleeps return at once, so delayed stubs and backoff cost no time.
struct InstantClock: Clock {
    struct Instant: InstantProtocol {
        var offset: Duration
        func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        func duration(to other: Instant) -> Duration { other.offset - offset }
        static func < (lhs: Instant, rhs: Instant) -> Bool { lhs.offset < rhs.offset }
    }

    var now: Instant { Instant(offset: .zero) }
    var minimumResolution: Duration { .zero }
    func sleep(until deadline: Instant, tolerance: Duration?) async throws {
        try Task.checkCancellation()
    }
}

extension DispatchClock {
    /// Sleeps cost nothing.
    static let instant = DispatchClock(InstantClock())
}

/// A transport that answers from a closure and records what it was sent.
final class RecordingTransport: Transport {
    private let sent = Mutex<[Request]>([])
    private let answer: @Sendable (Request) throws(TransportError) -> Response

    init(answer: @escaping @Sendable (Request) throws(TransportError) -> Response) {
        self.answer = answer
    }

    var requests: [Request] { sent.withLock { $0 } }

    func send(_ request: Request) async throws(TransportError) -> Response {
        sent.withLock { $0.append(request) }
        return try answer(request)
    }
}

/// Values appended from any thread.
final class Collected<Element: Sendable>: Sendable {
    private let items = Mutex<[Element]>([])

    func append(_ item: Element) { items.withLock { $0.append(item) } }
    var all: [Element] { items.withLock { $0 } }
}

extension Headers {
    /// `Content-Type: application/json`, as a fixture implies it.
    static let json = Headers([("Content-Type", "application/json")], origin: .server)
}

extension Response {
    /// A JSON response.
    static func json(_ status: Int, _ text: String) -> Response {
        Response(status: status, headers: ["Content-Type": "application/json"], body: Data(text.utf8))
    }
}
