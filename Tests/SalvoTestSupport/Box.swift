import Synchronization

/// Holds a value handed over from another thread.
public final class Box<Value: Sendable>: Sendable {
    private let storage = Mutex<Value?>(nil)

    /// An empty box.
    public init() {}

    /// The value set last, or `nil`.
    public var value: Value? { storage.withLock { $0 } }

    /// Replaces the value.
    public func set(_ value: Value) { storage.withLock { $0 = value } }
}
