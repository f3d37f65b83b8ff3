import Dispatch

extension DispatchQueue {
    /// The main queue's label, read once.
    private static let mainQueueLabel = DispatchQueue.main.label

    /// Whether this is the main queue.
    ///
    /// On Linux `DispatchQueue.main` builds a new wrapper object on every access, so `===`
    /// cannot tell; the label can (the main queue's is reserved).
    var isMainQueue: Bool { label == Self.mainQueueLabel }
}
