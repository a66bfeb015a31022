import Foundation

/// Summary statistics of repeated measurements.
struct Measurements {
    private(set) var samples: [Double] = []

    mutating func add(_ value: Double) { samples.append(value) }

    var sorted: [Double] { samples.sorted() }
    var median: Double { percentile(50) }
    var minimum: Double { sorted.first ?? 0 }
    var maximum: Double { sorted.last ?? 0 }

    /// The p-th percentile (nearest rank).
    func percentile(_ p: Double) -> Double {
        let values = sorted
        guard !values.isEmpty else { return 0 }
        let rank = Int((p / 100 * Double(values.count)).rounded(.up)) - 1
        return values[min(max(rank, 0), values.count - 1)]
    }
}

extension Duration {
    /// The duration in nanoseconds.
    var nanoseconds: Double { Double(components.seconds) * 1e9 + Double(components.attoseconds) / 1e9 }
}

/// Formats nanoseconds as ns, µs or ms.
func formatNanoseconds(_ value: Double) -> String {
    if value < 1_000 { return String(format: "%.0f ns", value) }
    if value < 1_000_000 { return String(format: "%.2f µs", value / 1_000) }
    return String(format: "%.2f ms", value / 1_000_000)
}

/// Says so when the benchmark binary was built without optimisation.
func warnIfDebugBuild() {
    #if DEBUG
    print("warning: this is a debug build; build with `scripts/build-release apiexplorer apiexplorer-bench` for real figures\n")
    #endif
}
