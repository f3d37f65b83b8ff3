import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - DataTask

/// A handle to `await` a `DataRequest`'s serialized response.
///
/// Made by `DataRequest.serializingData()`, `serializingString()`, `serializingDecodable(_:)`
/// and `serializingResponse(using:)`. Any number of tasks may read `response`, `result` or
/// `value`, any number of times; the request is serialized once and they all get the same
/// response.
///
/// The serializer runs on the session's `serializationQueue` and the awaiting task resumes
/// on its own executor: nothing passes through the main queue, which server processes may
/// never drain.
///
/// - Note: Unlike Alamofire, which wraps the response handler in an unstructured `Task`,
///   Salvo adds the handler when the `DataTask` is made, so the request starts at once
///   (when the session starts requests immediately) without a task hop.
public struct DataTask<Value: Sendable>: Sendable {
    /// The response, once the request has completed and been serialized.
    ///
    /// When the `DataTask` was made with `automaticallyCancelling: true` (the default),
    /// cancelling the awaiting Swift task cancels the request, which then completes with
    /// `AFError.explicitlyCancelled`.
    @inlinable
    public var response: DataResponse<Value, AFError> {
        get async { await future.value(cancelling: shouldAutomaticallyCancel ? request : nil) }
    }

    /// The serialized result of `response`.
    @inlinable
    public var result: Result<Value, AFError> {
        get async { await response.result }
    }

    /// The serialized value of `response`.
    ///
    /// - Throws: The `AFError` the request or its serializer failed with.
    @inlinable
    public var value: Value {
        get async throws { try await result.get() }
    }

    // Inlinable, with what they read: awaited from another module, unspecialized generic code
    // instantiated type metadata on every call (~5,800 instructions a request).
    @usableFromInline let request: DataRequest
    @usableFromInline let future: ResponseFuture<DataResponse<Value, AFError>>
    @usableFromInline let shouldAutomaticallyCancel: Bool

    fileprivate init(request: DataRequest, future: ResponseFuture<DataResponse<Value, AFError>>, shouldAutomaticallyCancel: Bool) {
        self.request = request
        self.future = future
        self.shouldAutomaticallyCancel = shouldAutomaticallyCancel
    }

    /// Cancels the request; every reader of `response` gets `AFError.explicitlyCancelled`
    /// unless it had already completed.
    public func cancel() {
        request.cancel()
    }

    /// Resumes the request.
    public func resume() {
        request.resume()
    }

    /// Suspends the request.
    public func suspend() {
        request.suspend()
    }
}

// MARK: - DataRequest

