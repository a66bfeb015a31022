extension Color {
    /// The palette index a terminal with `count` colours shows for this colour: the index itself
    /// when the terminal has it, else the nearest colour it has; nil for the terminal's default
    /// colour, or when the terminal has no colours at all.
    ///
    /// On 8-colour terminals bright ANSI colours become their normal twins and greys become black
    /// or white, so dim text stays readable; other entries take the nearest ANSI colour by RGB.
    package func fitted(toColorCount count: Int) -> UInt8? {
        guard let index, count > 0 else { return nil }
        if Int(index) < count { return index }
        if count < 16 {
            // Bright black is a grey: as black it would vanish on a dark background (borders under
            // `TERM=screen`), so it becomes the light grey of white.
            if index == 8 { return 7 }
            if index > 8 && index < 16 { return index - 8 }
            let rgb = XtermPalette.rgb(of: index)
            let high = max(rgb.red, rgb.green, rgb.blue), low = min(rgb.red, rgb.green, rgb.blue)
            if Int(high) - Int(low) < 40 { return high < 0x70 ? 0 : 7 }
        }
        return Self.nearestANSI(to: index, among: count >= 16 ? 16 : max(1, min(8, count)))
    }

    /// The ANSI colour (below `count`) closest to a palette entry, by squared RGB distance.
    private static func nearestANSI(to index: UInt8, among count: Int) -> UInt8 {
        let target = XtermPalette.rgb(of: index)
        var best = 0, bestDistance = Int.max
        for candidate in 0..<count {
            let rgb = XtermPalette.rgb(of: UInt8(candidate))
            let dr = Int(rgb.red) - Int(target.red), dg = Int(rgb.green) - Int(target.green), db = Int(rgb.blue) - Int(target.blue)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance { best = candidate; bestDistance = distance }
        }
        return UInt8(best)
    }
}
