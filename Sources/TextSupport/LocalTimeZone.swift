import FoundationEssentials

/// The offsets from UTC a place keeps, as periods: what writing a local clock time needs, as a
/// plain value (views take it as input; nothing is looked up while drawing).
///
/// FoundationEssentials' `TimeZone` has no zone database without ICU: there `TimeZone.current` is
/// always GMT. The system's zone is sampled from the C library instead (`LocalTimeZone.system` in
/// SystemSupport), around the present; outside the sampled years the nearest period's offset holds.
package struct LocalTimeZone: Sendable, Hashable {
    /// From `start` (seconds since 1970) on, until the next period, local time is UTC plus `secondsFromGMT`.
    package struct Period: Sendable, Hashable {
        /// When the period begins, in seconds since 1970 (UTC).
        package var start: Int64
        /// Local time minus UTC, in seconds.
        package var secondsFromGMT: Int

        /// Makes a period.
        package init(start: Int64, secondsFromGMT: Int) {
            self.start = start
            self.secondsFromGMT = secondsFromGMT
        }
    }

    /// The periods, by start; the first one's offset also holds before it.
    package let periods: [Period]

    /// UTC.
    package static let utc = LocalTimeZone(secondsFromGMT: 0)

    /// A zone that keeps one offset.
    package init(secondsFromGMT: Int) {
        periods = [Period(start: .min, secondsFromGMT: secondsFromGMT)]
    }

    /// A zone from its periods (sorted here; an empty list is UTC). Periods that keep the
    /// offset of the one before are merged.
    package init(periods: [Period]) {
        var merged: [Period] = []
        for period in periods.sorted(by: { $0.start < $1.start }) where merged.last?.secondsFromGMT != period.secondsFromGMT {
            merged.append(period)
        }
        self.periods = merged.isEmpty ? LocalTimeZone.utc.periods : merged
    }

    /// Local time minus UTC at `date`, in seconds.
    package func secondsFromGMT(for date: Date) -> Int {
        secondsFromGMT(at: Int64(date.timeIntervalSince1970.rounded(.down)))
    }

    /// Local time minus UTC at `instant` (seconds since 1970), in seconds.
    package func secondsFromGMT(at instant: Int64) -> Int {
        // The last period starting at or before the instant.
        var low = 0
        var high = periods.count
        while high - low > 1 {
            let middle = (low + high) / 2
            if periods[middle].start <= instant { low = middle } else { high = middle }
        }
        return periods[low].secondsFromGMT
    }

    /// Samples a zone's offsets from `start` to `end` (seconds since 1970): every `step` seconds,
    /// and to the second where two samples differ. Changes closer together than `step` may be
    /// missed (no zone changes twice in a week).
    package static func sampling(
        from start: Int64, to end: Int64, step: Int64 = 7 * 86_400, offsetAt: (Int64) -> Int
    ) -> LocalTimeZone {
        var periods = [Period(start: .min, secondsFromGMT: offsetAt(start))]
        var previous = start
        var previousOffset = periods[0].secondsFromGMT
        while previous < end {
            let next = min(previous + step, end)
            let nextOffset = offsetAt(next)
            if nextOffset != previousOffset {
                // The change lies in (previous, next]: the first second with the new offset.
                var low = previous
                var high = next
                while high - low > 1 {
                    let middle = low + (high - low) / 2
                    if offsetAt(middle) == previousOffset { low = middle } else { high = middle }
                }
                periods.append(Period(start: high, secondsFromGMT: nextOffset))
            }
            previous = next
            previousOffset = nextOffset
        }
        return LocalTimeZone(periods: periods)
    }
}
