import Foundation

/// An `AsyncSequence` of a stream request's events.
///
/// Unlike an `AsyncStream` fed by a handler, it keeps backpressure: a chunk counts against
/// the request's stream buffer until the iterating task has taken every event made from it,
/// so a slow loop pauses the transfer instead of buffering the body.
public struct StreamOf<Element: Sendable>: AsyncSequence, Sendable {
    /// How many events wait for the iterating task; when events are dropped, their bytes
    /// are released at once.
    public typealias BufferingPolicy = AsyncStream<Element>.Continuation.BufferingPolicy

    struct Item: Sendable {
        let value: Element
        /// Releases the chunk's bytes; set on the last event made from a chunk.
        let release: (@Sendable () -> Void)?
    }

    private let base: AsyncStream<Item>

    init(bufferingPolicy: BufferingPolicy, build: (AsyncStream<Item>.Continuation) -> Void) {
        let policy: AsyncStream<Item>.Continuation.BufferingPolicy
        switch bufferingPolicy {
        case let .bufferingNewest(count): policy = .bufferingNewest(count)
        case let .bufferingOldest(count): policy = .bufferingOldest(count)
        default: policy = .unbounded
        }
        base = AsyncStream(bufferingPolicy: policy, build)
    }

    /// Makes the iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: base.makeAsyncIterator())
    }

    /// Iterates the events.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<Item>.Iterator
        /// The last event's chunk, released when the loop asks for the next event (it has
        /// finished with this one then) or when the iterator goes away.
        private let taken = TakenChunk()

        init(base: AsyncStream<Item>.Iterator) {
            self.base = base
        }

        /// The next event, or `nil` after `.complete`.
        public mutating func next() async -> Element? {
            taken.release()
            guard let item = await base.next() else { return nil }
            taken.hold(item.release)
            return item.value
        }
    }

    /// The release of the chunk whose event the loop holds.
    final class TakenChunk: @unchecked Sendable { // one iterator, one task at a time: an iterator is not shared across tasks
        private var pending: (@Sendable () -> Void)?

        func hold(_ release: (@Sendable () -> Void)?) {
            pending = release
        }

        func release() {
            pending?()
            pending = nil
        }

        deinit {
            pending?()
        }
    }
}

/// A handle to iterate a `DataStreamRequest`'s body with `for await`.
public struct DataStreamTask: Sendable {
    /// The sequence of a stream's events, as the `streaming` methods return it.
    public typealias Stream<Success: Sendable, Failure: Error> = StreamOf<DataStreamRequest.Stream<Success, Failure>>

    private let request: DataStreamRequest

    init(request: DataStreamRequest) {
        self.request = request
    }

    /// The body's chunks as `Data`, then `.complete`.
    ///
    /// - Parameters:
    ///   - shouldAutomaticallyCancel: Whether ending the iteration early (or cancelling its
    ///     task) cancels the request. `true` by default; with `false`, a sequence dropped
    ///     before its end leaves the request paused once its buffer fills, until cancelled.
    ///   - bufferingPolicy: How many events wait for the iterating task. Unbounded by
    ///     default: the stream buffer bounds them.
    /// - Returns: The sequence.
    public func streamingData(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                              bufferingPolicy: StreamOf<DataStreamRequest.Stream<Data, Never>>.BufferingPolicy = .unbounded)
        -> StreamOf<DataStreamRequest.Stream<Data, Never>> {
        request.asyncStream(.data, automaticallyCancelling: shouldAutomaticallyCancel, bufferingPolicy: bufferingPolicy)
    }

    /// The body's chunks as UTF-8 text, then `.complete`.
    ///
    /// - Parameters:
    ///   - shouldAutomaticallyCancel: See `streamingData`. `true` by default.
    ///   - bufferingPolicy: See `streamingData`. Unbounded by default.
    /// - Returns: The sequence.
    public func streamingStrings(automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                 bufferingPolicy: StreamOf<DataStreamRequest.Stream<String, Never>>.BufferingPolicy = .unbounded)
        -> StreamOf<DataStreamRequest.Stream<String, Never>> {
        request.asyncStream(.string, automaticallyCancelling: shouldAutomaticallyCancel, bufferingPolicy: bufferingPolicy)
    }

