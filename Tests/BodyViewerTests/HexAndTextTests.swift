import Foundation
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct HexAndTextTests {
    @Test func hexRowsShowOffsetBytesAndASCII() {
        var bytes = Array("{\"a\":1}\n".utf8) + [0, 0xFF, 0x10] + Array("xyz".utf8)
        bytes += Array(repeating: 0x41, count: 4)
        let body = BodyDocument(data: Data(bytes), contentType: "application/octet-stream")
        #expect(body.kind == .binary)
        #expect(body.lineCount == 2)
        let rows = body.renderVisible(wideState())
        #expect(rows.map(\.text) == [
            "00000000  7b 22 61 22 3a 31 7d 0a  00 ff 10 78 79 7a 41 41  |{\"a\":1}....xyzAA|",
            "00000010  41 41" + String(repeating: " ", count: 45) + "|AA|",
        ])
        #expect(rows[0].runs.first == BodyTextRun("00000000", .hexOffset))
        #expect(rows[0].runs.contains(BodyTextRun("7b", .hexByte)))
        #expect(rows[0].runs.contains(BodyTextRun("{\"a\":1}....xyzAA", .hexASCII)))
        #expect(HexRowLayout.offsetText(0x1_0000_0000, total: 0x2_0000_0000) == "100000000")
    }

    @Test func textLinesKeepTheirTextWithTabsExpanded() {
        let body = document("a\tb\r\n\tc\u{1}\n\nlast", contentType: "text/plain")
        #expect(body.kind == .text(.plain))
        #expect(body.lineCount == 4)
        #expect(screen(body, wideState()) == "a       b\n        c\u{2401}\n\nlast")
    }

    @Test func invalidUTF8BecomesReplacementCharactersWithANotice() {
        var bytes = Array("ok\nbad ".utf8) + [0xC3, 0x28] + Array(" and ".utf8) + [0xE2, 0x82] + Array("\nend".utf8)
        let text = BodyDocument(data: Data(bytes), contentType: "text/plain")
        #expect(screen(text, wideState()) == "ok\nbad \u{FFFD}( and \u{FFFD}\u{FFFD}\nend")
        #expect(text.notices.map(\.kind) == [.invalidUTF8])
        #expect(text.notices.first?.line == 2 && text.notices.first?.column == 5)
        #expect(text.notices.first?.message == "Invalid UTF-8 at 2:5 (3 places), shown as \u{FFFD}.")
        bytes = Array("{\"k\":\"".utf8) + [0xFF] + Array("\"}".utf8)
        let json = BodyDocument(data: Data(bytes), contentType: "application/json")
        #expect(json.kind == .json)
        #expect(allLines(json) == "{\n  \"k\": \"\u{FFFD}\"\n}")
        #expect(json.notices.map(\.kind) == [.invalidUTF8])
    }

    @Test func wideCharactersTakeTwoColumns() {
        let body = document("日本語テキスト", contentType: "text/plain")
        var state = wideState(height: 10, width: 5, lineNumbers: false)
        #expect(screen(body, state) == "日本")
        state.toggleWrap(in: body)
        #expect(screen(body, state) == "日本\n語テ\nキス\nト")
        state.toggleWrap(in: body)
        state.scrollHorizontally(by: 1, in: body)
        #expect(body.renderVisible(state)[0].text == " 本語")
    }
}
