import Catalog
import CatalogTestSupport
import DispatcherCore
import Foundation
@testable import StateStore
import Sessions
import TestSupport
import Testing
import TestTraits

/// The history: bounded, newest kept, owner-only, secrets masked, safe with concurrent writers.
@Suite(.offPool) struct HistoryStoreTests {
    /// A stubbed call of the shop catalog.
    func outcome(_ endpoint: String = "shop/getItem", example: String? = nil, values: [String: String] = [:]) async throws -> CallOutcome {
        let folder = try TemporaryDirectory()
        try ShopCatalog.write(into: folder)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        let selection = try EndpointSelection.resolve(endpoint, environment: nil, in: catalog)
        return await EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
            .call(selection, mode: .stub, example: example, values: values)
    }

    @Test func indexLinesAreTheNonEmptyLinesBetweenNewlines() {
        #expect(HistoryStore.lines(of: Data()).isEmpty)
        #expect(HistoryStore.lines(of: Data("\n\n".utf8)).isEmpty)
        #expect(HistoryStore.lines(of: Data("a\n\nbc\r\nd".utf8)) == [Data("a".utf8), Data("bc\r".utf8), Data("d".utf8)])
        // The same as splitting, over random bytes where newlines are frequent.
        var state: UInt64 = 0x1157
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        for _ in 0..<500 {
            let bytes = (0..<next() % 41).map { _ in [UInt8(0x0A), 0x61, 0x7B, 0x22, 0xFF][next() % 5] }
            let expected = bytes.split(separator: 0x0A).map { Data($0) }
            #expect(HistoryStore.lines(of: Data(bytes)) == expected)
        }
    }

    /// What the general reader makes of an index line, and what the fast one does.
    static func bothReadings(_ line: String) -> (general: HistorySummary?, fast: HistorySummary?) {
        let bytes = Array(line.utf8)
        return (HistoryStore.summary(Data(bytes)), bytes.withUnsafeBytes { HistorySummary(indexLine: $0) })
    }

