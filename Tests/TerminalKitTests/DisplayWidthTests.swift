import Testing
@testable import TerminalKit
import TestTraits

@Suite("Display width", .offPool)
struct DisplayWidthTests {
    @Test("ASCII is one column, controls none", arguments: [
        ("a", 1), (" ", 1), ("~", 1), ("\u{7F}", 0), ("\u{1B}", 0), ("\u{0}", 0), ("\u{85}", 0), ("\r\n", 0),
    ] as [(Character, Int)])
    func ascii(character: Character, width: Int) {
        #expect(DisplayWidth.of(character) == width)
    }

    @Test("CJK and fullwidth are two columns", arguments: ["中", "日", "한", "ア", "Ａ", "。", "𠀀"] as [Character])
    func wide(character: Character) {
        #expect(DisplayWidth.of(character) == 2)
    }

    @Test("Narrow non-ASCII is one column", arguments: ["é", "ß", "Ж", "α", "ｱ", "→", "─", "⠋", "…"] as [Character])
    func narrow(character: Character) {
        #expect(DisplayWidth.of(character) == 1)
    }

    @Test("Emoji presentation, ZWJ sequences, skin tones and flags are one 2-wide cluster")
    func emoji() {
        let samples = ["😀", "👍🏽", "👨‍👩‍👧‍👦", "🏳️‍🌈", "🇫🇷", "❤️", "🧑‍💻"]
        for sample in samples {
            #expect(sample.count == 1, "\(sample) should be one grapheme")
            #expect(sample.displayWidth == 2, "\(sample)")
        }
        #expect("❤".displayWidth == 1, "text presentation stays narrow")
    }

    @Test("Combining marks and joiners add nothing")
    func combining() {
        #expect("e\u{301}".displayWidth == 1)
        #expect("a\u{200D}b".displayWidth == 2)
        #expect("\u{200B}".displayWidth == 0)
        #expect("한\u{302}".displayWidth == 2)
        #expect("\u{1100}\u{1161}".displayWidth == 2, "conjoining jamo form one wide syllable")
    }

    @Test("Strings add up and tabs expand to the next stop")
    func strings() {
        #expect("abc中文".displayWidth == 7)
        #expect("\t".displayWidth == 8)
        #expect("ab\tc".displayWidth == 9)
        #expect("abcdefgh\t".displayWidth == 16)
        #expect("a\u{1B}[31mb".displayWidth == 6, "ESC counts nothing, the rest is printable")
        #expect("".displayWidth == 0)
    }

    @Test("Truncation adds an ellipsis and never exceeds the width")
    func truncation() {
        #expect("hello world".truncated(toWidth: 8) == "hello w…")
        #expect("hello".truncated(toWidth: 5) == "hello")
        #expect("hello".truncated(toWidth: 0) == "")
        #expect("hello".truncated(toWidth: 1) == "…")
        #expect("中文字符".truncated(toWidth: 4) == "中…")
        #expect("中文字符".truncated(toWidth: 5) == "中文…")
        #expect("a\tb".truncated(toWidth: 20) == "a       b")
        for width in 0...12 {
            #expect("中a文b😀c".truncated(toWidth: width).displayWidth <= width)
        }
    }

    @Test("Slicing by column pads half-visible wide glyphs")
    func slicing() {
        #expect("abcdef".slice(columns: 2, width: 3) == "cde")
        #expect("中文字".slice(columns: 1, width: 4) == " 文 ")
        #expect("中文字".slice(columns: 2, width: 2) == "文")
        #expect("abc".slice(columns: 5, width: 3) == "")
        #expect("abc".slice(columns: 0, width: 0) == "")
        #expect("e\u{301}x".slice(columns: 0, width: 1) == "e\u{301}")
        for start in 0...8 {
            for width in 0...8 {
                #expect("中a文b😀c".slice(columns: start, width: width).displayWidth <= width)
            }
        }
    }

    @Test("Printable ASCII is measured and cut by bytes, exactly as grapheme by grapheme")
    func asciiFastPath() {
        var generator = SeededGenerator(seed: 0xA5C11)
        let pieces = ["a", "Z", " ", "~", "{", "\t", "e\u{301}", "#\u{FE0F}", "中", "😀", "\u{7}", "\r\n", "…"]
        for _ in 0..<500 {
            let text = (0..<Int.random(in: 0...12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            // The cluster-by-cluster reference (no tabs: those are expanded first).
            let expanded = text.expandingTabs()
            #expect(!expanded.contains("\t"))
            #expect(expanded.displayWidth == expanded.reduce(0) { $0 + DisplayWidth.of($1) }, "\(text.debugDescription)")
            for width in 0...8 {
                var reference = "", used = 0
                for character in expanded {
                    let characterWidth = DisplayWidth.of(character)
                    if used + characterWidth > width { break }
                    if characterWidth > 0 || !DisplayWidth.isControl(character) { reference.append(character) }
                    used += characterWidth
                }
                #expect(text.prefix(columns: width) == reference, "\(text.debugDescription) at \(width)")
            }
        }
        #expect("plain ascii".printableASCIIWidth == 11)
        #expect("tab\there".printableASCIIWidth == nil)
        #expect("#\u{FE0F}".printableASCIIWidth == nil && "#\u{FE0F}".displayWidth == 2)
    }
}
