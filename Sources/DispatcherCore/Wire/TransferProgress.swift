/// How far a response body being received is, for a progress line: bytes so far, the total when
/// the head declared one, and the rate since the first report. Times are readings of a clock the
/// caller injects (`DispatchClock.now()`), so the rate is computed without reading the wall time.
package struct TransferProgress: Sendable, Hashable {
    /// Bytes so far (a resumed download's earlier bytes included).
    package private(set) var received: Int
    /// The whole body's size, when known.
    package private(set) var expected: Int?
    /// The first report: bytes and clock reading, the base of the rate.
    private let firstReceived: Int
    private let firstAt: Duration
    /// The latest report's clock reading.
    package private(set) var at: Duration

    /// The first report.
    package init(received: Int, expected: Int?, at: Duration) {
        self.received = received
        self.expected = expected
        firstReceived = received
        firstAt = at
        self.at = at
    }

    /// A later report.
    package mutating func update(received: Int, expected: Int?, at: Duration) {
        self.received = max(self.received, received)
        self.expected = expected ?? self.expected
        self.at = max(self.at, at)
    }

    /// Bytes a second since the first report; nil until a quarter of a second has passed (too
    /// short a window says nothing).
    package var bytesPerSecond: Double? {
        let elapsed = (at - firstAt).seconds
        guard elapsed >= 0.25 else { return nil }
        return Double(received - firstReceived) / elapsed
    }

    /// `↓ 12 MB of 100 MB (12%) · 4.5 MB/s`; without a total, `↓ 12 MB · 4.5 MB/s`.
    package var text: String {
        var text = "↓ " + ByteCount.format(received)
        if let expected, expected > 0 {
            text += " of \(ByteCount.format(expected)) (\(min(100, received * 100 / expected))%)"
        }
        if let rate = bytesPerSecond { text += " · \(ByteCount.format(Int(rate.rounded())))/s" }
        return text
    }
}
