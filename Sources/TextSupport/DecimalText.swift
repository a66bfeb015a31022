/// Numbers written for people with a fixed number of decimals, as `String(format: "%.1f")` did
/// (FoundationEssentials has no `String(format:)`): rounded half away from zero.
package enum DecimalText {
    /// `value` with exactly `digits` decimals (`1.25`, 1 → `1.3`; 2, 0 → `2`).
    package static func fixed(_ value: Double, digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<max(0, digits) { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9.0e18 else { return "\(value)" }
        let whole = UInt64(scaled)
        let sign = value < 0 && whole != 0 ? "-" : ""
        let divisor = UInt64(scale)
        guard digits > 0 else { return sign + String(whole) }
        let fraction = String(whole % divisor).leftPadded(to: digits, with: "0")
        return "\(sign)\(whole / divisor).\(fraction)"
    }

    /// `value` zero-padded to `width` digits (`7`, 2 → `07`).
    package static func zeroPadded(_ value: Int, width: Int) -> String {
        value < 0 ? "-" + String(-value).leftPadded(to: width - 1, with: "0") : String(value).leftPadded(to: width, with: "0")
    }
}
