/// A small deterministic random number generator (SplitMix64): the same numbers from the same seed
/// on every machine, so a test that draws its inputs at random names the seed that makes them again.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The state; the seed to begin with.
    package var state: UInt64

    /// Starts from `seed`.
    package init(state seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
