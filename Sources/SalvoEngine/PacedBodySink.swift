import Dispatch
internal import CCurl

/// Where a body written as it arrives goes (the bulk downloader's files): from libcurl's write
/// callback, on the loop thread, straight to `consume`, without a copy or a hop to another
/// thread per chunk.
///
/// Only a 2xx answer's body is the file's: the bodies of redirects and interim answers are
/// dropped. With `onHead`, a 2xx answer's head is judged right there, on the loop thread,
/// before any of its body: no hop to another thread and back, and no pause while it is
/// judged; a head it refuses fails the transfer at its first body byte (the caller records
/// why first). With a rate budget (`pay`: the seconds to wait before a chunk of that many bytes may go, or
/// `nil` to let it go now), a chunk the budget cannot pay for yet pauses the
/// transfer (libcurl offers the same chunk again once it continues), and `wake` continues it
/// when the budget has refilled. Made per transfer by the bulk downloader's fetches
/// (`BulkFetch`) and used only on the loop thread.
package final class PacedBodySink: ResponseSink {
    /// Takes a piece of the body; returns `false` when it cannot, which fails the transfer
    /// with a write error (the caller records why first).
    package typealias Consume = @Sendable (UnsafeRawBufferPointer) -> Bool
    /// Judges a 2xx head: `true` to take the body.
    package typealias Judge = @Sendable (ResponseHead) -> Bool

    private let consume: Consume
    private let onHead: Judge?
    private var refused = false
    private let pay: (@Sendable (Int) -> Double?)?
    private let wake: @Sendable () -> Void
    private var discarding = true
    /// Paused for the budget: the client's choice, not the server's silence.
    private var waiting = false

    package init(pay: (@Sendable (Int) -> Double?)?, wake: @escaping @Sendable () -> Void, onHead: Judge? = nil, _ consume: @escaping Consume) {
        self.pay = pay
        self.wake = wake
        self.onHead = onHead
        self.consume = consume
    }

    package override func headersEnded(status: Int, isRedirect: Bool, rangeStart: Int64?) {
        discarding = !(200..<300).contains(status)
        refused = false
    }

    package override var wantsHead: Bool { onHead != nil }

    package override func headReceived(_ head: ResponseHead) {
        guard !discarding, let onHead else { return }
        refused = !onHead(head)
    }

    package override func write(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        if discarding { return count }
        if refused { return 0 }
        if let pay, let delay = pay(count) {
            waiting = true
            DispatchQueue.global().asyncAfter(deadline: .now() + delay, execute: wake)
            return SALVO_WRITEFUNC_PAUSE
        }
        waiting = false
        return consume(UnsafeRawBufferPointer(start: bytes, count: count)) ? count : 0
    }

    package override var holdsTransfer: Bool { waiting }
}
