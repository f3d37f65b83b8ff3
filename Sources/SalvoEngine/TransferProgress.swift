import Foundation

/// Progress reporting for one transfer, attached only when someone listens (a progress
/// handler, or a delegate or monitor hearing URLSession's progress events): without it
/// libcurl's progress callback is never installed.
///
/// libcurl calls back many times a second; `ProgressThrottle` passes on an update only when
/// 50 ms have gone by or the fraction done has grown by 1%, and the final "all done" one only
/// to a receiver that asks for it: the request layer sends its own, exactly 1.0, when the
/// request succeeds.
package final class TransferProgress {
    /// Sends upload updates on; `nil` when no one listens.
    package let upload: ProgressThrottle?
    /// Sends download updates on; `nil` when no one listens.
    package let download: ProgressThrottle?

    package init(upload: ProgressThrottle?, download: ProgressThrottle?) {
        self.upload = upload
        self.download = download
    }
}

/// Decides which of libcurl's progress calls become updates (loop thread only).
package final class ProgressThrottle {
    /// Receives `(completed, total)` bytes on the loop thread; it must only hand the values
    /// to a queue (it is the request layer's, never user code).
    private let report: @Sendable (Int64, Int64) -> Void
    /// Whether the update with everything done is passed on too (see `init`).
    private let reportsLast: Bool
    private var lastTime: UInt64 = 0
    private var lastCompleted: Int64 = -1
    private var lastFraction = 0.0

    package static let interval: UInt64 = 50_000_000
    package static let step = 0.01

    /// - Parameter reportsLast: Whether the update with everything done is passed on too, for
    ///   a receiver that, like URLSession's delegate, hears of the last bytes that way (the
    ///   request layer's `Progress` gets its closing update when the request succeeds).
    package init(reportsLast: Bool = false, report: @escaping @Sendable (Int64, Int64) -> Void) {
        self.reportsLast = reportsLast
        self.report = report
    }

    @inline(__always)
    package func update(completed: Int64, total: Int64) {
        guard completed != lastCompleted, completed > 0 else { return }
        // The last update belongs to the request layer, sent once the request succeeded.
        let isLast = total > 0 && completed >= total
        if isLast && !reportsLast { return }
        let now = DispatchTime.now().uptimeNanoseconds
        let fraction = total > 0 ? Double(completed) / Double(total) : 0
        guard isLast || now &- lastTime >= Self.interval || fraction - lastFraction >= Self.step else { return }
        lastTime = now
        lastCompleted = completed
        lastFraction = fraction
        report(completed, total)
    }

    /// The transfer ended well: a receiver of the last update hears the final count, which
    /// libcurl's progress callback need not have reported.
    package func finish(completed: Int64, total: Int64) {
        guard reportsLast, completed > 0, completed != lastCompleted else { return }
        lastCompleted = completed
        report(completed, total)
    }
}
