import Foundation

/// A serializing handler's response, worked out when an attempt succeeds so that retriers can
/// act on a serialization failure, as Alamofire's do, and then kept for the handler, which
/// serializes nothing a second time.
///
/// Made only for requests that have a retrier when the handler is added: the others never
/// retry, and serialize once, when their handler runs.
protocol HandlerSerializing: AnyObject, Sendable {
    /// The serialization error the handler's response would carry, if any.
    func failure() -> AFError?
    /// Forgets the worked-out response: a retry follows, after which it is worked out again.
    func reset()
    /// Makes the worked-out response fail with `error` instead: what a retrier's
    /// `.doNotRetryWithError` gives the handler whose serializer failed.
    func replaceFailure(with error: AFError)
}

final class HandlerSerialization<Value: Sendable>: HandlerSerializing, @unchecked Sendable { // `cached` only under `lock`
    private let lock = NSLock()
    private var cached: AFDataResponse<Value>?
    private let serialize: @Sendable () -> AFDataResponse<Value>

    init(_ serialize: @escaping @Sendable () -> AFDataResponse<Value>) {
        self.serialize = serialize
    }

    func failure() -> AFError? {
        let response = serialize()
        lock.withLock { cached = response }
        if case let .failure(error) = response.result, error.isResponseSerializationError { return error }
        return nil
    }

    func reset() {
        lock.withLock { cached = nil }
    }

    func replaceFailure(with error: AFError) {
        lock.withLock { cached = cached?.mapError { _ in error } }
    }

    /// The worked-out response, or one serialized now.
    func response() -> AFDataResponse<Value> {
        if let kept = lock.withLock({ () -> AFDataResponse<Value>? in
            defer { cached = nil }
            return cached
        }) { return kept }
        return serialize()
    }
}
