import Synchronization

/// Counts down from a number of events, from any thread; the one that reaches zero is told so
/// (later ones are not), which also makes `Countdown(1)` a once-only flag between racers.
final class Countdown: Sendable {
    private let left: Atomic<Int>

    init(_ count: Int) { left = Atomic(count) }

    /// One event happened; true for the one that reached zero.
    func tick() -> Bool { left.subtract(1, ordering: .acquiringAndReleasing).newValue == 0 }
}
