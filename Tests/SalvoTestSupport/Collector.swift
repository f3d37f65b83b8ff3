import Synchronization

/// Collects values appended from many threads.
public final class Collector<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])

    /// An empty collector.
    public init() {}

    /// The values, in the order they were appended.
    public var values: [Value] { storage.withLock { $0 } }

    /// Appends a value.
    public func append(_ value: Value) { storage.withLock { $0.append(value) } }
}
