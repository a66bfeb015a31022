import Foundation
import Testing

@testable import BodyViewer
import TestTraits

@Suite(.offPool) struct FoldingTests {
    let body = document(#"{"name":"x","items":[{"id":1,"tags":["a","b"]},{"id":2,"tags":[]}],"meta":{"n":2}}"#)
    // Lines: 0 `{`, 2 items `[` … 14 `],`, 3…9 first item, 5…8 its tags, 10…13 second item, 15…17 meta, 18 `}`.

    @Test func layoutIsAsExpected() {
        #expect(allLines(body) == """
            {
              "name": "x",
              "items": [
                {
                  "id": 1,
                  "tags": [
                    "a",
                    "b"
                  ]
                },
                {
                  "id": 2,
                  "tags": []
                }
              ],
              "meta": {
                "n": 2
              }
            }
            """)
    }

    @Test func foldsAndUnfoldsAtEveryDepth() {
        var state = wideState()
        // The innermost array.
        state.moveCursor(toLine: 5, in: body)
        state.foldAtCursor(in: body)
        #expect(state.cursorLine == 5)
        #expect(screen(body, state).split(separator: "\n")[5] == #"      "tags": [ … ] 2 items"#)
        #expect(body.renderVisible(state)[5].isFolded)
        // Folding again climbs to the element object around it.
        state.foldAtCursor(in: body)
        #expect(state.cursorLine == 3)
        #expect(screen(body, state).split(separator: "\n")[3] == #"    { … }, 2 keys"#)
        // Then the items array, then the root.
        state.foldAtCursor(in: body)
        #expect(state.cursorLine == 2)
        #expect(screen(body, state).split(separator: "\n")[2] == #"  "items": [ … ], 2 items"#)
        state.foldAtCursor(in: body)
        #expect(screen(body, state) == "{ … } 3 keys")
        // Unfolding one level keeps the inner folds.
        state.unfoldAtCursor(in: body)
        #expect(screen(body, state) == """
            {
              "name": "x",
              "items": [ … ], 2 items
              "meta": {
                "n": 2
              }
            }
            """)
        state.moveDown(in: body)
        state.moveDown(in: body)
        #expect(state.cursorLine == 2)
        state.unfoldAtCursor(in: body)
        #expect(screen(body, state).contains("    { … }, 2 keys"))
    }

    @Test func foldingFromAClosingBracketOrAMemberFoldsItsContainer() {
        var state = wideState()
        state.moveCursor(toLine: 8, in: body)  // `]` closing the first "tags"
        state.foldAtCursor(in: body)
        #expect(state.cursorLine == 5)
        state = wideState()
        state.moveCursor(toLine: 16, in: body)  // "n": 2 inside "meta"
        state.toggleFoldAtCursor(in: body)
        #expect(state.cursorLine == 15)
        #expect(screen(body, state).hasSuffix("  \"meta\": { … } 1 key\n}"))
        state.toggleFoldAtCursor(in: body)
        #expect(allLines(body) == screen(body, state))
    }

    @Test func foldAllFoldsBelowTheTopLevelAndUnfoldAllRestores() {
        var state = wideState()
        state.moveCursor(toLine: 6, in: body)
        state.foldAll(in: body)
        #expect(screen(body, state) == """
            {
              "name": "x",
              "items": [ … ], 2 items
              "meta": { … } 1 key
            }
            """)
        // The cursor was hidden: it moved to the fold that hides it.
        #expect(state.cursorLine == 2)
        state.unfoldAll(in: body)
        #expect(screen(body, state) == allLines(body))
        state.fold(toDepth: 0, in: body)
        #expect(screen(body, state) == "{ … } 3 keys")
        state.fold(toDepth: 2, in: body)
        #expect(screen(body, state).contains("    { … }, 2 keys\n    { … } 2 keys\n  ],"))
    }

    @Test func navigationSkipsFoldedLines() {
        var state = wideState()
        state.moveCursor(toLine: 2, in: body)
        state.foldAtCursor(in: body)
        state.moveDown(in: body)
        #expect(state.cursorLine == 15)
        state.moveUp(in: body)
        #expect(state.cursorLine == 2)
        state.moveToEnd(in: body)
        #expect(state.cursorLine == 18)
        #expect(body.renderVisible(state).map(\.line) == [0, 1, 2, 15, 16, 17, 18])
    }

    @Test func jumpsToTheMatchingBracket() {
        var state = wideState()
        state.moveCursor(toLine: 2, in: body)
        state.jumpToMatchingBracket(in: body)
        #expect(state.cursorLine == 14)
        state.jumpToMatchingBracket(in: body)
        #expect(state.cursorLine == 2)
        state.jumpToMatchingBracket(in: body)
        state.moveToTop(in: body)
        state.jumpToMatchingBracket(in: body)
        #expect(state.cursorLine == 18)
        // On a folded container the jump unfolds it.
        state.moveCursor(toLine: 15, in: body)
        state.foldAtCursor(in: body)
        #expect(state.isFolded(line: 15, in: body))
        state.jumpToMatchingBracket(in: body)
        #expect(state.cursorLine == 17)
        #expect(!state.isFolded(line: 15, in: body))
        // A member line has no bracket: nothing happens; moveToParent goes to the container.
        state.moveCursor(toLine: 4, in: body)
        state.jumpToMatchingBracket(in: body)
        #expect(state.cursorLine == 4)
        state.moveToParent(in: body)
        #expect(state.cursorLine == 3)
        state.moveToParent(in: body)
        #expect(state.cursorLine == 2)
    }

    @Test func foldSetIsConstantTimeBaselinePlusExceptions() {
        var folds = BodyFoldSet(foldedFromDepth: 1)
        #expect(folds.isFolded(line: 10, depth: 3))
        #expect(!folds.isFolded(line: 0, depth: 0))
        folds.set(false, line: 10, depth: 3)
        #expect(!folds.isFolded(line: 10, depth: 3))
        #expect(folds.exceptions == [10])
        folds.set(true, line: 10, depth: 3)
        #expect(folds.exceptions.isEmpty)
    }

    @Test func textAndHexBodiesDoNotFold() {
        let text = document("a\nb\n", contentType: "text/plain")
        var state = wideState()
        state.foldAll(in: text)
        state.foldAtCursor(in: text)
        #expect(state.folds.isEmpty)
        #expect(screen(text, state) == "a\nb")
    }
}
