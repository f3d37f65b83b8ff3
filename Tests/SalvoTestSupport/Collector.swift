import Foundation

/// Collects values appended from many threads.
///
/// `@unchecked Sendable`: `storage` is read and written only under `lock`, an `NSLock` for the
/// reason `Box` gives.
public final class Collector<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [Value] = []

    /// An empty collector.
    public init() {}

    /// The values, in the order they were appended.
    public var values: [Value] { lock.withLock { storage } }

    /// Appends a value.
    public func append(_ value: Value) { lock.withLock { storage.append(value) } }
}