    @Test func indexLinesReadStraightFromTheirBytesAreWhatTheGeneralReaderReads() throws {
        var state: UInt64 = 0xB17E5
        func next(_ bound: Int) -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33) % bound
        }
        // Mostly plain ASCII, as requests are; one field in ten needs escapes or is other text.
        let plainTexts = ["a", "get pet", "https://x.test/p?q=1&r=2", "", "50%", "{x:1}"]
        let otherTexts = ["café", "say \"hi\"", "tab\there", "é\u{301}", "back\\slash"]
        func text() -> String { next(10) == 0 ? otherTexts[next(otherTexts.count)] : plainTexts[next(plainTexts.count)] }
        var plain = 0
        for index in 0..<400 {
            let call = EndpointCall(
                endpoint: EndpointKey(service: plainTexts[next(4)] + "s", endpoint: text() + "e"), catalog: CatalogID(rawValue: "/c/" + text() + ".yaml"),
                environment: text(), mode: next(2) == 0 ? .stub : .live, example: next(3) == 0 ? text() : nil,
                values: Dictionary((0..<next(4)).map { _ in ("k\(next(5))" + plainTexts[next(3)], text()) }, uniquingKeysWith: { $1 }))
            let summary = HistorySummary(
                id: "ID-\(index)", date: Date(timeIntervalSince1970: 1_700_000_000 + Double(next(1_000_000)) / 1000), call: call,
                method: ["GET", "POST"][next(2)], url: text(), status: next(4) == 0 ? nil : [200, 404, -1, 0, 999_999][next(5)],
                statusText: next(3) == 0 ? nil : text(), errorKind: next(4) == 0 ? "notFound" : nil)
            let line = summary.json.compactText
            let (general, fast) = Self.bothReadings(line)
            #expect(general != nil)
            #expect(fast == nil || fast == general, "\(line)")
            if fast != nil { plain += 1 }
            // Whatever a damaged line makes, the fast reading is the general one or none.
            var bytes = Array(line.utf8)
            let position = next(bytes.count)
            let damage = Array("{}\":,0 -.e\\x".utf8)
            if next(2) == 0 { bytes.remove(at: position) } else { bytes.insert(damage[next(damage.count)], at: position) }
            let damaged = String(decoding: bytes, as: UTF8.self)
            let (damagedGeneral, damagedFast) = Self.bothReadings(damaged)
            #expect(damagedFast == nil || damagedFast == damagedGeneral, "\(damaged)")
        }
        #expect(plain > 100, "most lines are plain ASCII and read the fast way")

        // The plain case, and what is left to the general reader, each answered alike.
        let line = #"{"date":"2026-11-26T18:48:07.195Z","endpoint":"get","environment":"local","id":"A","method":"GET","mode":"stub","service":"httpbin","status":200,"statusText":"OK","url":"http://h/get","values":{"page":"1"}}"#
        #expect(Self.bothReadings(line).fast != nil && Self.bothReadings(line).fast == Self.bothReadings(line).general)
        for variant in [
            line.replacingOccurrences(of: #""status":200"#, with: #""status":200.0"#),
            line.replacingOccurrences(of: #""status":200"#, with: #""status":0200"#),
            line.replacingOccurrences(of: #""status":200"#, with: #""status":99999999999999999999"#),
            line.replacingOccurrences(of: #""id":"A""#, with: #""id":"A""#),
            line.replacingOccurrences(of: #""id":"A","#, with: #""id": "A", "#),
            line.replacingOccurrences(of: #""id":"A","#, with: #""id":"A","extra":[1],"#),
            line.replacingOccurrences(of: #""id":"A","#, with: #""id":"A","example":null,"#),
            line.replacingOccurrences(of: #""id":"A","#, with: #""id":"A","id":"B","#),
            line.replacingOccurrences(of: #""mode":"stub""#, with: #""mode":"neither""#),
            line + "\r", line + " x", "{}",
        ] {
            let (general, fast) = Self.bothReadings(variant)
            #expect(fast == nil || fast == general, "\(variant)")
        }
        #expect(Self.bothReadings(line.replacingOccurrences(of: #""id":"A","#, with: #""id":"A","id":"B","#)).fast?.id == "B", "a later duplicate wins, as in the general reader")
        for key in IndexLineReader.Key.allCases {
            let name = "\(key.name)"
            #expect(Array(name.utf8).withUnsafeBytes { IndexLineReader.Key($0) } == key)
            #expect(Array((name + "s").utf8).withUnsafeBytes { IndexLineReader.Key($0) } == nil)
            #expect(Array(("x" + name.dropFirst()).utf8).withUnsafeBytes { IndexLineReader.Key($0) } == nil)
        }
    }

    @Test func appendsAndReadsBackInOrder() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url)
        #expect(try store.entries().isEmpty)
        let first = try await outcome().historyEntry
        let second = try await outcome(example: "missing").historyEntry
        try store.append(first)
        try store.append(second)
        let entries = try store.entries()
        #expect(entries.map(\.id) == [first.id, second.id])
        #expect(entries[1].error?.kind == "notFound")
        #expect(entries[1].response?.status == 404)
        #expect(try store.entries(limit: 1).map(\.id) == [second.id])
        #expect(store.entry(id: first.id)?.request == first.request)
    }

    @Test func entryFilesAreNamedForTheirIDMadeSafe() {
        #expect(HistoryStore.entryFileName(forID: "7C1A0E52-4C1B-4D2B-9C1E-2F1A7B3C9D10") == "7C1A0E52-4C1B-4D2B-9C1E-2F1A7B3C9D10")
        #expect(HistoryStore.entryFileName(forID: "plain_id-7") == "plain_id-7")
        // Not a UUID (never written by apiexplorer, but a hand-edited index may hold one): as before.
        #expect(HistoryStore.entryFileName(forID: "../etc/passwd") == "___etc_passwd")
        #expect(HistoryStore.entryFileName(forID: "café 1/2") == "café_1_2")
    }

    @Test func fileIsReadableByTheOwnerOnly() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url.appendingPathComponent("nested/apiexplorer"))
        try store.append(try await outcome().historyEntry)
        let attributes = try FileManager.default.attributesOfItem(atPath: store.fileURL.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let folder = try FileManager.default.attributesOfItem(atPath: store.directory.path)
        #expect((folder[.posixPermissions] as? NSNumber)?.intValue == 0o700)
    }

    @Test func keepsOnlyTheNewestEntries() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url, limit: 3)
        let template = try await outcome().historyEntry
        var ids: [String] = []
        for index in 0..<7 {
            var entry = template
            entry.id = "entry-\(index)"
            ids.append(entry.id)
            try store.append(entry)
        }
        #expect(try store.entries().map(\.id) == Array(ids.suffix(3)))
        // Trimmed once it grew a tenth (at least one) past the limit: 5 → 3, 6 → 4, 7 → 5 → 3.
        let lines = try String(contentsOf: store.fileURL, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(try store.entries(limit: 10).count == 3)
        // The compaction left no temporary file behind, and removed the dropped entries' files.
        #expect(state.fileNames() == [".history.lock", "history", "history.jsonl"])
        let kept = try FileManager.default.contentsOfDirectory(atPath: store.entriesURL.path).map { String($0.prefix { $0 != "." }) }
        #expect(Set(kept) == Set(ids.suffix(3)))
    }

    @Test func secretsAreMaskedInTheFile() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url)
        try store.append(try await outcome(values: ["itemId": "7", "apiToken": "runtime-secret-value"]).historyEntry)
        // Every file the history writes: the index and each entry's record and bodies.
        let files = [store.fileURL] + (try FileManager.default.contentsOfDirectory(atPath: store.entriesURL.path))
            .map { store.entriesURL.appendingPathComponent($0) }
        let text = try files.map { try String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        #expect(!text.contains("shop-secret-token"))
        #expect(!text.contains("runtime-secret-value"))
        #expect(text.contains("Bearer ••••"))
        let entry = try #require(try store.entries().first)
        #expect(entry.values["apiToken"] == Redactor.mask)
        #expect(entry.values["itemId"] == "7")
        // A masked value is not replayed; the rest is.
        let catalog = try #require(entry.catalog)
        #expect(entry.call == EndpointCall(
            endpoint: EndpointKey(service: "shop", endpoint: "getItem"), catalog: catalog, environment: "local", mode: .stub, example: nil,
            values: ["itemId": "7"]))
    }

    @Test func aRemovedHistoryStartsAgain() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url, limit: 2)
        let entry = try await outcome().historyEntry
        for _ in 0..<3 { try store.append(entry) }
        try FileManager.default.removeItem(at: store.fileURL)
        try store.append(entry)
        #expect(try store.entries().count == 1)
        try store.removeAll()
        #expect(try store.entries().isEmpty)
        try store.append(entry)
        #expect(try store.entries().count == 1)
    }

    @Test func damagedLinesAreSkipped() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url)
        let entry = try await outcome().historyEntry
        try store.append(entry)
        let handle = try FileHandle(forWritingTo: store.fileURL)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data("{not json\n".utf8))
        try handle.close()
        try store.append(entry)
        #expect(try store.entries().count == 2)
    }

    @Test func concurrentWritersLoseNothing() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url, limit: 1_000)
        let entry = try await outcome().historyEntry
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<40 {
                group.addTask {
                    var copy = entry
                    copy.id = "writer-\(index)"
                    try store.append(copy)
                }
            }
            try await group.waitForAll()
        }
        #expect(Set(try store.entries().map(\.id)).count == 40)
    }

    @Test func replaySendsTheSameRequest() async throws {
        let folder = try TemporaryDirectory()
        try ShopCatalog.write(into: folder)
        let catalog = CatalogLoader.load(folder.catalogSource, trust: .everything)
        let caller = EndpointCaller(catalog: catalog, secrets: SecretStore(processEnvironment: [:]), transport: nil)
        let selection = try EndpointSelection.resolve("shop/getItem", environment: "local", in: catalog)
        let first = await caller.call(selection, mode: .stub, example: "missing", values: ["itemId": "9"]).historyEntry
        let again = try await caller.replay(first.call).historyEntry
        #expect(again.request.url == first.request.url)
        #expect(again.request.url.hasSuffix("/items/9"))
        #expect(again.error?.kind == "notFound")
    }

    @Test func bodiesAreKeptBesideTheIndexAsBytes() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url)
        var entry = try await outcome().historyEntry
        let binary = Data((0..<200_000).map { UInt8(truncatingIfNeeded: $0 * 7) })
        entry.response?.body = BodyRecord(binary, contentType: "application/octet-stream", redactor: nil, limit: HistoryEntry.defaultBodyLimit)
        try store.append(entry)
        // The index holds one short line: no headers, no bodies.
        let index = try Data(contentsOf: store.fileURL)
        #expect(index.count < 600)
        // The body is kept as its bytes (cut at the limit), not as escaped text.
        let response = store.entriesURL.appendingPathComponent("\(entry.id).response")
        #expect(try Data(contentsOf: response) == binary.prefix(HistoryEntry.defaultBodyLimit))
        let read = try #require(store.entry(id: entry.id))
        #expect(read.response?.body.data == binary.prefix(HistoryEntry.defaultBodyLimit))
        #expect(read.response?.body.truncated == true)
        #expect(read.response?.body.size == binary.count)
        #expect(read.request == entry.request)
    }

    @Test func theListReadsTheIndexAlone() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url)
        let entry = try await outcome(example: "missing", values: ["itemId": "4"]).historyEntry
        try store.append(entry)
        try FileManager.default.removeItem(at: store.entriesURL)
        let summary = try #require(store.summaries().first)
        #expect(summary.id == entry.id)
        #expect(summary.call == entry.call)
        #expect(summary.outcome == "404 notFound")
        #expect(summary.url.hasSuffix("/items/4"))
        #expect(try store.entries().isEmpty, "whole entries need their records")
    }

    @Test func historyOfTheEarlierFormatIsStillRead() async throws {
        let state = try TemporaryDirectory()
        let store = HistoryStore(directory: state.url)
        let entry = try await outcome().historyEntry
        // Earlier versions wrote each whole entry on its index line.
        try state.write(HistoryStore.fileName, entry.jsonText(pretty: false) + "\n")
        #expect(store.summaries().map(\.id) == [entry.id])
        let read = try #require(store.entry(id: entry.id))
        #expect(read.request == entry.request && read.response == entry.response && read.call == entry.call)
        let next = try await outcome(example: "missing").historyEntry
        try store.append(next)
        #expect(try store.entries().map(\.id) == [entry.id, next.id])
    }

    @Test func stateDirectoryFollowsXDG() {
        #expect(StateDirectory.url(environment: ["XDG_STATE_HOME": "/x/state", "HOME": "/home/a"]).path == "/x/state/apiexplorer")
        #expect(StateDirectory.url(environment: ["XDG_STATE_HOME": "/x/state/", "HOME": "/home/a"]).path == "/x/state/apiexplorer")
        #expect(StateDirectory.url(environment: ["HOME": "/home/a/"]).path == "/home/a/.local/state/apiexplorer")
        #expect(StateDirectory.url(environment: ["XDG_STATE_HOME": "relative", "HOME": "/home/a"]).path == "/home/a/.local/state/apiexplorer")
        #expect(StateDirectory.url(environment: ["HOME": "/home/a"]).path == "/home/a/.local/state/apiexplorer")
    }

    @Test func bodiesAreCutAtTheLimitAndBinaryIsBase64() {
        let text = BodyRecord(Data(repeating: UInt8(ascii: "a"), count: 10), contentType: "text/plain", redactor: nil, limit: 4)
        #expect(text.text == "aaaa" && text.truncated && text.size == 10 && text.encoding == .utf8)
        let binary = BodyRecord(Data([0xFF, 0x00, 0xFE]), contentType: nil, redactor: .standard, limit: nil)
        #expect(binary.encoding == .base64 && binary.data == Data([0xFF, 0x00, 0xFE]))
        let secret = BodyRecord(Data(#"{"access_token":"abc123456"}"#.utf8), contentType: "application/json", redactor: .standard, limit: nil)
        #expect(!secret.text.contains("abc123456"))
    }
}

@Suite(.offPool) struct HistoryTimestampTests {
    @Test func timestampsReadBackExactlyByHandAndByTheGeneralParser() {
        for seconds in [0.0, 951_782_400.5, 1_700_000_000.123, 4_102_444_800.999, -86_400.25] {
            let date = Date(timeIntervalSince1970: seconds)
            let text = HistoryStore.timestamp(date)
            let general = try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text)
            #expect(HistoryStore.timestampDate(text) == general, "\(text)")
            #expect(HistoryStore.date(from: text).map { abs($0.timeIntervalSince(date)) < 0.001 } == true, "\(text)")
        }
        #expect(HistoryStore.timestampDate("2024-02-29T23:59:59.000Z")?.timeIntervalSince1970 == 1_709_251_199)
        #expect(HistoryStore.timestampDate("2024-13-01T00:00:00.000Z") == nil)
        #expect(HistoryStore.timestampDate("1500-03-01T00:00:00.000Z") == nil, "the general parser reads dates of the Julian calendar")
        #expect(HistoryStore.date(from: "1500-03-01T00:00:00.000Z").map(HistoryStore.timestamp) == "1500-03-01T00:00:00.000Z")
        #expect(HistoryStore.date(from: "2024-02-29T23:59:59Z") != nil, "without fractions, the general parser reads it")
    }

    @Test func timestampsAreWrittenAsTheISO8601FormatStyleWritesThem() {
        let style = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        var generator = SystemRandomNumberGenerator()
        // Leap days, year and century ends, before 1970, sub-millisecond fractions, then random instants.
        var instants: [Double] = [
            0, -0.0005, -1, -86_400.25, 951_782_399.9999, 951_782_400.5, 1_709_251_199.9996, 1_700_000_000.123,
            4_102_444_800.999, 253_402_300_799.999, -30_610_224_000, -62_135_596_800.5,
        ]
        for _ in 0..<2_000 { instants.append(Double.random(in: -30_000_000_000...250_000_000_000, using: &generator)) }
        for seconds in instants {
            let date = Date(timeIntervalSince1970: seconds)
            #expect(HistoryStore.timestamp(date) == date.formatted(style), "\(seconds)")
        }
    }
}

extension CallOutcome {
    /// The history entry of the call, as `apiexplorer call` keeps it.
    var historyEntry: HistoryEntry { HistoryEntry(self, date: Date()) }
}
