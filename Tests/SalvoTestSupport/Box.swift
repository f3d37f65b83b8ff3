import Foundation

/// Holds a value handed over from another thread.
///
/// `@unchecked Sendable`: `storage` is read and written only under `lock`. An `NSLock` (a
/// pthread mutex) rather than `Synchronization.Mutex`, whose contended hand-over
/// ThreadSanitizer cannot see (`Scripts/tsan.sh`).
public final class Box<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: Value?

    /// An empty box.
    public init() {}

    /// The value set last, or `nil`.
    public var value: Value? { lock.withLock { storage } }

    /// Replaces the value.
    public func set(_ value: Value) { lock.withLock { storage = value } }
}