    /// The body's chunks decoded into `type` as they arrive, then `.complete`, as Alamofire
    /// decodes them; for newline-delimited values use `streamingDecodableLines(_:automaticallyCancelling:bufferingPolicy:)`.
    ///
    /// - Parameters:
    ///   - type: The type. Inferred by default.
    ///   - shouldAutomaticallyCancel: See `streamingData`. `true` by default.
    ///   - bufferingPolicy: See `streamingData`. Unbounded by default.
    /// - Returns: The sequence.
    public func streamingDecodables<T: Decodable & Sendable>(_ type: T.Type = T.self,
                                                             automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                                             bufferingPolicy: StreamOf<DataStreamRequest.Stream<T, AFError>>.BufferingPolicy = .unbounded)
        -> StreamOf<DataStreamRequest.Stream<T, AFError>> {
        request.asyncStream(.serialized(by: DecodableStreamSerializer<T>()), automaticallyCancelling: shouldAutomaticallyCancel,
                            bufferingPolicy: bufferingPolicy)
    }

    /// Salvo's own: the body's lines decoded into `type` (newline-delimited JSON), then
    /// `.complete`; a value split across chunks still decodes.
    ///
    /// - Parameters:
    ///   - type: The type. Inferred by default.
    ///   - shouldAutomaticallyCancel: See `streamingData`. `true` by default.
    ///   - bufferingPolicy: See `streamingData`. Unbounded by default.
    /// - Returns: The sequence.
    public func streamingDecodableLines<T: Decodable & Sendable>(_ type: T.Type = T.self,
                                                                 automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                                                 bufferingPolicy: StreamOf<DataStreamRequest.Stream<T, AFError>>.BufferingPolicy = .unbounded)
        -> StreamOf<DataStreamRequest.Stream<T, AFError>> {
        request.asyncStream(.lines(DecodableStreamSerializer<T>()), automaticallyCancelling: shouldAutomaticallyCancel,
                            bufferingPolicy: bufferingPolicy)
    }

    /// The body's chunks serialized by `serializer`, then `.complete`.
    ///
    /// - Parameters:
    ///   - serializer: The serializer.
    ///   - shouldAutomaticallyCancel: See `streamingData`. `true` by default.
    ///   - bufferingPolicy: See `streamingData`. Unbounded by default.
    /// - Returns: The sequence.
    public func streamingResponses<Serializer: DataStreamSerializer>(serializedUsing serializer: Serializer,
                                                                     automaticallyCancelling shouldAutomaticallyCancel: Bool = true,
                                                                     bufferingPolicy: StreamOf<DataStreamRequest.Stream<Serializer.SerializedObject, AFError>>.BufferingPolicy = .unbounded)
        -> StreamOf<DataStreamRequest.Stream<Serializer.SerializedObject, AFError>> {
        request.asyncStream(.serialized(by: serializer), automaticallyCancelling: shouldAutomaticallyCancel,
                            bufferingPolicy: bufferingPolicy)
    }

    /// Cancels the request.
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

extension DataStreamRequest {
    /// Makes a `DataStreamTask` to iterate the body with `for await`.
    ///
    /// - Returns: The task.
    public func streamTask() -> DataStreamTask {
        DataStreamTask(request: self)
    }

    func asyncStream<Success: Sendable, Failure: Error>(_ transform: StreamTransform<Success, Failure>,
                                                        automaticallyCancelling shouldAutomaticallyCancel: Bool,
                                                        bufferingPolicy: StreamOf<Stream<Success, Failure>>.BufferingPolicy)
        -> StreamOf<Stream<Success, Failure>> {
        StreamOf(bufferingPolicy: bufferingPolicy) { continuation in
            let token = CancellationToken(request: self)
            // A serial queue of its own keeps the events in order before they are buffered.
            let queue = DispatchQueue(label: "org.salvo.stream-task", target: serializationQueue)
            streams.addConsumer(queue: queue) { [weak self] data, done in
                var events: [Stream<Success, Failure>] = []
                var failed = false
                transform.transform(data) { result in
                    if case .failure = result { failed = true }
                    events.append(Stream(event: .stream(result), token: token))
                }
                // As the handler form does: a chunk the serializer could not read cancels the
                // request when asked to; the sequence still yields the failure.
                if failed, let self, automaticallyCancelOnStreamError { cancel() }
                guard !events.isEmpty else { return done() }
                for (index, event) in events.enumerated() {
                    let release = index == events.count - 1 ? done : nil
                    if case .dropped = continuation.yield(.init(value: event, release: release)) { release?() }
                }
            }
            appendHandler(queue: queue) { [self] in
                if error == nil {
                    transform.flush? { continuation.yield(.init(value: Stream(event: .stream($0), token: token), release: nil)) }
                }
                continuation.yield(.init(value: Stream(event: .complete(completion()), token: token), release: nil))
                continuation.finish()
            }
            continuation.onTermination = { [weak self] _ in
                guard let self else { return }
                // The chunks still buffered for the loop are never taken: the end of the
                // transfer must not wait for them.
                streams.consumerGone()
                // Finishing normally makes this a no-op: a completed request ignores cancel.
                if shouldAutomaticallyCancel { cancel() }
            }
        }
    }
}
