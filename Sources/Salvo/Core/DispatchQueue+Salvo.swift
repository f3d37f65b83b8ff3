import Dispatch
import Synchronization

extension DispatchQueue {
    /// The main queue's label, read once.
    private static let mainQueueLabel = DispatchQueue.main.label

    /// The last queue found not to be the main queue, held weakly: a queue its owner drops
    /// is not kept alive, and a freed queue reads as `nil`, so no other queue object can be
    /// taken for it.
    private static let lastOtherQueue = Mutex<WeakQueue>(WeakQueue())

    private struct WeakQueue {
        weak var queue: DispatchQueue?
    }

    /// Whether this is the main queue.
    ///
    /// On Linux `DispatchQueue.main` builds a new wrapper object on every access, so `===`
    /// cannot tell; the label can (the main queue's is reserved). Reading a label builds a
    /// `String` (~270 instructions), so the answer for the queue asked about last is kept:
    /// handlers usually name the same queue request after request.
    var isMainQueue: Bool {
        if Self.lastOtherQueue.withLock({ $0.queue === self }) { return false }
        guard label != Self.mainQueueLabel else { return true }
        Self.lastOtherQueue.withLock { $0.queue = self }
        return false
    }
}
