/// The median and 99th percentile of the time per request, issue to completion seen, over
/// every measured request of every round together: a percentile of round medians would
/// hide the slow requests of a round, and a percentile of a few thousand times per round
/// moves more than one over all of them.
struct RequestTimePercentiles {
    /// The requests timed.
    let requests: Int
    let medianMicroseconds: Double
    let p99Microseconds: Double

    /// `nil` when no request was timed.
    init?(nanoseconds: [UInt64]) {
        guard !nanoseconds.isEmpty else { return nil }
        let sorted = nanoseconds.sorted()
        // Nearest rank: the shortest time that at least `fraction` of the requests took no longer than.
        func percentile(_ fraction: Double) -> Double {
            let rank = Int((fraction * Double(sorted.count)).rounded(.up))
            return Double(sorted[max(rank, 1) - 1]) / 1000
        }
        requests = sorted.count
        medianMicroseconds = percentile(0.5)
        p99Microseconds = percentile(0.99)
    }
}
