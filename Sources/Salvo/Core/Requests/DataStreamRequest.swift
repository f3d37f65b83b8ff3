import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request whose response body is handed to its handlers chunk by chunk as it arrives.
///
/// Memory stays bounded: when the handlers lag more than the stream buffer behind
/// (`Session.streamRequest(..., streamBufferSize:)`), the transfer pauses until they have
/// worked through half of it.
open class DataStreamRequest: Request, @unchecked Sendable { // state: Request.mutableState and `streams`, each a Mutex

    /// A stream handler: called for each chunk, then once with `.complete`. A thrown error
    /// becomes the request's error and cancels the request, as in Alamofire.
    public typealias Handler<Success, Failure: Error> = @Sendable (Stream<Success, Failure>) throws -> Void

    /// One call of a stream handler.
    public struct Stream<Success, Failure: Error> {
        /// What happened.
        public let event: Event<Success, Failure>
        /// Cancels the request from inside the handler.
        public let token: CancellationToken

        /// Cancels the request.
        public func cancel() {
            token.cancel()
        }

        /// The chunk's value, if the event is a successfully serialized chunk.
        public var value: Success? {
            guard case let .stream(.success(value)) = event else { return nil }
            return value
        }

        /// The chunk's error, if the event is a chunk that failed to serialize.
        public var error: Failure? {
            guard case let .stream(.failure(error)) = event else { return nil }
            return error
        }

        /// The completion, if the event is the last one.
        public var completion: Completion? {
            guard case let .complete(completion) = event else { return nil }
            return completion
        }

        /// The chunk's serialization result, or `nil` for the completion event.
        public var result: Result<Success, Failure>? {
            guard case let .stream(result) = event else { return nil }
            return result
        }
    }

    /// What a stream handler is told.
    public enum Event<Success, Failure: Error> {
        /// A chunk, serialized.
        case stream(Result<Success, Failure>)
        /// The request completed; the handler is not called again.
        case complete(Completion)
    }

    /// How the request completed.
    ///
    /// The Foundation values are made from the last attempt's record when first read, and
    /// then kept: a handler that only looks at `error` pays for no `HTTPURLResponse`.
    public struct Completion: Sendable {
        /// The last attempt's record, `nil` when no attempt was made.
        let context: ResponseContext?

        /// The last request sent.
        public var request: URLRequest? { context?.attemptRequest }
        /// The response, if one arrived.
        public var response: HTTPURLResponse? { context?.httpResponse }
        /// The last attempt's metrics.
        public var metrics: TransferMetrics? { context?.metrics }
        /// The error the request failed with, if any.
        public let error: AFError?
    }

    /// Cancels the request it was made for.
    public struct CancellationToken: Sendable {
        weak var request: DataStreamRequest?

        /// Cancels the request.
        public func cancel() {
            request?.cancel()
        }
    }

    /// A validation of a streaming response, run when its headers arrive, before any chunk
    /// reaches the handlers.
    public typealias Validation = @Sendable (_ request: URLRequest?, _ response: HTTPURLResponse) -> ValidationResult

    /// The stream buffer used when none is given: 4 MiB.
    public static let defaultStreamBufferSize = 4 << 20

    /// Whether a chunk its serializer cannot read cancels the request (which then ends with
    /// `AFError.explicitlyCancelled`), as in Alamofire.
    public let automaticallyCancelOnStreamError: Bool

    /// What the request was made from.
    public var convertible: any URLRequestConvertible { convertibleSource }

    let streams: StreamAttempts

    init(convertible: any URLRequestConvertible, plainSpec: RequestSpec?, underlyingQueue: DispatchQueue,
         serializationQueue: DispatchQueue, eventMonitor: CompositeEventMonitor?, interceptor: (any RequestInterceptor)?,
         delegate: Session, automaticallyCancelOnStreamError: Bool, streamBufferSize: Int) {
        self.automaticallyCancelOnStreamError = automaticallyCancelOnStreamError
        streams = StreamAttempts(bufferSize: streamBufferSize)
        super.init(origin: .convertible(convertible, plainSpec: plainSpec), underlyingQueue: underlyingQueue,
                   serializationQueue: serializationQueue, eventMonitor: eventMonitor, interceptor: interceptor,
                   delegate: delegate, attemptHooks: streams)
        streams.attach(to: self)
        // A stream's head (validation), chunks and completion must be handled in the order
        // they arrive, whatever queue the handlers name (`.global()` is concurrent): they go
        // through the session's serial root queue, and each handler hops to its own queue.
        mutableState.withLock { $0.deliveryQueue = underlyingQueue }
    }

