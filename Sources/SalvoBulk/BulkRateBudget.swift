import Dispatch
import Synchronization
import Salvo

/// The bytes per second a whole run may receive (aria2's `--max-overall-download-limit`),
/// shared by every transfer of the run: a token bucket the files' sinks draw on as their
/// bytes arrive.
///
/// libcurl limits one transfer (`CURLOPT_MAX_RECV_SPEED_LARGE`) but not a group of them, so
/// the run limits itself: a sink that finds the bucket empty pauses its transfer and asks
/// again after the time the bucket takes to refill. A chunk is taken whole when the bucket
/// holds anything, which may leave it in debt by up to one chunk; the debt is paid before
/// the next chunk. The bucket holds at most a tenth of a second of bytes (at least 16 KiB),
/// so an idle moment does not buy a burst far above the rate.
final class BulkRateBudget: Sendable {
    /// The rate, in bytes per second; above 0.
    let bytesPerSecond: Int64
    /// The most bytes the bucket holds.
    let capacity: Double
    private struct State {
        var tokens: Double
        var last: UInt64
        var pauses = 0
    }
    private let state: Mutex<State>

    /// - Parameters:
    ///   - bytesPerSecond: The rate; above 0.
    ///   - now: The clock's reading, in nanoseconds (`DispatchTime`'s uptime by default).
    init(bytesPerSecond: Int64, now: UInt64 = DispatchTime.now().uptimeNanoseconds) {
        self.bytesPerSecond = max(1, bytesPerSecond)
        capacity = max(16 * 1024, Double(self.bytesPerSecond) / 10)
        state = Mutex(State(tokens: capacity, last: now))
    }

    /// Takes `count` bytes at `now` (nanoseconds on the same clock as `init`).
    ///
    /// - Returns: `nil` when the bytes are taken; otherwise the seconds to wait before asking
    ///   again (the bytes are not taken).
    /// `take` for a body sink (`PacedBodySink`): the seconds to wait before `count` bytes may
    /// go, or `nil` to let them go now.
    var pay: @Sendable (Int) -> Double? { { self.take($0) } }

    func take(_ count: Int, now: UInt64 = DispatchTime.now().uptimeNanoseconds) -> Double? {
        let rate = Double(bytesPerSecond)
        return state.withLock { state -> Double? in
            if now > state.last {
                state.tokens = min(capacity, state.tokens + Double(now - state.last) / 1e9 * rate)
                state.last = now
            }
            if state.tokens > 0 {
                state.tokens -= Double(count)
                return nil
            }
            state.pauses += 1
            // Until the debt is paid and a little more: at least a millisecond, so a crowd
            // of paused transfers does not spin.
            return max(0.001, (-state.tokens + 1) / rate)
        }
    }

    /// How many times a transfer was paused for the budget.
    var pauses: Int { state.withLock { $0.pauses } }
}
