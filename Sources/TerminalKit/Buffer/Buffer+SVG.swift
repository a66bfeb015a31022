/// Colours and metrics for SVG export.
package struct SVGTheme: Hashable, Sendable {
    /// Colour of `.default` foreground cells.
    package var foreground: String
    /// Colour of `.default` background cells (and the whole image).
    package var background: String
    /// Font stack for the `font-family` attribute.
    package var fontFamily: String
    /// Font size in pixels; common monospace fonts advance 0.6 em, so 15 px fits 9 px cells even
    /// for renderers that ignore `textLength`.
    package var fontSize: Int
    /// Width of one cell in pixels.
    package var cellWidth: Int
    /// Height of one cell in pixels.
    package var cellHeight: Int

    /// Creates a theme.
    package init(
        foreground: String = "#d0d0d0", background: String = "#1c1c1c",
        fontFamily: String = "'DejaVu Sans Mono', 'Menlo', 'Consolas', monospace",
        fontSize: Int = 15, cellWidth: Int = 9, cellHeight: Int = 18
    ) {
        self.foreground = foreground
        self.background = background
        self.fontFamily = fontFamily
        self.fontSize = fontSize
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
    }

    /// A dark theme close to common terminal defaults.
    package static let dark = SVGTheme()
}

extension Buffer {
    /// A self-contained SVG picture of the grid. The same buffer always gives byte-identical output.
    ///
    /// One `rect` per run of equal non-default background, one `text` per run of equal style (each
    /// stretched to its exact column span with `textLength`), and one `text` per wide glyph so it
    /// lands on its two columns whatever the font's advance. Reverse video swaps the colours.
    package func svg(theme: SVGTheme = .dark) -> String {
        let pixelWidth = size.width * theme.cellWidth
        let pixelHeight = size.height * theme.cellHeight
        var out = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(pixelWidth)" height="\(pixelHeight)" \
        viewBox="0 0 \(pixelWidth) \(pixelHeight)">
        <rect width="100%" height="100%" fill="\(xmlEscaped(theme.background))"/>
        <g font-family="\(xmlEscaped(theme.fontFamily))" font-size="\(theme.fontSize)" xml:space="preserve">

        """
        let baseline = theme.cellHeight - (theme.cellHeight - theme.fontSize) / 2 - theme.fontSize / 5
        for y in 0..<size.height {
            let row = cells[(y * size.width)..<((y + 1) * size.width)].map { SVGCellLook($0, theme: theme) }
            appendBackgrounds(row, y: y, theme: theme, to: &out)
            appendTexts(row, y: y, baseline: y * theme.cellHeight + baseline, theme: theme, to: &out)
        }
        out += "</g>\n</svg>\n"
        return out
    }

    private func appendBackgrounds(_ row: [SVGCellLook], y: Int, theme: SVGTheme, to out: inout String) {
        var x = 0
        while x < row.count {
            let fill = row[x].background
            var end = x + 1
            while end < row.count && row[end].background == fill { end += 1 }
            if fill != xmlEscaped(theme.background) {
                out += "<rect x=\"\(x * theme.cellWidth)\" y=\"\(y * theme.cellHeight)\" "
                    + "width=\"\((end - x) * theme.cellWidth)\" height=\"\(theme.cellHeight)\" fill=\"\(fill)\"/>\n"
            }
            x = end
        }
    }

    private func appendTexts(_ row: [SVGCellLook], y: Int, baseline: Int, theme: SVGTheme, to out: inout String) {
        let rowStart = y * size.width
        var x = 0
        while x < row.count {
            let cell = cells[rowStart + x]
            if cell.isContinuation { x += 1; continue }
            var end = x + 1
            var text = cell.symbol
            let isWide = end < row.count && cells[rowStart + end].isContinuation
            if isWide {
                end += 1
            } else {
                while end < row.count, row[end].textStyle == row[x].textStyle,
                    !cells[rowStart + end].isContinuation,
                    !(end + 1 < row.count && cells[rowStart + end + 1].isContinuation) {
                    text += cells[rowStart + end].symbol
                    end += 1
                }
            }
            let look = row[x].textStyle
            var start = x, stop = end
            if !look.underline && !isWide {
                // Spaces need no text element: the background rect already paints them.
                while text.first == " " { text.removeFirst(); start += 1 }
                while text.last == " " { text.removeLast(); stop -= 1 }
            }
            if !text.isEmpty {
                var attributes = "x=\"\(start * theme.cellWidth)\" y=\"\(baseline)\" fill=\"\(look.color)\""
                if !isWide {
                    attributes += " textLength=\"\((stop - start) * theme.cellWidth)\" lengthAdjust=\"spacingAndGlyphs\""
                }
                if look.bold { attributes += " font-weight=\"bold\"" }
                if look.italic { attributes += " font-style=\"italic\"" }
                if look.underline { attributes += " text-decoration=\"underline\"" }
                if look.dim { attributes += " opacity=\"0.6\"" }
                out += "<text \(attributes)>\(xmlEscaped(text))</text>\n"
            }
            x = end
        }
    }
}

/// A cell's colours resolved against a theme, as SVG needs them.
private struct SVGCellLook {
    struct TextStyle: Equatable {
        var color: String
        var bold: Bool
        var italic: Bool
        var underline: Bool
        var dim: Bool
    }

    var background: String
    var textStyle: TextStyle

    init(_ cell: Cell, theme: SVGTheme) {
        var foreground = Self.hex(cell.foreground, default: theme.foreground)
        var background = Self.hex(cell.background, default: theme.background)
        if cell.modifiers.contains(.reverse) { swap(&foreground, &background) }
        self.background = background
        self.textStyle = TextStyle(
            color: foreground, bold: cell.modifiers.contains(.bold), italic: cell.modifiers.contains(.italic),
            underline: cell.modifiers.contains(.underline), dim: cell.modifiers.contains(.dim)
        )
    }

    static func hex(_ color: Color, default fallback: String) -> String {
        switch color {
        case .default: return xmlEscaped(fallback)
        case .indexed(let index): return XtermPalette.hex(of: index)
        }
    }
}

/// Text safe inside XML content and attribute values.
func xmlEscaped(_ text: String) -> String {
    guard text.contains(where: { "&<>\"'".contains($0) }) else { return text }
    var result = ""
    for character in text {
        switch character {
        case "&": result += "&amp;"
        case "<": result += "&lt;"
        case ">": result += "&gt;"
        case "\"": result += "&quot;"
        case "'": result += "&apos;"
        default: result.append(character)
        }
    }
    return result
}
