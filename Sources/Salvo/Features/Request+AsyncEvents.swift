import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Request

extension Request {
    /// The request body's upload progress, as an `AsyncSequence` that ends when the request
    /// finishes.
    ///
    /// Each element is a new `Progress`, a copy of `uploadProgress` made for that update alone
    /// and never changed after it is sent. A request that succeeds ends with an element whose
    /// `fractionCompleted` is exactly 1.
    ///
    /// - Parameter bufferingPolicy: How many updates wait for the iterating task.
    ///   `.unbounded` by default.
    /// - Returns: The sequence.
    /// - Note: Make the sequence before the request starts (before its first response handler
    ///   when the session starts requests immediately): an attempt that is already running
    ///   reports progress only if a handler was set when it started. The sequence is built on
    ///   the progress handler, of which a request keeps one, as in Alamofire: making it
    ///   replaces a handler set before, and a handler set after it ends its updates.
    public func uploadProgress(bufferingPolicy: StreamOf<Progress>.BufferingPolicy = .unbounded) -> StreamOf<Progress> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, yield in
            // A copy, made while the handler holds the request's `Progress`: the receiver owns
            // it alone, and later updates do not change what it read.
            uploadProgress(queue: queue) { yield(Self.snapshot(of: $0)) }
        }
    }

    /// The response body's download progress, as an `AsyncSequence` that ends when the
    /// request finishes.
    ///
    /// Each element is a new `Progress`, a copy of `downloadProgress` made for that update
    /// alone and never changed after it is sent. A request that succeeds ends with an element
    /// whose `fractionCompleted` is exactly 1; a resumed download counts the bytes it already
    /// had.
    ///
    /// - Parameter bufferingPolicy: How many updates wait for the iterating task.
    ///   `.unbounded` by default.
    /// - Returns: The sequence.
    /// - Note: Make the sequence before the request starts (before its first response handler
    ///   when the session starts requests immediately): an attempt that is already running
    ///   reports progress only if a handler was set when it started. The sequence is built on
    ///   the progress handler, of which a request keeps one, as in Alamofire: making it
    ///   replaces a handler set before, and a handler set after it ends its updates.
    public func downloadProgress(bufferingPolicy: StreamOf<Progress>.BufferingPolicy = .unbounded) -> StreamOf<Progress> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, yield in
            // A copy: see `uploadProgress(bufferingPolicy:)`.
            downloadProgress(queue: queue) { yield(Self.snapshot(of: $0)) }
        }
    }

    private static func snapshot(of progress: Progress) -> Progress {
        let copy = Progress(totalUnitCount: progress.totalUnitCount)
        copy.completedUnitCount = progress.completedUnitCount
        return copy
    }

    /// Each `URLRequest` the request sends, as an `AsyncSequence` that ends when the request
    /// finishes: the first, as adapted, then one per retry (not per redirect).
    ///
    /// When the request was already sent, the sequence starts with the last one.
    ///
    /// - Parameter bufferingPolicy: How many requests wait for the iterating task.
    ///   `.unbounded` by default.
    /// - Returns: The sequence.
    /// - Warning: Built on `onURLRequestCreation(on:perform:)`, which keeps only the last
    ///   handler given, as in Alamofire: making this sequence replaces a handler set before,
    ///   and a handler set after it stops the sequence receiving (it still ends when the
    ///   request finishes).
    public func urlRequests(bufferingPolicy: StreamOf<URLRequest>.BufferingPolicy = .unbounded) -> StreamOf<URLRequest> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, yield in
            onURLRequestCreation(on: queue) { yield($0) }
        }
    }

    /// Each attempt's `URLSessionTask`, as an `AsyncSequence` that ends when the request
    /// finishes: the first attempt's, then one per retry.
    ///
    /// When the request was already sent, the sequence starts with the latest attempt's task.
    ///
    /// - Parameter bufferingPolicy: How many tasks wait for the iterating task. `.unbounded`
    ///   by default.
    /// - Returns: The sequence.
    /// - Warning: Built on `onURLSessionTaskCreation(on:perform:)`, which keeps only the last
    ///   handler given, as in Alamofire: making this sequence replaces a handler set before.
    public func urlSessionTasks(bufferingPolicy: StreamOf<URLSessionTask>.BufferingPolicy = .unbounded) -> StreamOf<URLSessionTask> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, yield in
            onURLSessionTaskCreation(on: queue) { yield($0) }
        }
    }

    /// The request's `cURLDescription()` once per attempt sent (retries included, not
    /// redirects), as an `AsyncSequence` that ends when the request finishes.
    ///
    /// When the request was already sent, the sequence starts with the last attempt's. A
    /// request that fails before anything is sent yields `"$ curl command could not be
    /// created"` once (Alamofire yields nothing then).
    ///
    /// - Parameter bufferingPolicy: How many descriptions wait for the iterating task.
    ///   `.unbounded` by default.
    /// - Returns: The sequence.
    /// - Warning: Built on `cURLDescription(on:calling:)`, which keeps only the last handler
    ///   given, as in Alamofire: making this sequence replaces a handler set before, and a
    ///   handler set after it stops the sequence receiving (it still ends when the request
    ///   finishes).
    public func cURLDescriptions(bufferingPolicy: StreamOf<String>.BufferingPolicy = .unbounded) -> StreamOf<String> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, yield in
            cURLDescription(on: queue) { yield($0) }
        }
    }

    /// Makes a sequence fed by a handler that `register` adds, ended when the request finishes.
    ///
    /// `register` gets the queue to register the handler on and the function that hands it an
    /// element. That queue is serial and private to the sequence, and the end is queued on it
    /// too, from the request's finish hook: `finish` queues every last event (the closing
    /// progress, an unsent request's cURL description) before it runs that hook, and events
    /// from earlier in the request were queued earlier still, so none is lost after the end.
    ///
    /// Nothing here holds the request: the request holds the handlers, which hold the
    /// sequence's continuation. Should the request go away without finishing (never resumed,
    /// then dropped), the last handler going ends the sequence (`StreamEnd.deinit`), so no
    /// loop waits forever for it.
    ///
    /// Events and the end go through one serial queue, and every event is posted there before
    /// the request finishes (an `onHTTPResponse` handler holds the transfer until it has run),
    /// so the end comes after the last event.
    func eventStream<Element: Sendable>(bufferingPolicy: StreamOf<Element>.BufferingPolicy,
                                        register: (_ queue: DispatchQueue, _ yield: @escaping @Sendable (Element) -> Void) -> Void)
        -> StreamOf<Element> {
        StreamOf(bufferingPolicy: bufferingPolicy) { continuation in
            let end = StreamEnd(continuation)
            let underlyingQueue = underlyingQueue
            let queue = DispatchQueue(label: "org.salvo.request-events", target: underlyingQueue)
            register(queue) { end.yield($0) }
            // Weak: the finish hooks are dropped only when the request finishes, and a request
            // that never does must still be free to go.
            onFinish { queue.async { end.finish() } }
        }
    }
}

