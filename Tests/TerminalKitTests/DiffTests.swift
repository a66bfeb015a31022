import Testing
@testable import TerminalKit
import TestTraits

@Suite("Buffer diff", .offPool)
struct DiffTests {
    @Test("Identical buffers produce no update")
    func identical() {
        var buffer = Buffer(width: 10, height: 3)
        buffer.write("hello", at: .zero)
        #expect(buffer.diff(from: buffer).isEmpty)
    }

    @Test("Only changed cells are sent, adjacent ones grouped into runs")
    func minimal() {
        var before = Buffer(width: 10, height: 2)
        before.write("hello world", at: .zero)
        var after = before
        after.write("HE", at: .zero)
        after.write("x", at: Position(x: 6, y: 0))
        after.write("z", at: Position(x: 9, y: 1))
        let updates = after.diff(from: before)
        #expect(updates.map(\.position) == [Position(x: 0, y: 0), Position(x: 6, y: 0), Position(x: 9, y: 1)])
        #expect(updates.map { $0.cells.map(\.symbol).joined() } == ["HE", "x", "z"])
        #expect(updates.reduce(0) { $0 + $1.cells.count } == 4)
    }

    @Test("isBlank is equality with the blank cell, found without comparing strings")
    func isBlankIsEqualityWithBlank() {
        let symbols = [" ", "  ", "", "a", "\u{A0}", " \u{301}", "\u{3000}", "中"]
        let colors: [Color] = [.default, .red, .indexed(0)]
        for symbol in symbols {
            for foreground in colors {
                for background in colors {
                    for modifiers: Modifiers in [[], .bold] {
                        for isContinuation in [false, true] {
                            let cell = Cell(symbol, foreground: foreground, background: background, modifiers: modifiers, isContinuation: isContinuation)
                            #expect(cell.isBlank == (cell == .blank), "\(cell)")
                        }
                    }
                }
            }
        }
        #expect(Cell.blank.isBlank)
    }

    @Test("Runs against no buffer are the runs against a blank one; runs cover every change and keep wide glyphs whole")
    func runsAgainstABlankScreen() {
        var generator = SeededGenerator(seed: 11)
        let texts = ["中文", "ab", " ", "🙂x", "é"]
        for _ in 0..<500 {
            var buffer = Buffer(width: 9, height: 3)
            var previous = buffer
            for _ in 0..<5 {
                let text = texts[Int.random(in: 0..<texts.count, using: &generator)]
                let position = Position(x: Int.random(in: 0..<9, using: &generator), y: Int.random(in: 0..<3, using: &generator))
                if Bool.random(using: &generator) { buffer.write(text, at: position) } else { previous.write(text, at: position) }
            }
            #expect(buffer.changedRuns(from: nil) == buffer.changedRuns(from: Buffer(size: buffer.size)))
            let runs = buffer.changedRuns(from: previous)
            for y in 0..<3 {
                for x in 0..<9 where buffer[x, y] != previous[x, y] {
                    #expect(runs.contains { $0.y == y && $0.columns.contains(x) }, "a changed cell outside every run")
                }
            }
            for (run, next) in zip(runs, runs.dropFirst()) where run.y == next.y {
                #expect(run.columns.upperBound < next.columns.lowerBound, "runs of a row are apart and in order")
            }
            for run in runs {
                #expect(!buffer[run.columns.lowerBound, run.y].isContinuation, "a run starts on a whole glyph")
                #expect(run.columns.upperBound == 9 || !buffer[run.columns.upperBound, run.y].isContinuation, "and ends after one")
            }
        }
    }

    @Test("A style change alone is an update")
    func styleOnly() {
        let before = Buffer(width: 3, height: 1)
        var after = before
        after.setStyle(Style(modifiers: .bold), in: Rect(x: 1, y: 0, width: 1, height: 1))
        #expect(after.diff(from: before) == [CellUpdate(position: Position(x: 1, y: 0), cells: [Cell(" ", modifiers: .bold)])])
    }

    @Test("Runs keep wide glyphs whole")
    func wideGlyphs() {
        var before = Buffer(width: 6, height: 1)
        before.write("中文", at: .zero)
        var after = before
        after.write("日", at: Position(x: 2, y: 0))
        let updates = after.diff(from: before)
        #expect(updates.count == 1)
        #expect(updates[0].position == Position(x: 2, y: 0))
        #expect(updates[0].cells.count == 2 && updates[0].cells[1].isContinuation)
    }

    @Test("A changed continuation pulls in its glyph")
    func continuationPullsLead() {
        var before = Buffer(width: 4, height: 1)
        before.write("中", at: Position(x: 1, y: 0))
        var after = before
        after.setStyle(Style(foreground: .red), in: Rect(x: 2, y: 0, width: 1, height: 1))
        let updates = after.diff(from: before)
        #expect(updates.count == 1 && updates[0].position.x == 1 && updates[0].cells.count == 2)
    }

    @Test("A size change redraws every row")
    func resized() {
        let updates = Buffer(width: 3, height: 2).diff(from: Buffer(width: 4, height: 2))
        #expect(updates.count == 2 && updates.allSatisfy { $0.cells.count == 3 && $0.position.x == 0 })
    }

    @Test("Applying the diff to the previous buffer reproduces the new one")
    func applyReproduces() {
        var before = Buffer(width: 12, height: 4)
        before.write("the quick brown fox", at: .zero)
        before.write("中文 emoji 😀", at: Position(x: 1, y: 2))
        var after = Buffer(width: 12, height: 4)
        after.write("the quack 中 fox", at: .zero)
        after.write("中x emoji 👍🏽!", at: Position(x: 1, y: 2), style: Style(foreground: .green))
        after.write("new", at: Position(x: 9, y: 3))
        var replay = before
        for update in after.diff(from: before) {
            for (offset, cell) in update.cells.enumerated() where !cell.isContinuation {
                replay[update.position.x + offset, update.position.y] = cell
            }
        }
        #expect(replay == after)
    }
}
