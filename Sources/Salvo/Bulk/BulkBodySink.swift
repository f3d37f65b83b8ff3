import Dispatch
internal import CCurl

/// Where a bulk file's body goes: from libcurl's write callback, on the loop thread, straight
/// into the partial file, without a copy or a hop to another thread per chunk.
///
/// Only a 2xx answer's body is the file's: the bodies of redirects and interim answers are
/// dropped. With `onHead`, a 2xx answer's head is judged right there, on the loop thread,
/// before any of its body: no hop to another thread and back, and no pause while it is
/// judged; a head it refuses fails the transfer at its first body byte (the caller records
/// why first). With a run-wide rate budget, a chunk the budget cannot pay for yet pauses the
/// transfer (libcurl offers the same chunk again once it continues), and `wake` continues it
/// when the budget has refilled. Made per attempt (`DataStreamRequest.writeBody(with:)`) and
/// used only on the loop thread.
final class BulkBodySink: ResponseSink {
    /// Takes a piece of the body; returns `false` when it cannot, which fails the transfer
    /// with a write error (the caller records why first).
    typealias Consume = @Sendable (UnsafeRawBufferPointer) -> Bool
    /// Judges a 2xx head: `true` to take the body.
    typealias Judge = @Sendable (ResponseHead) -> Bool

    private let consume: Consume
    private let onHead: Judge?
    private var refused = false
    private let budget: BulkRateBudget?
    private let wake: @Sendable () -> Void
    private var discarding = true
    /// Paused for the budget: the client's choice, not the server's silence.
    private var waiting = false

    init(budget: BulkRateBudget?, wake: @escaping @Sendable () -> Void, onHead: Judge? = nil, _ consume: @escaping Consume) {
        self.budget = budget
        self.wake = wake
        self.onHead = onHead
        self.consume = consume
    }

    override func headersEnded(status: Int, isRedirect: Bool, rangeStart: Int64?) {
        discarding = !(200..<300).contains(status)
        refused = false
    }

    override var wantsHead: Bool { onHead != nil }

    override func headReceived(_ head: ResponseHead) {
        guard !discarding, let onHead else { return }
        refused = !onHead(head)
    }

    override func write(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        if discarding { return count }
        if refused { return 0 }
        if let budget, let delay = budget.take(count) {
            waiting = true
            DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: wake)
            return SALVO_WRITEFUNC_PAUSE
        }
        waiting = false
        return consume(UnsafeRawBufferPointer(start: bytes, count: count)) ? count : 0
    }

    override var holdsTransfer: Bool { waiting }
}
