/// A small seeded generator (SplitMix64), so generated inputs and random schedules are the
/// same in every run and a failure can be replayed.
public struct SplitMix64: Sendable {
    private var state: UInt64

    /// A generator whose sequence `seed` fixes.
    public init(seed: UInt64) { state = seed }

    /// The next value.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One of `choices`, which must not be empty.
    public mutating func pick<Element>(_ choices: [Element]) -> Element {
        choices[Int(next() % UInt64(choices.count))]
    }
}