extension DataRequest {
    /// Makes a `DataTask` that awaits the body as `Data`.
    ///
    /// - Parameters:
    ///   - shouldAutomaticallyCancel: Whether cancelling the Swift task awaiting the
    ///     `DataTask`'s properties cancels the request. `true` by default.
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    /// - Returns: The `DataTask`.
    public func serializingData(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                                emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                                emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods) -> DataTask<Data> {
        builtInDataTask(using: DataResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                      emptyRequestMethods: emptyRequestMethods),
                        automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DataTask` that awaits the body decoded into a `Decodable` type.
    ///
    /// - Parameters:
    ///   - type: The type to decode. Inferred by default.
    ///   - shouldAutomaticallyCancel: Whether cancelling the Swift task awaiting the
    ///     `DataTask`'s properties cancels the request. `true` by default.
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - decoder: Decodes the body. `JSONDecoder()` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    /// - Returns: The `DataTask`.
    public func serializingDecodable<Value: Decodable & Sendable>(_ type: Value.Type = Value.self,
                                                                  automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                                                  dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
                                                                  decoder: any DataDecoder = JSONDecoder(),
                                                                  emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
                                                                  emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods)
        -> DataTask<Value> {
        builtInDataTask(using: DecodableResponseSerializer<Value>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                                                  emptyResponseCodes: emptyResponseCodes,
                                                                  emptyRequestMethods: emptyRequestMethods),
                        automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DataTask` that awaits the body decoded as a `String`.
    ///
    /// - Parameters:
    ///   - shouldAutomaticallyCancel: Whether cancelling the Swift task awaiting the
    ///     `DataTask`'s properties cancels the request. `true` by default.
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - encoding: The encoding to decode with. `nil` by default: the response's charset,
    ///     falling back to ISO-8859-1.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    /// - Returns: The `DataTask`.
    public func serializingString(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                  dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                                  encoding: String.Encoding? = nil,
                                  emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                                  emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods) -> DataTask<String> {
        builtInDataTask(using: StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                                        emptyResponseCodes: emptyResponseCodes,
                                                        emptyRequestMethods: emptyRequestMethods),
                        automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DataTask` that awaits the response serialized by `serializer`.
    ///
    /// The same as the `DataResponseSerializerProtocol` overload; this one, which Alamofire
    /// has too, lets the shorthands declared on `ResponseSerializer` (`.string`,
    /// `.decodable(of:)`, `.data()`) be written at the call site.
    ///
    /// - Parameters:
    ///   - serializer: The serializer.
    ///   - shouldAutomaticallyCancel: Whether cancelling the Swift task awaiting the
    ///     `DataTask`'s properties cancels the request. `true` by default.
    /// - Returns: The `DataTask`.
    public func serializingResponse<Serializer: ResponseSerializer>(using serializer: Serializer,
                                                                    automaticallyCancelling shouldAutomaticallyCancel: Bool = true)
        -> DataTask<Serializer.SerializedObject> {
        dataTask(using: serializer, automaticallyCancelling: shouldAutomaticallyCancel)
    }

    /// Makes a `DataTask` that awaits the response serialized by `serializer`.
    ///
    /// The serializer runs once, on the session's `serializationQueue`, when the request
    /// completes; the handler that runs it is added now, so with `startRequestsImmediately`
    /// the request starts now.
    ///
    /// - Parameters:
    ///   - serializer: The serializer.
    ///   - shouldAutomaticallyCancel: Whether cancelling the Swift task awaiting the
    ///     `DataTask`'s properties cancels the request. `true` by default.
    /// - Returns: The `DataTask`.
    public func serializingResponse<Serializer: DataResponseSerializerProtocol>(using serializer: Serializer,
                                                                                automaticallyCancelling shouldAutomaticallyCancel: Bool = true)
        -> DataTask<Serializer.SerializedObject> {
        dataTask(using: serializer, automaticallyCancelling: shouldAutomaticallyCancel)
    }

    private func dataTask<Serializer: DataResponseSerializerProtocol>(using serializer: Serializer,
                                                                      automaticallyCancelling shouldAutomaticallyCancel: Bool)
        -> DataTask<Serializer.SerializedObject> {
        dataTask(automaticallyCancelling: shouldAutomaticallyCancel) { $0.serializedResponse(using: serializer) }
    }

    /// The same for Salvo's own serializers, which skip the cast `serializedResponse(using:)`
    /// makes to find them.
    private func builtInDataTask<Serializer: InputSerializer>(using serializer: Serializer,
                                                              automaticallyCancelling shouldAutomaticallyCancel: Bool)
        -> DataTask<Serializer.SerializedObject> {
        dataTask(automaticallyCancelling: shouldAutomaticallyCancel) { $0.serializedResponse(builtIn: serializer) }
    }

    private func dataTask<Value: Sendable>(automaticallyCancelling shouldAutomaticallyCancel: Bool,
                                           serialize: @escaping @Sendable (DataRequest) -> AFDataResponse<Value>) -> DataTask<Value> {
        let future = ResponseFuture<AFDataResponse<Value>>()
        // The serialization queue, never `.main` unless the session was given it; a session
        // that maps `.main` elsewhere (`responseQueue`) applies that here too.
        let queue = delegate?.handlerQueue(serializationQueue) ?? serializationQueue
        // Holds the request strongly: the handler list is emptied when the request finishes,
        // which breaks the cycle, and the request must outlive a dropped `DataTask`.
        if mayRetry {
            let serialization = HandlerSerialization { [self] in serialize(self) }
            appendHandler(queue: queue, serialization: serialization) { future.fulfill(serialization.response()) }
        } else {
            appendHandler(queue: queue) { [self] in
                future.fulfill(serialize(self))
            }
        }
        return DataTask(request: self, future: future, shouldAutomaticallyCancel: shouldAutomaticallyCancel)
    }
}

// MARK: - ResponseFuture

/// A value delivered once and awaited by any number of tasks.
///
/// Each waiting continuation is stored under the lock and taken out under it by the single
/// `fulfill` that finds the state pending, so every continuation is resumed exactly once;
/// a continuation that arrives after fulfilment is resumed straight away with the value.
@usableFromInline
final class ResponseFuture<Value: Sendable>: @unchecked Sendable { // `state` is read and written only inside `lock`
    // Unsafe continuations, kept in a SmallList: every await of a request pays neither the
    // checked continuation's extra box nor an array for its single waiter. Each continuation
    // is resumed exactly once: taken out of `state` under the lock, then resumed outside it.
    @usableFromInline
    enum State {
        case pending(SmallList<UnsafeContinuation<Value, Never>>)
        case fulfilled(Value)
    }

    // A lock of no generic type beside the state, not a `Mutex<State>`: the class's deinit is
    // never specialized, and destroying a `Mutex<State>` there looked up the metadata of
    // `Mutex`, its cell and `State` for `Value` at run time, ~800 instructions per request.
    // No runtime exclusivity check on `state` either: the lock already keeps accesses apart.
    @usableFromInline let lock = Mutex<Void>(())
    @usableFromInline @exclusivity(unchecked) nonisolated(unsafe) var state = State.pending(SmallList())

    @usableFromInline init() {}

    /// Runs `body` on the state under the lock.
    @inlinable
    func withState<Result>(_ body: (inout State) -> Result) -> Result {
        lock.withLock { _ in body(&state) }
    }

    /// Delivers the value to every waiter, now and later. Calls after the first are ignored.
    func fulfill(_ value: Value) {
        let waiters = withState { state -> SmallList<UnsafeContinuation<Value, Never>> in
            guard case let .pending(waiters) = state else { return SmallList() }
            state = .fulfilled(value)
            return waiters
        }
        // Resumed outside the lock: resuming schedules the waiting task, which must not be
        // able to contend for this lock while it is held.
        waiters.forEach { $0.resume(returning: value) }
    }

    /// The value, waiting for it if needed; cancelling the waiting task cancels `request`.
    @inlinable
    func value(cancelling request: Request?) async -> Value {
        guard let request else { return await value }
        return await withTaskCancellationHandler {
            await value
        } onCancel: {
            request.cancel()
        }
    }

    /// The value, waiting for it if needed.
    @inlinable
    var value: Value {
        get async {
            await withUnsafeContinuation { continuation in
                let ready = withState { state -> Value? in
                    switch state {
                    case let .fulfilled(value):
                        return value
                    case var .pending(waiters):
                        // Clear the state first, so the list is uniquely referenced and grows
                        // in place.
                        state = .pending(SmallList())
                        waiters.append(continuation)
                        state = .pending(waiters)
                        return nil
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}
