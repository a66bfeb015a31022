import Testing
@testable import TerminalKit
import TestTraits

@Suite("Styles and text model", .offPool)
struct StyleAndTextTests {
    @Test("Patching: set colours win, modifiers add, removals subtract")
    func patching() {
        let base = Style(foreground: .red, background: .blue, modifiers: [.bold, .underline])
        let layer = Style(foreground: .green, modifiers: .italic, removing: .bold)
        let patched = base.patched(with: layer)
        #expect(patched.foreground == .green && patched.background == .blue)
        #expect(patched.modifiers == [.underline, .italic])
        #expect(base.patched(with: .plain) == base)
        var cell = Cell("x")
        cell.apply(patched)
        #expect(cell.style == Style(foreground: .green, background: .blue, modifiers: [.underline, .italic]))
        #expect(Style.plain.bold.reversed.modifiers == [.bold, .reverse])
        #expect(Style(modifiers: .bold).removing(.bold).adding(.bold).modifiers == .bold)
    }

    @Test("Line slicing and truncation keep span styles")
    func lineSlicing() {
        let red = Style(foreground: .red), blue = Style(foreground: .blue)
        let line = Line([Span("abc", style: red), Span("中def", style: blue)])
        #expect(line.width == 8)
        #expect(line.slice(columns: 2, width: 3).spans == [Span("c", style: red), Span("中", style: blue)])
        #expect(line.slice(columns: 4, width: 2).spans == [Span(" d", style: blue)])
        #expect(line.truncated(toWidth: 5).spans == [Span("abc", style: red), Span("…", style: blue)])
        #expect(line.truncated(toWidth: 6).spans == [Span("abc", style: red), Span("中", style: blue), Span("…", style: blue)])
        #expect(line.truncated(toWidth: 8) == line)
        #expect(line.truncated(toWidth: 0).spans.isEmpty)
        #expect(line.plainText == "abc中def")
        let interpolated: Line = "n=\(3)"
        #expect(interpolated.plainText == "n=3")
    }

    @Test("Line style lies under span styles when written")
    func lineStyle() {
        var buffer = Buffer(width: 4, height: 1)
        buffer.write(Line([Span("a", style: Style(foreground: .red)), "b"], style: Style(foreground: .green, background: .black)), at: .zero)
        #expect(buffer[0, 0].foreground == .red && buffer[0, 0].background == .black)
        #expect(buffer[1, 0].foreground == .green)
    }

    @Test("Wrapping edge cases: long words, wide glyphs, empty lines, width 1")
    func wrapping() {
        func rows(_ text: String, _ width: Int) -> [String] { TextWrapper.wrap(Line(text), width: width).map(\.plainText) }
        #expect(rows("abcdefghij", 4) == ["abcd", "efgh", "ij"])
        #expect(rows("ab cdefghij", 4) == ["ab", "cdef", "ghij"])
        #expect(rows("", 4) == [""])
        #expect(rows("中文字", 3) == ["中", "文", "字"])
        #expect(rows("中文", 1) == ["中", "文"])
        #expect(rows("a b", 1) == ["a", "b"])
        #expect(rows("short", 0) == ["short"])
        let styled = TextWrapper.wrap(Line([Span("aa ", style: Style(foreground: .red)), Span("bb", style: Style(foreground: .blue))]), width: 3)
        #expect(styled.map(\.spans) == [[Span("aa", style: Style(foreground: .red))], [Span("bb", style: Style(foreground: .blue))]])
    }
}

@Suite("Diff properties", .offPool)
struct DiffPropertyTests {
    /// A small deterministic generator so the test is repeatable.
    struct SplitMix {
        var state: UInt64
        mutating func next(_ bound: Int) -> Int {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Int((z ^ (z >> 31)) % UInt64(bound))
        }
    }

    @Test("Random edits: the diff replays exactly and sends nothing unchanged", arguments: [1, 2, 3, 4, 5] as [UInt64])
    func randomEdits(seed: UInt64) {
        var random = SplitMix(state: seed)
        let glyphs = ["a", "b", "中", "文", "😀", " ", "é"]
        let colors: [Color] = [.default, .red, .green, .indexed(200)]
        var before = Buffer(width: 17, height: 6)
        for _ in 0..<40 {
            var after = before
            for _ in 0..<random.next(12) {
                let text = (0..<(1 + random.next(5))).map { _ in glyphs[random.next(glyphs.count)] }.joined()
                after.write(text, at: Position(x: random.next(20) - 2, y: random.next(7) - 1), style: Style(foreground: colors[random.next(colors.count)]))
            }
            let updates = after.diff(from: before)
            var replay = before
            for update in updates {
                for (offset, cell) in update.cells.enumerated() {
                    let x = update.position.x + offset
                    // Every cell sent differs, or completes a wide glyph whose other half differs.
                    let differs = after[x, update.position.y] != before[x, update.position.y]
                    let partnerDiffers = cell.isContinuation
                        ? after[x - 1, update.position.y] != before[x - 1, update.position.y]
                        : after[x + 1, update.position.y].isContinuation && after[x + 1, update.position.y] != before[x + 1, update.position.y]
                    #expect(differs || partnerDiffers)
                    if !cell.isContinuation { replay[x, update.position.y] = cell }
                }
            }
            #expect(replay == after)
            before = after
        }
    }
}
