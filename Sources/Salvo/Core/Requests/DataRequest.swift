import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A request whose response body is collected in memory.
open class DataRequest: Request, @unchecked Sendable { // all mutable state: Request.mutableState (a Mutex)

    /// A validation: inspects the request, response and body and passes or fails.
    public typealias Validation = @Sendable (URLRequest?, HTTPURLResponse, Data?) -> ValidationResult

    /// What the request was made from.
    public var convertible: any URLRequestConvertible { convertibleSource }

    /// The body received so far, or `nil` when none was.
    public var data: Data? { mutableState.withLock { $0.data } }

    init(origin: RequestOrigin, underlyingQueue: DispatchQueue,
         serializationQueue: DispatchQueue, eventMonitor: CompositeEventMonitor?, interceptor: (any RequestInterceptor)?,
         delegate: Session, attemptHooks: (any AttemptHooks)? = nil) {
        super.init(origin: origin, underlyingQueue: underlyingQueue,
                   serializationQueue: serializationQueue, eventMonitor: eventMonitor, interceptor: interceptor,
                   delegate: delegate, attemptHooks: attemptHooks)
    }

    /// Adds a validation, run when the response arrives, in the order added, until one fails.
    ///
    /// - Parameter validation: The validation.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func validate(_ validation: @escaping Validation) -> Self {
        appendValidator { request, head, data, context in
            guard let response = context.httpResponse else { return .success(()) }
            return validation(context.attemptRequest, response, data)
        }
    }

    /// Adds a validator working on Salvo's own response values, which avoids building an
    /// `HTTPURLResponse` when no one else needs it.
    @discardableResult
    func appendValidator(_ check: @escaping @Sendable (DataRequest, ResponseHead, Data?, ResponseContext) -> ValidationResult) -> Self {
        // Unowned: validators only run from `runValidators()`, called on this request.
        let validator: @Sendable () -> Void = { [unowned self] in
            let (error, context, data) = mutableState.withLock { ($0.error, $0.contexts.last, $0.data) }
            guard error == nil, let context, let head = context.head else { return }
            let result = check(self, head, data, context)
            if case let .failure(failure) = result {
                let afError = failure.asAFError(or: .responseValidationFailed(reason: .customValidationFailed(error: failure)))
                mutableState.withLock { $0.lifecycle.failed(afError) }
            }
            if let monitor, let response = context.httpResponse {
                monitor.request(self, didValidateRequest: context.attemptRequest, response: response, data: data, withResult: result)
            }
        }
        mutableState.withLock { state in
            // `validate()` adds two.
            if state.validators.isEmpty { state.validators.reserveCapacity(2) }
            state.validators.append(validator)
        }
        return self
    }

    /// Calls a handler with the `HTTPURLResponse` as soon as its headers arrive, before the
    /// body; once per attempt that gets a final (non-redirect) response. The body waits until
    /// the handler has run.
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

    /// Calls a handler with the `HTTPURLResponse` as soon as its headers arrive, and waits
    /// for its decision before taking the body: `.allow` goes on, `.cancel` cancels the
    /// request. Once per attempt that gets a final (non-redirect) response.
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

    /// The engine hook that turns a response head into `onHTTPResponse` calls, or `nil`
    /// when no one listens; `decided` makes, for the transfer, what gets the handlers' verdict.
    func headHandler(decided: @escaping @Sendable (Transfer) -> @Sendable (ResponseDisposition) -> Void)
        -> (@Sendable (ResponseHead, Transfer) -> Void)? {
        let handlers = mutableState.withLock { $0.httpResponseHandlers }
        guard !handlers.isEmpty else { return nil }
        return { [weak self] head, transfer in
            let decided = decided(transfer)
            let context = self?.mutableState.withLock { $0.contexts.last }
            guard var response = context?.response(for: head) ?? head.makeHTTPURLResponse() else { return decided(.allow) }
            if head.statusCode == 304, let context, !context.servedFromCache,
               let stored = context.cacheEntry?.response as? HTTPURLResponse,
               let refreshed = ResponseCache.refreshed(stored, by: response) {
                // A revalidation's 304 is answered with the stored response: the handlers see
                // what the caller will get, as URLSession's delegate does.
                response = refreshed
            }
            HTTPResponseHandler.run(handlers, response: response, inlineOn: nil, decided: decided)
        }
    }
}

extension Request {
    /// The result of a validation.
    public typealias ValidationResult = Result<Void, any Error>
}
