import Foundation
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct SearchTests {
    let body = document(#"{"a":"Apple","b":["apple pie","APPLE"],"c":{"d":"banana apple"}}"#)
    // 0 {  1 "a": "Apple",  2 "b": [  3 "apple pie",  4 "APPLE"  5 ],  6 "c": {  7 "d": "banana apple"  8 }  9 }

    @Test func smartCaseDecidesSensitivity() {
        #expect(!BodySearchQuery("apple").isCaseSensitive)
        #expect(BodySearchQuery("Apple").isCaseSensitive)
        #expect(BodySearchQuery("Apple", caseSensitivity: .insensitive).isCaseSensitive == false)
        #expect(BodySearchQuery("apple", caseSensitivity: .sensitive).isCaseSensitive)
        #expect(body.countMatches(for: BodySearchQuery("apple")) == 4)
        #expect(body.countMatches(for: BodySearchQuery("Apple")) == 1)
        #expect(body.countMatches(for: BodySearchQuery("APPLE")) == 1)
        #expect(body.countMatches(for: BodySearchQuery("pie")) == 1)
        #expect(body.countMatches(for: BodySearchQuery("zebra")) == 0)
        #expect(body.countMatches(for: BodySearchQuery("")) == 0)
    }

    @Test func nextAndPreviousMoveFromTheCursorAndWrap() {
        var state = wideState()
        #expect(state.search(for: BodySearchQuery("apple"), in: body) == .found(wrapped: false))
        #expect(state.cursorLine == 1)
        #expect(state.findNext(in: body) == .found(wrapped: false))
        #expect(state.cursorLine == 3)
        #expect(state.findNext(in: body) == .found(wrapped: false))
        #expect(state.cursorLine == 4)
        #expect(state.findNext(in: body) == .found(wrapped: false))
        #expect(state.cursorLine == 7)
        #expect(state.findNext(in: body) == .found(wrapped: true))
        #expect(state.cursorLine == 1)
        #expect(state.findPrevious(in: body) == .found(wrapped: true))
        #expect(state.cursorLine == 7)
        #expect(state.findPrevious(in: body) == .found(wrapped: false))
        #expect(state.cursorLine == 4)
        // After moving the cursor away, next searches from the cursor line.
        state.moveCursor(toLine: 6, in: body)
        #expect(state.findNext(in: body) == .found(wrapped: false))
        #expect(state.cursorLine == 7)
        var none = wideState()
        #expect(none.search(for: BodySearchQuery("zebra"), in: body) == .notFound)
        #expect(none.search?.currentMatch == nil)
    }

    @Test func countingRecordsMatchesSoNextAgreesWithScanning() async {
        let query = BodySearchQuery("apple")
        var scanned = wideState()
        scanned.search(for: query, in: body)
        var scannedLines: [Int] = []
        for _ in 0..<6 {
            scanned.findNext(in: body)
            scannedLines.append(scanned.cursorLine)
        }
        var counts: [BodyMatchCount] = []
        for await count in body.matchCounts(for: query, chunkSize: 16) { counts.append(count) }
        #expect(counts.last == BodyMatchCount(count: 4, isComplete: true, fraction: 1))
        #expect(counts.dropLast().allSatisfy { !$0.isComplete })
        #expect(counts.count > 2)
        #expect(counts.map(\.count) == counts.map(\.count).sorted())
        var cached = wideState()
        cached.search(for: query, in: body)
        cached.updateMatchCount(counts[counts.count - 1], for: query)
        #expect(cached.search?.count?.description == "4")
        var cachedLines: [Int] = []
        for _ in 0..<6 {
            cached.findNext(in: body)
            cachedLines.append(cached.cursorLine)
        }
        #expect(cachedLines == scannedLines)
        let current = cached.search?.currentMatch?.lowerBound ?? -1
        #expect(body.matchNumber(at: current, for: query) == 3)
        #expect(BodyMatchCount(count: 1234, isComplete: false, fraction: 0.5).description == "≥ 1,234…")
    }

    @Test func highlightsMatchesAndTheCurrentOne() {
        var state = wideState()
        state.search(for: BodySearchQuery("apple"), in: body)
        state.findNext(in: body)  // "apple pie"
        let rows = body.renderVisible(state)
        #expect(rows[3].runs == [
            BodyTextRun("    ", .plain), BodyTextRun("\"", .string), BodyTextRun("apple", .currentMatch),
            BodyTextRun(" pie\"", .string), BodyTextRun(",", .punctuation),
        ])
        #expect(rows[1].runs.contains(BodyTextRun("Apple", .match)))
        #expect(rows[4].runs.contains(BodyTextRun("APPLE", .match)))
        #expect(!rows[0].runs.contains { $0.role == .match })
    }

    @Test func revealingAMatchUnfoldsWhatHidesIt() {
        var state = wideState()
        state.foldAll(in: body)
        #expect(screen(body, state).contains("\"c\": { … } 1 key"))
        state.moveCursor(toLine: 6, in: body)
        state.search(for: BodySearchQuery("banana"), in: body)
        #expect(state.cursorLine == 7)
        #expect(!state.isFolded(line: 6, in: body))
        #expect(state.isFolded(line: 2, in: body))
    }

    @Test func revealingAMatchFarRightScrollsSideways() {
        let long = document("[\"" + String(repeating: "x", count: 500) + "needle\"]")
        var state = wideState(height: 5, width: 40)
        state.search(for: BodySearchQuery("needle"), in: long)
        #expect(state.cursorLine == 1)
        let row = long.renderVisible(state)[1]
        #expect(row.runs.contains(BodyTextRun("needle", .currentMatch)))
        #expect(state.horizontalOffset > 400)
    }

    @Test func findsInTextAndHexBodies() {
        let text = document("one\ntwo needle\nthree\n", contentType: "text/plain")
        var state = wideState()
        state.search(for: BodySearchQuery("NEEDLE", caseSensitivity: .insensitive), in: text)
        #expect(state.cursorLine == 1)
        let binary = BodyDocument(data: Data([0, 1, 2] + Array("hello world, hello".utf8) + [0, 0]), contentType: nil)
        #expect(binary.kind == .binary)
        var hex = wideState()
        hex.search(for: BodySearchQuery("hello"), in: binary)
        #expect(binary.countMatches(for: BodySearchQuery("hello")) == 2)
        hex.findNext(in: binary)
        #expect(hex.cursorLine == 1)
        let rows = binary.renderVisible(hex)
        #expect(rows[1].runs.contains { $0.role == .currentMatch })
        #expect(rows[0].runs.contains(BodyTextRun("68 65 6c 6c 6f", .match)))
        // A match across two hex rows shows on both.
        let straddling = BodyDocument(data: Data([0] + Array(repeating: 0x2E, count: 13) + Array("hello".utf8)), contentType: nil)
        var across = wideState()
        across.search(for: BodySearchQuery("hello"), in: straddling)
        let split = straddling.renderVisible(across)
        #expect(split[0].runs.contains(BodyTextRun("68 65", .currentMatch)))
        #expect(split[0].runs.contains(BodyTextRun("he", .currentMatch)))
        #expect(split[1].runs.contains(BodyTextRun("6c 6c 6f", .currentMatch)))
        #expect(split[1].runs.contains(BodyTextRun("llo", .currentMatch)))
    }
}

