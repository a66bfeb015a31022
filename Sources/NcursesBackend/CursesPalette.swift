import CNcursesw
import TerminalKit

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Colour pairs allocated on demand and cached; indices beyond the terminal's palette are mapped
/// to the nearest colour it has (16 or 8), and with colours off every cell uses pair 0.
struct CursesPalette {
    private let usesColor: Bool
    private let colorCount: Int
    private let pairLimit: Int32
    private var pairs: [Int32: Int32] = [:]
    private var nextPair: Int32 = 1

    /// Starts colour support when wanted and available (call after `newterm`).
    init(usesColor wanted: Bool) {
        var enabled = false
        if wanted && has_colors() {
            enabled = start_color() == OK
            if enabled { use_default_colors() }
        }
        usesColor = enabled
        colorCount = enabled ? Int(nc_colors()) : 0
        pairLimit = enabled ? min(Int32(nc_color_pairs()) - 1, Int32(Int16.max)) : 0
    }

    /// The curses attributes for modifiers (kept even without colours).
    func attributes(for modifiers: Modifiers) -> attr_t {
        var result = nc_attr_normal()
        if modifiers.contains(.bold) { result |= nc_attr_bold() }
        if modifiers.contains(.dim) { result |= nc_attr_dim() }
        if modifiers.contains(.italic) { result |= nc_attr_italic() }
        if modifiers.contains(.underline) { result |= nc_attr_underline() }
        if modifiers.contains(.reverse) { result |= nc_attr_reverse() }
        return result
    }

    /// The pair for two colours, allocating it the first time; pair 0 (terminal defaults) when
    /// colours are off or the terminal has no pairs left.
    mutating func pair(foreground: Color, background: Color) -> Int32 {
        guard usesColor else { return 0 }
        let fg = fitted(foreground), bg = fitted(background)
        if fg == -1 && bg == -1 { return 0 }
        let key = (Int32(fg) + 1) << 16 | (Int32(bg) + 1)
        if let pair = pairs[key] { return pair }
        guard nextPair <= pairLimit, init_pair(Int16(nextPair), fg, bg) == OK else { return 0 }
        let pair = nextPair
        pairs[key] = pair
        nextPair += 1
        return pair
    }

    /// A colour number the terminal can show: -1 for the default, else an index below its count.
    private func fitted(_ color: Color) -> Int16 {
        guard let index = color.index else { return -1 }
        if Int(index) < colorCount { return Int16(index) }
        // 8-colour terminals: bright ANSI colours become their normal twins, greys black or white.
        if colorCount < 16 {
            if index < 16 { return Int16(index - 8) }
            let rgb = XtermPalette.rgb(of: index)
            let high = max(rgb.red, rgb.green, rgb.blue), low = min(rgb.red, rgb.green, rgb.blue)
            if Int(high) - Int(low) < 40 { return high < 0x70 ? 0 : 7 }
        }
        return Self.nearest(to: index, among: colorCount >= 16 ? 16 : max(1, min(8, colorCount)))
    }

    /// The ANSI colour (below `count`) closest to a palette entry, by squared RGB distance.
    private static func nearest(to index: UInt8, among count: Int) -> Int16 {
        let target = XtermPalette.rgb(of: index)
        var best = 0, bestDistance = Int.max
        for candidate in 0..<count {
            let rgb = XtermPalette.rgb(of: UInt8(candidate))
            let dr = Int(rgb.red) - Int(target.red), dg = Int(rgb.green) - Int(target.green), db = Int(rgb.blue) - Int(target.blue)
            let distance = dr * dr + dg * dg + db * db
            if distance < bestDistance { best = candidate; bestDistance = distance }
        }
        return Int16(best)
    }
}
