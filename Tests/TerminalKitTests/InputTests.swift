import Testing
@testable import TerminalKit
import TestTraits

@Suite("Input line", .offPool)
struct InputTests {
    @Test("Insert, move, backspace, delete")
    func basicEditing() {
        var state = InputState()
        state.insert("helo")
        state.moveLeft()
        state.insert("l")
        #expect(state.text == "hello" && state.cursor == 4)
        state.moveHome()
        state.deleteForward()
        #expect(state.text == "ello" && state.cursor == 0)
        state.backspace()
        #expect(state.text == "ello")
        state.moveEnd()
        state.backspace()
        #expect(state.text == "ell" && state.cursor == 3)
        state.moveRight()
        #expect(state.cursor == 3)
        state.insert("a\nb\u{1B}")
        #expect(state.text == "ellab")
    }

    @Test("Word motions and deletions")
    func words() {
        var state = InputState(text: "GET /users/42 now")
        state.moveWordLeft()
        #expect(state.cursor == 14)
        state.moveWordLeft()
        #expect(state.cursor == 11)
        state.moveWordLeft()
        #expect(state.cursor == 5)
        state.moveWordRight()
        #expect(state.cursor == 10)
        state.moveEnd()
        state.deleteWordBackward()
        #expect(state.text == "GET /users/42 ")
        state.deleteWordBackward()
        #expect(state.text == "GET ")
        state.insert("x y")
        state.moveLeft()
        state.killToStart()
        #expect(state.text == "y" && state.cursor == 0)
        state.killToEnd()
        #expect(state.text == "")
        state.deleteWordBackward()
        state.moveWordRight()
        #expect(state.text == "" && state.cursor == 0)
    }

    @Test("Wide characters and clusters move as one")
    func wide() {
        var state = InputState(text: "a中👍🏽b")
        #expect(state.characters.count == 4 && state.cursorColumn == 6)
        state.moveLeft()
        state.moveLeft()
        #expect(state.cursorColumn == 3)
        state.backspace()
        #expect(state.text == "a👍🏽b" && state.cursorColumn == 1)
        state.moveEnd()
        state.insert("e")
        state.insert("\u{301}")
        #expect(state.text == "a👍🏽be\u{301}" && state.cursor == 4)
    }

    @Test("Scrolls to keep the cursor visible and reports its cell")
    func scrolling() {
        let input = InputLine(prompt: "> ")
        var state = InputState(text: "0123456789abc")
        let area = Rect(x: 1, y: 2, width: 8, height: 1)
        let output = grid(10, 3) { buffer, _ in input.render(into: &buffer, area: area, state: &state) }
        expectGrid(output, """


         > 89abc
        """)
        #expect(input.cursorPosition(in: area, state: state) == Position(x: 8, y: 2))
        state.moveHome()
        let home = grid(10, 3) { buffer, _ in input.render(into: &buffer, area: area, state: &state) }
        expectGrid(home, """


         > 012345
        """)
        #expect(input.cursorPosition(in: area, state: state) == Position(x: 3, y: 2))
    }

    @Test("Scrolling with wide characters keeps columns aligned")
    func scrollingWide() {
        let input = InputLine()
        var state = InputState(text: "中文字符")
        let area = Rect(x: 0, y: 0, width: 5, height: 1)
        let output = grid(5, 1) { buffer, _ in input.render(into: &buffer, area: area, state: &state) }
        #expect(output == "字符")
        #expect(input.cursorPosition(in: area, state: state) == Position(x: 4, y: 0))
        state.moveLeft()
        #expect(input.cursorPosition(in: area, state: state)?.x == 2)
    }

    @Test("Placeholder shows while empty")
    func placeholder() {
        var state = InputState()
        let output = grid(12, 1) { b, a in InputLine(prompt: "/", placeholder: "filter").render(into: &b, area: a, state: &state) }
        #expect(output == "/filter")
        #expect(InputLine(prompt: "/").cursorPosition(in: Rect(x: 0, y: 0, width: 12, height: 1), state: state) == Position(x: 1, y: 0))
    }
}
