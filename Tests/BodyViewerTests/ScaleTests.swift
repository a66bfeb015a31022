import Foundation
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct ScaleTests {
    @Test func survivesTenThousandLevelsOfNesting() {
        let depth = 10_000
        let text = String(repeating: "[", count: depth) + "\"deep\"" + String(repeating: "]", count: depth)
        let body = document(text)
        #expect(body.kind == .json)
        #expect(body.lineCount == 2 * depth + 1)
        var state = wideState(height: 10, width: 60)
        state.moveToEnd(in: body)
        #expect(state.cursorLine == 2 * depth)
        #expect(body.renderVisible(state).last?.text.hasSuffix("]") == true)
        state.moveCursor(toLine: depth, in: body)
        #expect(body.renderVisible(state).contains { $0.line == depth })
        // The string sits 20,000 columns in: scrolled sideways to it by a search.
        state.search(for: BodySearchQuery("deep"), in: body)
        #expect(state.cursorLine == depth)
        #expect(body.renderVisible(state).contains { $0.runs.contains(BodyTextRun("deep", .currentMatch)) })
        state.foldAtCursor(in: body)
        #expect(state.cursorLine == depth - 1)
        state.jumpToMatchingBracket(in: body)
        #expect(state.cursorLine == depth + 1)
        state.moveToTop(in: body)
        state.scrollHorizontally(by: -state.horizontalOffset, in: body)
        state.foldAll(in: body)
        #expect(screen(body, state) == "[\n  [ … ] 1 item\n]")
        state.unfoldAll(in: body)
        state.moveToEnd(in: body)
        #expect(state.cursorLine == 2 * depth)
        state.pageUp(in: body)
        #expect(state.cursorLine == 2 * depth - 10)
    }

    @Test func aVeryLongLineRendersOnlyTheVisibleSlice() {
        let length = 5_000_000
        var bytes = Array("{\"big\":\"".utf8)
        bytes += (0..<length).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        bytes += Array("\",\"after\":1}".utf8)
        let body = BodyDocument(data: Data(bytes), contentType: "application/json")
        #expect(body.lineCount == 4)
        var state = BodyViewState(viewportHeight: 6, viewportWidth: 30, showsLineNumbers: true)
        #expect(body.renderVisible(state)[1].text == "2   \"big\": \"abcdefghijklmnopqr")
        // Sideways: jump far into the string.
        state.scrollHorizontally(by: 4_000_000, in: body)
        #expect(state.horizontalOffset == 4_000_000)
        let offsetRow = body.renderVisible(state)[1].text
        // Column 4,000,000 of the line is character 4,000,000 - 10 of the string (after `  "big": "`).
        let first = (4_000_000 - 10) % 26
        let expected = (0..<28).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8((first + $0) % 26))) }
        #expect(offsetRow == "2 " + String(expected))
        // Scrolling is clamped to the widest line on screen.
        state.scrollHorizontally(by: 10_000_000, in: body)
        #expect(state.horizontalOffset == 2 + 7 + 1 + length + 2 - 28)
        // Wrapped: rows are cut lazily, and moving down walks the rows of the long line.
        state.toggleWrap(in: body)
        #expect(state.horizontalOffset == 0)
        let rows = body.renderVisible(state)
        #expect(rows.map(\.lineNumber) == [1, 2, nil, nil, nil, nil])
        #expect(rows[2].text == "  " + String((0..<28).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8((18 + $0) % 26))) }))
        state.moveDown(in: body)
        #expect(state.cursorLine == 1)
        // The cursor line runs past the bottom: moving down scrolls its rows instead.
        state.moveDown(in: body)
        #expect(state.cursorLine == 1)
        #expect(state.topLine == 1 && state.topRow == 0)
        for _ in 0..<5 { state.moveDown(in: body) }
        #expect(state.cursorLine == 1)
        #expect(state.topLine == 1 && state.topRow == 5)
        state.moveUp(in: body)
        #expect(state.cursorLine == 1 && state.topRow == 4)
        state.moveToEnd(in: body)
        #expect(state.cursorLine == 3)
        let end = body.renderVisible(state)
        #expect(end.last?.text == "4 }")
        #expect(end.first?.line == 1 && (end.first?.row ?? 0) > 170_000)
        state.moveUp(in: body)
        #expect(state.cursorLine == 2)
        state.search(for: BodySearchQuery("after"), in: body)
        #expect(state.cursorLine == 2)
    }

    @Test func aHugeTextLineWrapsAndScrolls() {
        let line = String(repeating: "0123456789", count: 100_000)
        let body = document("first\n" + line + "\nlast", contentType: "text/plain")
        var state = BodyViewState(viewportHeight: 3, viewportWidth: 10, showsLineNumbers: false)
        // Clamped so the end of the longest line on screen meets the right edge.
        state.scrollHorizontally(by: 999_995, in: body)
        #expect(state.horizontalOffset == 999_990)
        #expect(screen(body, state) == "\n0123456789\n")
        state.toggleWrap(in: body)
        state.moveDown(in: body)
        state.moveDown(in: body)
        #expect(screen(body, state) == "0123456789\n0123456789\n0123456789")
        state.moveToEnd(in: body)
        #expect(screen(body, state) == "0123456789\n0123456789\nlast")
        state.pageUp(in: body)
        #expect(state.topLine == 1 && state.topRow == 99_995)
        #expect(state.cursorLine == 1)
    }
}