/// The producing side of an event sequence; finishes it, at the latest, when it goes.
///
/// Sendable without a lock: its only stored property is an `AsyncStream` continuation,
/// which is `Sendable` and safe to call from any thread (finishing it twice is a no-op).
private final class StreamEnd<Element: Sendable>: Sendable {
    private let continuation: AsyncStream<StreamOf<Element>.Item>.Continuation

    init(_ continuation: AsyncStream<StreamOf<Element>.Item>.Continuation) {
        self.continuation = continuation
    }

    deinit {
        continuation.finish()
    }

    func yield(_ value: Element) {
        continuation.yield(.init(value: value, release: nil))
    }

    func finish() {
        continuation.finish()
    }
}

// MARK: - DataRequest

extension DataRequest {
    /// Each `HTTPURLResponse` the request receives, as an `AsyncSequence` that ends when the
    /// request finishes.
    ///
    /// One response per attempt that gets a final response, as soon as its headers arrive:
    /// redirects are followed without yielding their responses, as with URLSession in
    /// Alamofire, so a request that is not retried yields one response, the last hop's.
    ///
    /// - Parameter bufferingPolicy: How many responses wait for the iterating task.
    ///   `.unbounded` by default.
    /// - Returns: The sequence.
    /// - Note: Make the sequence before the request starts (before its first response handler
    ///   when the session starts requests immediately): an attempt that is already running
    ///   keeps the response handlers it started with.
    public func httpResponses(bufferingPolicy: StreamOf<HTTPURLResponse>.BufferingPolicy = .unbounded) -> StreamOf<HTTPURLResponse> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, yield in
            onHTTPResponse(on: queue) { yield($0) }
        }
    }
}

// MARK: - DataStreamRequest

extension DataStreamRequest {
    /// Each `HTTPURLResponse` the request receives, as an `AsyncSequence` that ends when the
    /// request finishes.
    ///
    /// One response per attempt that gets a final response and passes validation, as soon as
    /// its headers arrive, before any chunk; redirects are followed without yielding their
    /// responses.
    ///
    /// - Parameter bufferingPolicy: How many responses wait for the iterating task.
    ///   `.unbounded` by default.
    /// - Returns: The sequence.
    /// - Note: Make the sequence before the request starts (before its first stream handler
    ///   when the session starts requests immediately): an attempt that is already running
    ///   keeps the response handlers it started with.
    public func httpResponses(bufferingPolicy: StreamOf<HTTPURLResponse>.BufferingPolicy = .unbounded) -> StreamOf<HTTPURLResponse> {
        eventStream(bufferingPolicy: bufferingPolicy) { queue, yield in
            onHTTPResponse(on: queue) { yield($0) }
        }
    }
}