    /// Calls a handler with the `HTTPURLResponse` as soon as its headers arrive (and passed
    /// validation), before any chunk; once per attempt that gets a final response. The body
    /// waits until the handler has run.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs. `.main` by default.
    ///   - handler: The handler.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func onHTTPResponse(on queue: DispatchQueue = .main, perform handler: @escaping @Sendable (HTTPURLResponse) -> Void) -> Self {
        addHTTPResponseHandler(HTTPResponseHandler(queue: delegate?.handlerQueue(queue) ?? queue, observing: handler))
    }

    /// Calls a handler with the `HTTPURLResponse` as soon as its headers arrive (and passed
    /// validation), and waits for its decision before taking the body: `.allow` goes on,
    /// `.cancel` cancels the request. Once per attempt that gets a final response.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs. `.main` by default.
    ///   - handler: The handler; it must call its completion handler once.
    /// - Returns: The request.
    @preconcurrency
    @_disfavoredOverload
    @discardableResult
    public func onHTTPResponse(
        on queue: DispatchQueue = .main,
        perform handler: @escaping @Sendable (_ response: HTTPURLResponse,
                                              _ completionHandler: @escaping @Sendable (ResponseDisposition) -> Void) -> Void
    ) -> Self {
        addHTTPResponseHandler(HTTPResponseHandler(queue: delegate?.handlerQueue(queue) ?? queue, deciding: handler))
    }

    // MARK: Validation

    /// Adds a validation, run when the response's headers arrive, in the order added, until
    /// one fails. A failure stops the stream and completes the request with the error.
    ///
    /// - Parameter validation: The validation.
    /// - Returns: The request.
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        streams.addValidator { head, context in
            guard let response = context?.httpResponse ?? head.makeHTTPURLResponse() else { return .success(()) }
            return validation(context?.attemptRequest, response)
        }
        return self
    }

    /// Fails the request unless its status code is in `acceptableStatusCodes`.
    ///
    /// - Parameter acceptableStatusCodes: The codes that pass.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func validate<S: Sequence & Sendable>(statusCode acceptableStatusCodes: S) -> Self where S.Element == Int {
        streams.addValidator { head, _ in DataRequest.validate(statusCode: head.statusCode, acceptable: acceptableStatusCodes) }
        return self
    }

    /// Fails the request when the response's `Content-Type` matches none of the acceptable
    /// types (`*` wildcards allowed), or is missing.
    ///
    /// - Parameter acceptableContentTypes: The media types that pass.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func validate<S: Sequence & Sendable>(contentType acceptableContentTypes: @escaping @Sendable @autoclosure () -> S) -> Self where S.Element == String {
        streams.addValidator { head, _ in
            // The body has not arrived yet; the type is checked as for a non-empty body.
            DataRequest.validate(contentType: Array(acceptableContentTypes()), head: head, data: Data(count: 1))
        }
        return self
    }

    /// Validates the status code (200 to 299) and the `Content-Type` against the request's
    /// `Accept` header.
    ///
    /// - Returns: The request.
    @discardableResult
    public func validate() -> Self {
        // Two validators, as Alamofire chains them (see `DataRequest.validate()`).
        streams.addValidator { head, _ in DataRequest.validate(statusCode: head.statusCode, acceptable: 200..<300) }
        streams.addValidator { head, context in
            DataRequest.validate(contentType: DataRequest.acceptableContentTypes(for: context), head: head, data: Data(count: 1))
        }
        return self
    }
}

extension DataStreamRequest.Stream: Sendable where Success: Sendable {}
extension DataStreamRequest.Event: Sendable where Success: Sendable {}
