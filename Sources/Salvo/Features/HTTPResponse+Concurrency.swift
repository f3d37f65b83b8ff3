import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataRequest {
    /// Calls an `async` handler with the `HTTPURLResponse` as soon as its headers arrive, and
    /// waits for its decision before taking the body.
    ///
    /// - Parameter handler: Decides whether the request goes on (`.allow`) or is cancelled.
    /// - Returns: The request.
    @_disfavoredOverload
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (HTTPURLResponse) async -> ResponseDisposition) -> Self {
        addHTTPResponseHandler(HTTPResponseHandler(queue: underlyingQueue, decidingAsync: handler))
    }

    /// Calls an `async` handler with the `HTTPURLResponse` as soon as its headers arrive; the
    /// body waits until the handler returns.
    ///
    /// - Parameter handler: The handler.
    /// - Returns: The request.
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (HTTPURLResponse) async -> Void) -> Self {
        addHTTPResponseHandler(HTTPResponseHandler(queue: underlyingQueue, observingAsync: handler))
    }
}

extension DataStreamRequest {
    /// Calls an `async` handler with the `HTTPURLResponse` as soon as its headers arrive (and
    /// passed validation), and waits for its decision before taking the body.
    ///
    /// - Parameter handler: Decides whether the request goes on (`.allow`) or is cancelled.
    /// - Returns: The request.
    @_disfavoredOverload
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (HTTPURLResponse) async -> ResponseDisposition) -> Self {
        addHTTPResponseHandler(HTTPResponseHandler(queue: underlyingQueue, decidingAsync: handler))
    }

    /// Calls an `async` handler with the `HTTPURLResponse` as soon as its headers arrive (and
    /// passed validation); the body waits until the handler returns.
    ///
    /// - Parameter handler: The handler.
    /// - Returns: The request.
    @discardableResult
    public func onHTTPResponse(perform handler: @escaping @Sendable (HTTPURLResponse) async -> Void) -> Self {
        addHTTPResponseHandler(HTTPResponseHandler(queue: underlyingQueue, observingAsync: handler))
    }
}
