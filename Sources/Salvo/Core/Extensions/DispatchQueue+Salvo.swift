import Dispatch
import Synchronization

extension DispatchQueue {
    /// The main queue's label, read once.
    private static let mainQueueLabel = DispatchQueue.main.label

    /// The last queue found not to be the main queue, held strongly: while it is held no
    /// other object can take its address. (Held weakly, it got a side table, which made every
    /// retain and release of the handler queue, a dozen per request, take the slow path.)
    /// At most this one queue is kept alive past its owner, until another queue is asked about.
    private static let lastOtherQueue = Mutex<DispatchQueue?>(nil)

    /// Whether this is the main queue.
    ///
    /// On Linux `DispatchQueue.main` builds a new wrapper object on every access, so `===`
    /// cannot tell; the label can (the main queue's is reserved). Reading a label builds a
    /// `String` (~270 instructions), so the answer for the queue asked about last is kept:
    /// handlers usually name the same queue request after request.
    var isMainQueue: Bool {
        if Self.lastOtherQueue.withLock({ $0 === self }) { return false }
        guard label != Self.mainQueueLabel else { return true }
        Self.lastOtherQueue.withLock { $0 = self }
        return false
    }
}
