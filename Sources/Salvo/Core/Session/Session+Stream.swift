import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Creates a `DataStreamRequest` from a URL, a method, `Encodable` parameters and a
    /// `ParameterEncoder`.
    ///
    /// - Parameters:
    ///   - convertible: The URL.
    ///   - method: The method. `.get` by default.
    ///   - parameters: The parameters. `nil` by default.
    ///   - encoder: How they are encoded. `URLEncodedFormParameterEncoder.default` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - automaticallyCancelOnStreamError: Whether a chunk the serializer cannot read
    ///     cancels the request. `false` by default. (A handler that throws always does.)
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
    ///   - streamBufferSize: How many bytes the handlers may lag behind before the transfer
    ///     pauses. `DataStreamRequest.defaultStreamBufferSize` (4 MiB) by default.
    /// - Returns: The request.
    public func streamRequest<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                                method: HTTPMethod = .get,
                                                                parameters: Parameters? = nil,
                                                                encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                                headers: HTTPHeaders? = nil,
                                                                automaticallyCancelOnStreamError: Bool = false,
                                                                interceptor: (any RequestInterceptor)? = nil,
                                                                shouldAutomaticallyResume: Bool? = nil,
                                                                requestModifier: RequestModifier? = nil,
                                                                streamBufferSize: Int = DataStreamRequest.defaultStreamBufferSize) -> DataStreamRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters, encoder: encoder,
                                                      headers: headers, requestModifier: requestModifier)
        return makeStreamRequest(convertible, plainSpec: nil, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                                 interceptor: interceptor, streamBufferSize: streamBufferSize)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates a `DataStreamRequest` from a URL, a method and headers.
    ///
    /// - Parameters:
    ///   - convertible: The URL.
    ///   - method: The method. `.get` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - automaticallyCancelOnStreamError: Whether a chunk the serializer cannot read
    ///     cancels the request. `false` by default. (A handler that throws always does.)
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
    ///   - streamBufferSize: How many bytes the handlers may lag behind before the transfer
    ///     pauses. 4 MiB by default.
    /// - Returns: The request.
    public func streamRequest(_ convertible: any URLConvertible,
                              method: HTTPMethod = .get,
                              headers: HTTPHeaders? = nil,
                              automaticallyCancelOnStreamError: Bool = false,
                              interceptor: (any RequestInterceptor)? = nil,
                              shouldAutomaticallyResume: Bool? = nil,
                              requestModifier: RequestModifier? = nil,
                              streamBufferSize: Int = DataStreamRequest.defaultStreamBufferSize) -> DataStreamRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: nil, encoding: URLEncoding.default,
                                             headers: headers, requestModifier: requestModifier)
        return makeStreamRequest(convertible, plainSpec: plainSpec(of: convertible),
                                 automaticallyCancelOnStreamError: automaticallyCancelOnStreamError, interceptor: interceptor,
                                 streamBufferSize: streamBufferSize)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates a `DataStreamRequest` from a `URLRequestConvertible`.
    ///
    /// - Parameters:
    ///   - convertible: The request.
    ///   - automaticallyCancelOnStreamError: Whether a chunk the serializer cannot read
    ///     cancels the request. `false` by default. (A handler that throws always does.)
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - streamBufferSize: How many bytes the handlers may lag behind before the transfer
    ///     pauses. 4 MiB by default.
    /// - Returns: The request.
    public func streamRequest(_ convertible: any URLRequestConvertible,
                              automaticallyCancelOnStreamError: Bool = false,
                              interceptor: (any RequestInterceptor)? = nil,
                              shouldAutomaticallyResume: Bool? = nil,
                              streamBufferSize: Int = DataStreamRequest.defaultStreamBufferSize) -> DataStreamRequest {
        makeStreamRequest(convertible, plainSpec: nil, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                          interceptor: interceptor, streamBufferSize: streamBufferSize)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    private func makeStreamRequest(_ convertible: any URLRequestConvertible, plainSpec: RequestSpec?,
                                   automaticallyCancelOnStreamError: Bool, interceptor: (any RequestInterceptor)?,
                                   streamBufferSize: Int) -> DataStreamRequest {
        DataStreamRequest(convertible: convertible, plainSpec: plainSpec, underlyingQueue: rootQueue,
                          serializationQueue: serializationQueue, eventMonitor: monitor, interceptor: interceptor,
                          delegate: self, automaticallyCancelOnStreamError: automaticallyCancelOnStreamError,
                          streamBufferSize: streamBufferSize)
    }
}
