/// How much of a split one segment wants.
package enum Constraint: Hashable, Sendable {
    /// Exactly `n` cells.
    case length(Int)
    /// `p` percent of the whole, rounded down.
    case percentage(Int)
    /// At least `n` cells; grows to take leftover space when no segment is `.fill`.
    case min(Int)
    /// At most `n` cells; takes `n` when there is room.
    case max(Int)
    /// A share of the leftover space in proportion to `weight`.
    case fill(Int)
}

/// Which way a layout splits.
package enum Direction: Hashable, Sendable {
    /// Segments stacked top to bottom.
    case vertical
    /// Segments side by side, left to right.
    case horizontal
}

/// Splits a rectangle into adjacent segments that always cover it exactly: no overflow, no gap.
///
/// Each segment first gets its nominal size (`.length(n)` and `.min(n)` and `.max(n)` → n,
/// `.percentage(p)` → ⌊total·p/100⌋, `.fill` → 0).
/// - Too little space: segments shrink in order of priority, percentages first, then maxima, then
///   lengths, then minima; within one group in proportion to their nominal sizes.
/// - Space left over: it goes to `.fill` segments by weight, else to `.min` segments equally, else to the
///   last segment.
/// Shares are rounded by the largest remainder, ties to the earlier segment, so results are deterministic.
package struct Layout: Hashable, Sendable {
    /// Split direction.
    package var direction: Direction
    /// One constraint per segment.
    package var constraints: [Constraint]

    /// Creates a layout.
    package init(_ direction: Direction, _ constraints: [Constraint]) {
        self.direction = direction
        self.constraints = constraints
    }

    /// Segments stacked top to bottom.
    package static func vertical(_ constraints: [Constraint]) -> Layout { Layout(.vertical, constraints) }
    /// Segments side by side.
    package static func horizontal(_ constraints: [Constraint]) -> Layout { Layout(.horizontal, constraints) }

    /// The segments of `area`, one per constraint, in order.
    package func split(_ area: Rect) -> [Rect] {
        let total = direction == .vertical ? area.height : area.width
        let sizes = Self.sizes(for: constraints, total: total)
        var rects: [Rect] = []
        rects.reserveCapacity(sizes.count)
        var offset = 0
        for length in sizes {
            switch direction {
            case .vertical: rects.append(Rect(x: area.x, y: area.y + offset, width: area.width, height: length))
            case .horizontal: rects.append(Rect(x: area.x + offset, y: area.y, width: length, height: area.height))
            }
            offset += length
        }
        return rects
    }

    /// The segment lengths for `total` cells; they always add up to `total` when there is a segment.
    package static func sizes(for constraints: [Constraint], total: Int) -> [Int] {
        guard !constraints.isEmpty else { return [] }
        let total = Swift.max(0, total)
        var sizes = constraints.map { constraint -> Int in
            switch constraint {
            case .length(let n), .min(let n), .max(let n): return clampedCount(n)
            case .percentage(let p): return total * Swift.min(100, Swift.max(0, p)) / 100
            case .fill: return 0
            }
        }
        var excess = sizes.reduce(0, +) - total
        if excess > 0 {
            // Shrink by priority group until the segments fit.
            let groups: [(Constraint) -> Bool] = [
                { if case .percentage = $0 { return true } else { return false } },
                { if case .max = $0 { return true } else { return false } },
                { if case .length = $0 { return true } else { return false } },
                { if case .min = $0 { return true } else { return false } },
            ]
            for inGroup in groups where excess > 0 {
                let members = constraints.indices.filter { inGroup(constraints[$0]) }
                let available = members.reduce(0) { $0 + sizes[$1] }
                guard available > 0 else { continue }
                let cut = Swift.min(excess, available)
                let cuts = distribute(cut, weights: members.map { sizes[$0] })
                for (member, amount) in zip(members, cuts) { sizes[member] -= amount }
                excess -= cut
            }
        } else if excess < 0 {
            let leftover = -excess
            let fills = constraints.indices.compactMap { index -> (Int, Int)? in
                if case .fill(let weight) = constraints[index] { return (index, clampedCount(weight)) }
                return nil
            }
            let mins = constraints.indices.filter { if case .min = constraints[$0] { return true } else { return false } }
            if !fills.isEmpty {
                let weights = fills.map(\.1).allSatisfy { $0 == 0 } ? fills.map { _ in 1 } : fills.map(\.1)
                for ((index, _), share) in zip(fills, distribute(leftover, weights: weights)) { sizes[index] += share }
            } else if !mins.isEmpty {
                for (index, share) in zip(mins, distribute(leftover, weights: mins.map { _ in 1 })) { sizes[index] += share }
            } else {
                sizes[sizes.count - 1] += leftover
            }
        }
        return sizes
    }

    /// Keeps absurd requests from overflowing the proportional arithmetic.
    private static func clampedCount(_ n: Int) -> Int { Swift.min(Swift.max(0, n), 1 << 24) }

    /// Splits `amount` in proportion to `weights` (not all zero), largest remainder first, ties to the earlier.
    static func distribute(_ amount: Int, weights: [Int]) -> [Int] {
        let weightSum = weights.reduce(0, +)
        guard weightSum > 0 else { return weights.map { _ in 0 } }
        var shares = weights.map { amount * $0 / weightSum }
        var remaining = amount - shares.reduce(0, +)
        let order = weights.indices.sorted { lhs, rhs in
            let left = amount * weights[lhs] % weightSum, right = amount * weights[rhs] % weightSum
            return left != right ? left > right : lhs < rhs
        }
        var cursor = 0
        while remaining > 0 {
            let index = order[cursor % order.count]
            // Never hand a cell to a zero-weight segment while shrinking or growing by proportion.
            if weights[index] > 0 { shares[index] += 1; remaining -= 1 }
            cursor += 1
        }
        return shares
    }

    /// A `width`×`height` rectangle centred in `area`, shrunk to fit it.
    package static func centered(width: Int, height: Int, in area: Rect) -> Rect {
        let width = Swift.min(Swift.max(0, width), area.width)
        let height = Swift.min(Swift.max(0, height), area.height)
        return Rect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2, width: width, height: height)
    }

    /// A rectangle centred in `area` taking the given percentages of its width and height.
    package static func centered(widthPercent: Int, heightPercent: Int, in area: Rect) -> Rect {
        centered(
            width: area.width * Swift.min(100, Swift.max(0, widthPercent)) / 100,
            height: area.height * Swift.min(100, Swift.max(0, heightPercent)) / 100, in: area
        )
    }
}
