import TextSupport

/// An endpoint's last sends at a glance: p50, p95 and max of their times, how many ended with
/// each status (or error), and a sparkline of the times in the order they were sent.
package struct ResponseTimes: Sendable, Hashable {
    /// Times in microseconds, oldest first.
    package var times: [Int]
    /// Outcomes (`200`, `503`, `timedOut` …) and how many sends ended so, most frequent first.
    package var outcomes: [(outcome: String, count: Int)]

    package static func == (lhs: ResponseTimes, rhs: ResponseTimes) -> Bool {
        lhs.times == rhs.times && lhs.outcomes.map(\.outcome) == rhs.outcomes.map(\.outcome) && lhs.outcomes.map(\.count) == rhs.outcomes.map(\.count)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(times)
        for outcome in outcomes {
            hasher.combine(outcome.outcome)
            hasher.combine(outcome.count)
        }
    }

    /// The figures of sends: each one's time (nil: it had none, a stub) and outcome, oldest first.
    package init(_ sends: [(microseconds: Int?, outcome: String)]) {
        times = sends.compactMap(\.microseconds)
        var counts: [String: Int] = [:]
        var order: [String] = []
        for send in sends {
            if counts[send.outcome] == nil { order.append(send.outcome) }
            counts[send.outcome, default: 0] += 1
        }
        // Most frequent first; ties in the order first seen.
        outcomes = order.enumerated().sorted { a, b in
            let (countA, countB) = (counts[a.element]!, counts[b.element]!)
            return countA != countB ? countA > countB : a.offset < b.offset
        }.map { ($0.element, counts[$0.element]!) }
    }

    /// The `fraction` percentile by nearest rank (0.5: the median), nil without times.
    package func percentile(_ fraction: Double) -> Int? {
        guard !times.isEmpty else { return nil }
        let sorted = times.sorted()
        let rank = Int((fraction * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The longest time.
    package var maximum: Int? { times.max() }

    /// The times as a sparkline of at most `width` cells (the newest when there are more),
    /// lowest to highest as ▁ to █.
    package func sparkline(width: Int) -> String {
        let shown = times.suffix(max(width, 0))
        guard let low = shown.min(), let high = shown.max() else { return "" }
        let levels: [Character] = ["▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"]
        return String(shown.map { time in
            guard high > low else { return levels[0] }
            return levels[min(Int(Double(time - low) / Double(high - low) * Double(levels.count)), levels.count - 1)]
        })
    }

    /// `p50 12.3 ms  p95 40.1 ms  max 52.0 ms`, or nil without times.
    package var summary: String? {
        guard let p50 = percentile(0.5), let p95 = percentile(0.95), let maximum else { return nil }
        return "p50 \(Self.milliseconds(p50))  p95 \(Self.milliseconds(p95))  max \(Self.milliseconds(maximum))"
    }

    /// `200 ×18, 503 ×2`.
    package var outcomeSummary: String {
        outcomes.map { "\($0.outcome) ×\($0.count)" }.joined(separator: ", ")
    }

    /// Microseconds as `12.3 ms`.
    package static func milliseconds(_ microseconds: Int) -> String {
        DecimalText.fixed(Double(microseconds) / 1000, digits: 1) + " ms"
    }
}
