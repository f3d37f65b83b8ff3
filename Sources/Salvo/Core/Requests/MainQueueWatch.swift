import Dispatch
import Synchronization

/// Whether this process drains the main queue, learnt by sending it one block.
///
/// An app, a test runner or `dispatchMain()` drains it; many servers never do. Salvo waits on
/// the main queue only once it has seen it run something, so such a server never waits on a
/// queue that will not run.
enum MainQueueWatch {
    private static let state = Atomic<UInt8>(0)  // 0: not asked, 1: block sent, 2: seen running

    /// Whether a block sent to the main queue has run.
    static var isDrained: Bool { state.load(ordering: .acquiring) == 2 }

    /// Sends the main queue its block, the first time only.
    static func watch() {
        guard state.compareExchange(expected: 0, desired: 1, ordering: .relaxed).exchanged else { return }
        DispatchQueue.main.async { state.store(2, ordering: .releasing) }
    }
}
