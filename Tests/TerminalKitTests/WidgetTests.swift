import Synchronization
import Testing
@testable import TerminalKit
import TestTraits

@Suite("Widgets", .offPool)
struct WidgetTests {
    @Test("Block draws rounded borders with both titles")
    func block() {
        expectGrid(grid(24, 4) { buffer, area in
            Block(title: "Requests", rightTitle: "3/9").render(into: &buffer, area: area)
        }, """
        ╭ Requests ─────── 3/9 ╮
        │                      │
        │                      │
        ╰──────────────────────╯
        """)
    }

    @Test("Block titles truncate and the right title yields")
    func blockNarrow() {
        expectGrid(grid(12, 3) { buffer, area in
            Block(title: "Environments", rightTitle: "prod", borders: .plain).render(into: &buffer, area: area)
        }, """
        ┌ Environm…┐
        │          │
        └──────────┘
        """)
        #expect(Block().inner(Rect(x: 0, y: 0, width: 10, height: 5)) == Rect(x: 1, y: 1, width: 8, height: 3))
    }

    @Test("Focus changes only the border style")
    func blockFocus() {
        var focused = Buffer(width: 5, height: 3), plain = Buffer(width: 5, height: 3)
        Block(isFocused: true).render(into: &focused, area: focused.area)
        Block(isFocused: false).render(into: &plain, area: plain.area)
        #expect(focused.plainText() == plain.plainText())
        #expect(focused[0, 0].foreground == .cyan && plain[0, 0].foreground == .brightBlack)
    }

    @Test("Tiny blocks degrade without crashing")
    func blockTiny() {
        #expect(grid(1, 1) { b, a in Block(title: "T").render(into: &b, area: a) } == "│")
        #expect(grid(2, 2) { b, a in Block(title: "T").render(into: &b, area: a) } == "╭╮\n╰╯")
        #expect(grid(0, 0) { b, a in Block(title: "T").render(into: &b, area: a) } == "")
    }

    @Test("List keeps the selection visible and highlights it")
    func list() {
        let items = (1...10).map { Line("item \($0)") }
        var state = ListState(selected: 6)
        let output = grid(12, 4) { buffer, area in
            ListView(items, highlightSymbol: "> ").render(into: &buffer, area: area, state: &state)
        }
        expectGrid(output, """
          item 4
          item 5
          item 6
        > item 7
        """)
        #expect(state.offset == 3)
    }

    @Test("List with a block, a scrollbar and truncated rows")
    func listScrollbar() {
        let items = ["alpha endpoint", "beta", "gamma", "delta", "epsilon"].map { Line($0) }
        var state = ListState(selected: 0)
        let output = grid(12, 5) { buffer, area in
            ListView(items, block: Block(title: "Eps"), showsScrollbar: true).render(into: &buffer, area: area, state: &state)
        }
        expectGrid(output, """
        ╭ Eps ─────╮
        │alpha en…█│
        │beta     █│
        │gamma    ││
        ╰──────────╯
        """)
    }

    @Test("Selected row is highlighted across the width")
    func listHighlight() {
        var buffer = Buffer(width: 6, height: 2)
        ListView(["a", "b"]).render(into: &buffer, area: buffer.area, state: ListState(selected: 1))
        #expect(buffer[5, 1].modifiers.contains(.reverse))
        #expect(!buffer[5, 0].modifiers.contains(.reverse))
    }

    @Test("Border pieces look as Buffer.write draws them one by one, narrow, wide or longer")
    func blockPiecesMatchWrite() {
        let sets = [
            BorderSet.rounded,
            BorderSet(topLeft: "+", topRight: "+", bottomLeft: "+", bottomRight: "+", horizontal: "中", vertical: "ab"),
            BorderSet(topLeft: "*", topRight: "*", bottomLeft: "*", bottomRight: "*", horizontal: "e\u{301}", vertical: "\t"),
        ]
        for borders in sets {
            let block = Block(borders: borders, isFocused: true)
            let area = Rect(x: 1, y: 1, width: 9, height: 4)
            var drawn = Buffer(width: 11, height: 6)
            block.render(into: &drawn, area: area)
            var written = Buffer(width: 11, height: 6)
            for x in area.x..<area.right {
                written.write(borders.horizontal, at: Position(x: x, y: area.y), style: block.focusedBorderStyle)
                written.write(borders.horizontal, at: Position(x: x, y: area.bottom - 1), style: block.focusedBorderStyle)
            }
            for y in area.y..<area.bottom {
                written.write(borders.vertical, at: Position(x: area.x, y: y), style: block.focusedBorderStyle)
                written.write(borders.vertical, at: Position(x: area.right - 1, y: y), style: block.focusedBorderStyle)
            }
            written.write(borders.topLeft, at: Position(x: area.x, y: area.y), style: block.focusedBorderStyle)
            written.write(borders.topRight, at: Position(x: area.right - 1, y: area.y), style: block.focusedBorderStyle)
            written.write(borders.bottomLeft, at: Position(x: area.x, y: area.bottom - 1), style: block.focusedBorderStyle)
            written.write(borders.bottomRight, at: Position(x: area.right - 1, y: area.bottom - 1), style: block.focusedBorderStyle)
            #expect(drawn == written, "\(borders.horizontal) \(borders.vertical)\n\(drawn.plainText())\n\(written.plainText())")
        }
    }

