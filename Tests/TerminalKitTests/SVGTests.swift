import Testing
@testable import TerminalKit
import TestTraits

@Suite("SVG export", .offPool)
struct SVGTests {
    static func sample() -> Buffer {
        var buffer = Buffer(width: 12, height: 3)
        buffer.write("<a & \"b\">", at: .zero, style: Style(foreground: .red, modifiers: .bold))
        buffer.write("中x", at: Position(x: 0, y: 1), style: Style(background: .blue))
        buffer.write("rev", at: Position(x: 5, y: 2), style: Style(modifiers: .reverse))
        return buffer
    }

    @Test("Same buffer, byte-identical SVG")
    func deterministic() {
        #expect(Self.sample().svg() == Self.sample().svg())
        #expect(Self.sample().plainText() == Self.sample().plainText())
    }

    @Test("Text and attributes are XML-escaped")
    func escaping() {
        let svg = Self.sample().svg(theme: SVGTheme(fontFamily: "A&B \"Mono\""))
        #expect(svg.contains("&lt;a &amp; &quot;b&quot;&gt;"))
        #expect(svg.contains("font-family=\"A&amp;B &quot;Mono&quot;\""))
        #expect(!svg.contains("<a "))
    }

    @Test("Colours come from the xterm palette and the dark theme")
    func colours() {
        let svg = Self.sample().svg()
        #expect(svg.contains("fill=\"#cd0000\""), "red text")
        #expect(svg.contains("<rect x=\"0\" y=\"18\" width=\"27\" height=\"18\" fill=\"#0000ee\"/>"), "blue run of 3 cells")
        #expect(svg.contains("<rect x=\"45\" y=\"36\" width=\"27\" height=\"18\" fill=\"#d0d0d0\"/>"), "reverse video background")
        #expect(svg.contains("font-weight=\"bold\""))
        #expect(svg.hasPrefix("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"108\" height=\"54\""))
        #expect(XtermPalette.hex(of: 16) == "#000000" && XtermPalette.hex(of: 231) == "#ffffff")
        #expect(XtermPalette.hex(of: 232) == "#080808" && XtermPalette.hex(of: 255) == "#eeeeee")
        #expect(XtermPalette.hex(of: 67) == "#5f87af")
    }

    @Test("Wide glyphs get their own text element at their column")
    func wideGlyphs() {
        let svg = Self.sample().svg()
        #expect(svg.contains(">中</text>"))
        #expect(svg.contains("<text x=\"18\" y=\"32\" fill=\"#d0d0d0\" textLength=\"9\" lengthAdjust=\"spacingAndGlyphs\">x</text>"))
    }

    @Test("RGB maps to the nearest palette entry")
    func rgb() {
        #expect(Color.rgb(0, 0, 0) == .indexed(16))
        #expect(Color.rgb(255, 255, 255) == .indexed(231))
        #expect(Color.rgb(95, 135, 175) == .indexed(67))
        #expect(Color.rgb(128, 128, 128) == .indexed(244))
        #expect(Color.rgb(0x12, 0x12, 0x12) == .indexed(233))
    }
}
