import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Session {
    /// Creates a `DownloadRequest` from a URL, a method, `Parameters` and a
    /// `ParameterEncoding`.
    ///
    /// - Parameters:
    ///   - convertible: The URL.
    ///   - method: The method. `.get` by default.
    ///   - parameters: The parameters. `nil` by default.
    ///   - encoding: How the parameters are encoded. `URLEncoding.default` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
    ///   - destination: Where the finished file goes. `nil` (a new file in the temporary
    ///     directory, see `DownloadRequest.defaultDestination`) by default.
    /// - Returns: The request.
    public func download(_ convertible: any URLConvertible,
                         method: HTTPMethod = .get,
                         parameters: Parameters? = nil,
                         encoding: any ParameterEncoding = URLEncoding.default,
                         headers: HTTPHeaders? = nil,
                         interceptor: (any RequestInterceptor)? = nil,
                         shouldAutomaticallyResume: Bool? = nil,
                         requestModifier: RequestModifier? = nil,
                         to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        let convertible = RequestConvertible(url: convertible, method: method, parameters: parameters, encoding: encoding,
                                             headers: headers, requestModifier: requestModifier)
        return makeDownloadRequest(.request(convertible), convertible: convertible, plainSpec: plainSpec(of: convertible),
                                   interceptor: interceptor, destination: destination)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates a `DownloadRequest` from a URL, a method, `Encodable` parameters and a
    /// `ParameterEncoder`.
    ///
    /// - Parameters:
    ///   - convertible: The URL.
    ///   - method: The method. `.get` by default.
    ///   - parameters: The parameters. `nil` by default.
    ///   - encoder: How they are encoded. `URLEncodedFormParameterEncoder.default` by default.
    ///   - headers: Extra headers. `nil` by default.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
    ///   - destination: Where the finished file goes. `nil` (the temporary directory) by default.
    /// - Returns: The request.
    public func download<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                           method: HTTPMethod = .get,
                                                           parameters: Parameters? = nil,
                                                           encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                           headers: HTTPHeaders? = nil,
                                                           interceptor: (any RequestInterceptor)? = nil,
                                                           shouldAutomaticallyResume: Bool? = nil,
                                                           requestModifier: RequestModifier? = nil,
                                                           to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        let convertible = RequestEncodableConvertible(url: convertible, method: method, parameters: parameters, encoder: encoder,
                                                      headers: headers, requestModifier: requestModifier)
        return makeDownloadRequest(.request(convertible), convertible: convertible, plainSpec: nil, interceptor: interceptor,
                                   destination: destination)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates a `DownloadRequest` from a `URLRequestConvertible`.
    ///
    /// - Parameters:
    ///   - convertible: The request.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - destination: Where the finished file goes. `nil` (the temporary directory) by default.
    /// - Returns: The request.
    public func download(_ convertible: any URLRequestConvertible,
                         interceptor: (any RequestInterceptor)? = nil,
                         shouldAutomaticallyResume: Bool? = nil,
                         to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        makeDownloadRequest(.request(convertible), convertible: convertible, plainSpec: nil, interceptor: interceptor,
                            destination: destination)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    /// Creates a `DownloadRequest` that continues a cancelled download from its resume data.
    ///
    /// The request asks for the rest of the file with `Range` and `If-Range`. When the
    /// server sends the whole file instead (it changed, or ignores ranges), or the partial
    /// file is gone, the download starts over from the first byte.
    ///
    /// - Parameters:
    ///   - data: Resume data from `DownloadRequest.resumeData` (see `DownloadResumeData`
    ///     for its format). Data of another format fails the request with
    ///     `AFError.createURLRequestFailed`.
    ///   - interceptor: The request's own interceptor. `nil` by default.
    ///   - shouldAutomaticallyResume: Whether adding a response handler starts the request;
    ///     `nil` (the default) follows the session's `startRequestsImmediately`.
    ///   - destination: Where the finished file goes. `nil` (the temporary directory) by default.
    /// - Returns: The request.
    public func download(resumingWith data: Data,
                         interceptor: (any RequestInterceptor)? = nil,
                         shouldAutomaticallyResume: Bool? = nil,
                         to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
        makeDownloadRequest(.resumeData(data), convertible: ResumeConvertible(resumeData: data), plainSpec: nil,
                            interceptor: interceptor, destination: destination)
            .resumingAutomatically(shouldAutomaticallyResume, setUp: requestSetup)
    }

    private func makeDownloadRequest(_ downloadable: DownloadRequest.Downloadable, convertible: any URLRequestConvertible,
                                     plainSpec: RequestSpec?, interceptor: (any RequestInterceptor)?,
                                     destination: DownloadRequest.Destination?) -> DownloadRequest {
        DownloadRequest(downloadable: downloadable, convertible: convertible, plainSpec: plainSpec, underlyingQueue: rootQueue,
                        serializationQueue: serializationQueue, eventMonitor: monitor, interceptor: interceptor,
                        delegate: self, destination: destination)
    }
}