    @Test("A list asks only for the rows on screen")
    func listMakesVisibleRowsOnly() {
        let asked = Mutex<[Int]>([])
        var state = ListState(selected: 5_000)
        let output = grid(12, 3) { buffer, area in
            ListView(count: 10_000) { index in
                asked.withLock { $0.append(index) }
                return Line("row \(index)")
            }.render(into: &buffer, area: area, state: &state)
        }
        expectGrid(output, "row 4998\nrow 4999\nrow 5000")
        #expect(asked.withLock { $0 } == [4_998, 4_999, 5_000])
    }

    @Test("Empty list shows the placeholder")
    func listEmpty() {
        expectGrid(grid(10, 2) { buffer, area in
            ListView([], placeholder: "nothing").render(into: &buffer, area: area, state: ListState())
        }, "nothing\n")
    }

    @Test("List navigation: next, previous, pages, home and end")
    func listNavigation() {
        var state = ListState()
        state.selectNext(itemCount: 20)
        #expect(state.selected == 0)
        state.pageDown(itemCount: 20, pageHeight: 5)
        #expect(state.selected == 5 && state.offset == 5)
        state.pageDown(itemCount: 20, pageHeight: 5)
        state.pageDown(itemCount: 20, pageHeight: 5)
        state.pageDown(itemCount: 20, pageHeight: 5)
        #expect(state.selected == 19 && state.offset == 15)
        state.pageUp(itemCount: 20, pageHeight: 5)
        #expect(state.selected == 14 && state.offset == 10)
        state.selectFirst(itemCount: 20)
        state.scrollToSelection(viewportHeight: 5, itemCount: 20)
        #expect(state.selected == 0 && state.offset == 0)
        state.selectLast(itemCount: 20)
        state.scrollToSelection(viewportHeight: 5, itemCount: 20)
        #expect(state.selected == 19 && state.offset == 15)
        state.selectNext(itemCount: 20, wraps: true)
        #expect(state.selected == 0)
        state.selectPrevious(itemCount: 20)
        #expect(state.selected == 0)
        state.select(99, itemCount: 0)
        #expect(state.selected == nil)
        #expect(ListState(selected: 3, offset: 50).visibleOffset(viewportHeight: 4, itemCount: 10) == 3)
    }

    @Test("Tabs number the titles and highlight the selected one")
    func tabs() {
        var buffer = Buffer(width: 40, height: 1)
        let tabs = Tabs(["Body", "Headers", "Errors"], selected: 1)
        tabs.render(into: &buffer, area: buffer.area)
        expectGrid(buffer.plainText(), " 1 Body │ 2 Headers │ 3 Errors")
        #expect(buffer[10, 0].modifiers.contains(.reverse) && !buffer[2, 0].modifiers.contains(.reverse))
        #expect(tabs.tab(atColumn: 12, in: buffer.area) == 1)
        #expect(tabs.tab(atColumn: 8, in: buffer.area) == nil)
        #expect(grid(12, 1) { b, a in tabs.render(into: &b, area: a) } == "1 Body│2 Hea")
    }

    @Test("Narrow tabs drop their padding, then use their short titles; clicks follow")
    func narrowTabs() {
        let tabs = Tabs(["Body", "Headers", "Errors"], shortTitles: ["Body", "Hdrs", "Errs"], selected: 1)
        #expect(grid(27, 1) { b, a in tabs.render(into: &b, area: a) } == "1 Body│2 Headers│3 Errors")
        #expect(grid(22, 1) { b, a in tabs.render(into: &b, area: a) } == "1 Body│2 Hdrs│3 Errs")
        #expect(tabs.tab(atColumn: 9, in: Rect(x: 0, y: 0, width: 22, height: 1)) == 1)
        #expect(tabs.tab(atColumn: 15, in: Rect(x: 0, y: 0, width: 22, height: 1)) == 2)
    }

    @Test("Text view wraps at words and scrolls")
    func textWrap() {
        let view = TextView(["the quick brown fox jumps", "中文字符测试"], wraps: true)
        expectGrid(grid(10, 5) { b, a in view.render(into: &b, area: a) }, """
        the quick
        brown fox
        jumps
        中文字符测
        试
        """)
        var scrolled = view
        scrolled.verticalOffset = 3
        expectGrid(grid(10, 2) { b, a in scrolled.render(into: &b, area: a) }, """
        中文字符测
        试
        """)
        #expect(view.maxVerticalOffset(viewport: Size(width: 10, height: 2)) == 3)
    }

    @Test("Text view scrolls horizontally without wrapping")
    func textHorizontal() {
        let view = TextView(["0123456789", "中文字符"], horizontalOffset: 3)
        expectGrid(grid(4, 2) { b, a in view.render(into: &b, area: a) }, """
        3456
         字
        """)
    }

