import Dispatch
import Synchronization

/// Keeps a fixed number of callback-style requests outstanding until a total have
/// completed: each completion starts the next request. Thread-safe, so completions may
/// arrive on any queue. With `times`, it records each request's time: it notes when it
/// issues a request, and the request's completion hands that back to `complete`.
final class InflightLoop: Sendable {
    private struct State {
        var issued = 0
        var completed = 0
        var failures = 0
    }

    private let total: Int
    private let state = Mutex(State())
    private let finished = DispatchSemaphore(value: 0)
    private let times: RequestTimes?
    private let issue: @Sendable (InflightLoop, RequestTimes.Start) -> Void

    /// - Parameters:
    ///   - total: Requests to complete.
    ///   - times: Where each request's time goes, or `nil` (the warm-up, the transfers).
    ///   - issue: Starts one request, whose completion calls `complete(_:failed:)` with the
    ///     start it was given.
    init(total: Int, times: RequestTimes? = nil, issue: @escaping @Sendable (InflightLoop, RequestTimes.Start) -> Void) {
        self.total = total
        self.times = times
        self.issue = issue
    }

    /// Starts `inflight` requests and blocks until `total` have completed.
    /// - Returns: How many failed.
    func run(inflight: Int) -> Int {
        guard total > 0 else { return 0 }
        let first = min(inflight, total)
        state.withLock { $0.issued = first }
        for _ in 0..<first { issue(self, RequestTimes.now()) }
        finished.wait()
        return state.withLock { $0.failures }
    }

    /// Called once per request when it completes, with the start `issue` was given.
    func complete(_ start: RequestTimes.Start, failed: Bool) {
        times?.record(start)
        let (next, done) = state.withLock { state -> (Bool, Bool) in
            state.completed += 1
            if failed { state.failures += 1 }
            if state.issued < total {
                state.issued += 1
                return (true, false)
            }
            return (false, state.completed == total)
        }
        if next {
            issue(self, RequestTimes.now())
        } else if done {
            finished.signal()
        }
    }
}