@Suite(.offPool) struct JSONSearchScopeTests {
    /// Pretty-printed on the wire: its own indentation is not what the view shows.
    let body = document("{\n    \"a\": \"x y\",\n    \"b\" : [ 1 , 2 ]\n}")

    @Test func formattingWhitespaceOfTheOriginalIsNotAMatch() {
        #expect(body.countMatches(for: BodySearchQuery(" ")) == 1)
        #expect(body.countMatches(for: BodySearchQuery(" y")) == 1)
        var state = wideState()
        #expect(state.search(for: BodySearchQuery(" "), in: body) == .found(wrapped: false))
        #expect(state.cursorLine == 1)
        #expect(state.findNext(in: body) == .found(wrapped: true))
        #expect(state.cursorLine == 1)
    }

    @Test func punctuationShownIsPunctuationFound() {
        #expect(body.countMatches(for: BodySearchQuery(",")) == 2)
        var state = wideState()
        state.search(for: BodySearchQuery(":"), in: body)
        let rows = body.renderVisible(state)
        #expect(rows[1].runs.contains(BodyTextRun(":", .currentMatch)))
        #expect(rows[2].runs.contains(BodyTextRun(":", .match)))
        state.search(for: BodySearchQuery(","), in: body)
        #expect(body.renderVisible(state)[3].runs.contains(BodyTextRun(",", .match)))
    }
}

/// A search typed into a large body scans a bounded number of bytes per key; a match further
/// away is found by a cancellable scan off the UI thread and shown when it arrives.
@Suite(.offPool) struct BoundedSearchTests {
    /// ~600 kB of items without a 'z', then one "zq" near the end.
    static let body: BodyDocument = {
        let items = (0..<30_000).map { #"{"id":\#($0),"v":"abc"}"# }.joined(separator: ",")
        return document("[" + items + #",{"id":-1,"v":"zq"}]"#)
    }()

    @Test func aKeyScansAtMostItsLimitAndSaysTheMatchIsPending() throws {
        var state = wideState(height: 40)
        let query = BodySearchQuery("zq")
        #expect(state.search(for: query, in: Self.body, scanning: 64 << 10) == .pending)
        #expect(state.cursorLine == 0 && state.search?.currentMatch == nil)
        // The whole body in one scan finds it, as the background scan does.
        let scan = Self.body.firstMatch(of: query, from: 0, chunkSize: 32 << 10)
        guard case .found(let offset, wrapped: false) = scan else { Issue.record("\(scan)"); return }
        #expect(state.showMatch(scan, for: query, in: Self.body) == .found(wrapped: false))
        #expect(state.search?.currentMatch == offset..<offset + 2)
        #expect(state.cursorLine == Self.body.line(containingOffset: offset) && state.cursorLine > 30_000)
        // Within the limit, it is found on the spot; an absent text is known absent only after a whole scan.
        var near = wideState(height: 40)
        #expect(near.search(for: query, in: Self.body, scanning: .max) == .found(wrapped: false))
        #expect(Self.body.firstMatch(of: BodySearchQuery("nowhere"), from: 0) == .none)
    }

    @Test func aScanForAnOlderQueryMovesNothing() {
        var state = wideState(height: 40)
        _ = state.search(for: BodySearchQuery("z"), in: Self.body, scanning: 1024)
        _ = state.search(for: BodySearchQuery("zq"), in: Self.body, scanning: 1024)
        let stale = Self.body.firstMatch(of: BodySearchQuery("z"), from: 0)
        #expect(state.showMatch(stale, for: BodySearchQuery("z"), in: Self.body) == nil)
        #expect(state.cursorLine == 0 && state.search?.query == BodySearchQuery("zq"))
    }

    @Test func aCancelledScanStopsUnfinished() async {
        let task = Task { () -> BodyMatchScan in
            withUnsafeCurrentTask { $0?.cancel() }
            return Self.body.firstMatch(of: BodySearchQuery("zq"), from: 0, chunkSize: 4096)
        }
        #expect(await task.value == .unfinished)
    }
}