    @Test("Status bar: right side by priority, left truncated")
    func statusBar() {
        let bar = StatusBar(
            left: "GET /users/{id} — staging",
            right: [.init("stub", priority: 1), .init("200 OK", priority: 3), .init("12 ms", priority: 2)]
        )
        expectGrid(grid(40, 1) { b, a in bar.render(into: &b, area: a) }, "GET /users/{id} —… stub │ 200 OK │ 12 ms")
        expectGrid(grid(24, 1) { b, a in bar.render(into: &b, area: a) }, "G… stub │ 200 OK │ 12 ms")
        expectGrid(grid(15, 1) { b, a in bar.render(into: &b, area: a) }, " 200 OK │ 12 ms")
        expectGrid(grid(8, 1) { b, a in bar.render(into: &b, area: a) }, "… 200 OK")
        expectGrid(grid(1, 1) { b, a in bar.render(into: &b, area: a) }, "…")
        #expect(bar.visibleSegments(width: 15) == [1, 2])
    }

    @Test("Spinner shows the frame it is given")
    func spinner() {
        #expect(grid(10, 1) { b, a in Spinner(frameIndex: 0, label: "sending").render(into: &b, area: a) } == "⠋ sending")
        #expect(grid(10, 1) { b, a in Spinner(frameIndex: 12).render(into: &b, area: a) } == "⠹")
        #expect(Spinner(frameIndex: -1).symbol == "⠏")
        #expect(Spinner(frameIndex: 3, frames: []).symbol == "")
    }

    @Test("Overlay clears what is beneath and draws a box")
    func overlay() {
        let output = grid(12, 5) { buffer, area in
            for row in 0..<5 { buffer.write(String(repeating: "x", count: 12), at: Position(x: 0, y: row)) }
            let overlay = Overlay(block: Block(title: "Hi"), width: .cells(8), height: .cells(3))
            overlay.render(into: &buffer, area: area)
            buffer.write("ok", at: overlay.inner(in: area).origin)
        }
        expectGrid(output, """
        xxxxxxxxxxxx
        xx╭ Hi ──╮xx
        xx│ok    │xx
        xx╰──────╯xx
        xxxxxxxxxxxx
        """)
        let percent = Overlay(block: Block(), width: .percent(50), height: .percent(100))
        #expect(percent.area(in: Rect(x: 0, y: 0, width: 12, height: 5)) == Rect(x: 3, y: 0, width: 6, height: 5))
    }

    @Test("Scrollbar thumb touches the ends exactly at the ends")
    func scrollbar() {
        #expect(Scrollbar(contentLength: 5, viewportLength: 10, position: 0).thumb(trackLength: 10) == nil)
        #expect(Scrollbar(contentLength: 100, viewportLength: 10, position: 0).thumb(trackLength: 10) == 0..<1)
        #expect(Scrollbar(contentLength: 100, viewportLength: 10, position: 90).thumb(trackLength: 10) == 9..<10)
        #expect(Scrollbar(contentLength: 100, viewportLength: 10, position: 1).thumb(trackLength: 10)?.lowerBound == 1)
        #expect(Scrollbar(contentLength: 100, viewportLength: 10, position: 89).thumb(trackLength: 10)?.lowerBound == 8)
        #expect(Scrollbar(contentLength: 20, viewportLength: 10, position: 5).thumb(trackLength: 10) == 3..<8)
        for position in 0...90 {
            let thumb = Scrollbar(contentLength: 100, viewportLength: 10, position: position).thumb(trackLength: 7)
            #expect(thumb.map { $0.lowerBound >= 0 && $0.upperBound <= 7 } == true)
        }
    }

    @Test("Every widget survives 1×1 and 0×0 areas", arguments: [Size(width: 1, height: 1), Size(width: 0, height: 0), Size(width: 2, height: 1)])
    func tinyAreas(size: Size) {
        var buffer = Buffer(size: size)
        let area = buffer.area
        Block(title: "Title", rightTitle: "R").render(into: &buffer, area: area)
        var list = ListState(selected: 3)
        ListView(["a", "中", "c", "d"], block: Block(), highlightSymbol: "▶ ", showsScrollbar: true).render(into: &buffer, area: area, state: &list)
        ListView(["a", "中", "c", "d"], showsScrollbar: true).render(into: &buffer, area: area, state: &list)
        Tabs(["a", "b"], selected: 0).render(into: &buffer, area: area)
        TextView(["中文 wrap me"], wraps: true).render(into: &buffer, area: area)
        TextView(["中文"], horizontalOffset: 1).render(into: &buffer, area: area)
        StatusBar(left: "left", right: [.init("r")]).render(into: &buffer, area: area)
        Spinner(frameIndex: 1, label: "x").render(into: &buffer, area: area)
        Overlay(block: Block(title: "O"), width: .cells(5), height: .cells(5)).render(into: &buffer, area: area)
        var input = InputState(text: "中文")
        InputLine(prompt: "> ").render(into: &buffer, area: area, state: &input)
        _ = InputLine(prompt: "> ").cursorPosition(in: area, state: input)
        Scrollbar(contentLength: 10, viewportLength: 1, position: 5).render(into: &buffer, area: area)
        #expect(buffer.size == size)
        #expect(buffer.plainText().count <= size.area + size.height)
    }
}
