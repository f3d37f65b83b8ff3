import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Request {
    /// Calls `handler` with each `URLRequest` the request sends: the first, as adapted, then
    /// one per retry (not per redirect), as Alamofire does.
    ///
    /// When a request was already sent, the handler is also called straight away with the
    /// last one. Only the last handler given is kept.
    ///
    /// - Parameters:
    ///   - queue: Where the handler runs. `.main` by default (see `Session.responseQueue`).
    ///   - handler: Called with each `URLRequest`.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func onURLRequestCreation(on queue: DispatchQueue = .main,
                                     perform handler: @escaping @Sendable (URLRequest) -> Void) -> Self {
        let queue = delegate?.handlerQueue(queue) ?? queue
        let last = mutableState.withLock { state -> ResponseContext? in
            state.urlRequestHandler = (queue, handler)
            return state.contexts.last
        }
        if let last {
            let urlRequest = last.attemptRequest
            queue.async { handler(urlRequest) }
        }
        return self
    }
}
