import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Module-level functions forwarding to `Session.default`, so code in the older style,
// `Alamofire.request(urlString, method: .post)`, compiles as `Salvo.request(...)`. Each takes
// the labels and defaults of the `Session` method it forwards to.

/// Creates a `DataRequest` on `Session.default` from a URL, a method, `Parameters` and a
/// `ParameterEncoding`.
///
/// - Parameters:
///   - convertible: The URL.
///   - method: The method. `.get` by default.
///   - parameters: The parameters. `nil` by default.
///   - encoding: How the parameters are encoded. `URLEncoding.default` by default.
///   - headers: Extra headers. `nil` by default.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
/// - Returns: The request.
@discardableResult
public func request(_ convertible: any URLConvertible,
                    method: HTTPMethod = .get,
                    parameters: Parameters? = nil,
                    encoding: any ParameterEncoding = URLEncoding.default,
                    headers: HTTPHeaders? = nil,
                    interceptor: (any RequestInterceptor)? = nil,
                    requestModifier: Session.RequestModifier? = nil) -> DataRequest {
    Session.default.request(convertible, method: method, parameters: parameters, encoding: encoding, headers: headers,
                            interceptor: interceptor, requestModifier: requestModifier)
}

/// Creates a `DataRequest` on `Session.default` from a URL, a method, `Encodable` parameters
/// and a `ParameterEncoder`.
///
/// - Parameters:
///   - convertible: The URL.
///   - method: The method. `.get` by default.
///   - parameters: The parameters. `nil` by default.
///   - encoder: How they are encoded. `URLEncodedFormParameterEncoder.default` by default.
///   - headers: Extra headers. `nil` by default.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
/// - Returns: The request.
@discardableResult
public func request<Parameters: Encodable & Sendable>(_ convertible: any URLConvertible,
                                                      method: HTTPMethod = .get,
                                                      parameters: Parameters? = nil,
                                                      encoder: any ParameterEncoder = URLEncodedFormParameterEncoder.default,
                                                      headers: HTTPHeaders? = nil,
                                                      interceptor: (any RequestInterceptor)? = nil,
                                                      requestModifier: Session.RequestModifier? = nil) -> DataRequest {
    Session.default.request(convertible, method: method, parameters: parameters, encoder: encoder, headers: headers,
                            interceptor: interceptor, requestModifier: requestModifier)
}

/// Creates a `DataRequest` on `Session.default` from a `URLRequestConvertible`, such as a
/// router enum or a hand-built `URLRequest`.
///
/// - Parameters:
///   - convertible: The request.
///   - interceptor: The request's own interceptor. `nil` by default.
/// - Returns: The request.
@discardableResult
public func request(_ convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil) -> DataRequest {
    Session.default.request(convertible, interceptor: interceptor)
}

/// Creates a `DownloadRequest` on `Session.default` from a URL, a method, `Parameters` and
/// a `ParameterEncoding`.
///
/// - Parameters:
///   - convertible: The URL.
///   - method: The method. `.get` by default.
///   - parameters: The parameters. `nil` by default.
///   - encoding: How the parameters are encoded. `URLEncoding.default` by default.
///   - headers: Extra headers. `nil` by default.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - requestModifier: Changes the `URLRequest` before encoding. `nil` by default.
///   - destination: Where the finished file goes. `nil` (the temporary directory) by default.
/// - Returns: The request.
@discardableResult
public func download(_ convertible: any URLConvertible,
                     method: HTTPMethod = .get,
                     parameters: Parameters? = nil,
                     encoding: any ParameterEncoding = URLEncoding.default,
                     headers: HTTPHeaders? = nil,
                     interceptor: (any RequestInterceptor)? = nil,
                     requestModifier: Session.RequestModifier? = nil,
                     to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
    Session.default.download(convertible, method: method, parameters: parameters, encoding: encoding, headers: headers,
                             interceptor: interceptor, requestModifier: requestModifier, to: destination)
}

/// Creates a `DownloadRequest` on `Session.default` from a `URLRequestConvertible`.
///
/// - Parameters:
///   - convertible: The request.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - destination: Where the finished file goes. `nil` (the temporary directory) by default.
/// - Returns: The request.
@discardableResult
public func download(_ convertible: any URLRequestConvertible, interceptor: (any RequestInterceptor)? = nil,
                     to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
    Session.default.download(convertible, interceptor: interceptor, to: destination)
}

/// Creates a `DownloadRequest` on `Session.default` that continues a cancelled download.
///
/// - Parameters:
///   - data: The resume data.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - destination: Where the finished file goes. `nil` (the temporary directory) by default.
/// - Returns: The request.
@discardableResult
public func download(resumingWith data: Data, interceptor: (any RequestInterceptor)? = nil,
                     to destination: DownloadRequest.Destination? = nil) -> DownloadRequest {
    Session.default.download(resumingWith: data, interceptor: interceptor, to: destination)
}

/// Creates an `UploadRequest` on `Session.default` sending `data`.
///
/// - Parameters:
///   - data: The body.
///   - convertible: The URL.
///   - method: The method. `.post` by default.
///   - headers: Extra headers. `nil` by default.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - fileManager: Kept for compatibility. `.default` by default.
///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
/// - Returns: The request.
@discardableResult
public func upload(_ data: Data, to convertible: any URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
                   interceptor: (any RequestInterceptor)? = nil, fileManager: FileManager = .default,
                   requestModifier: Session.RequestModifier? = nil) -> UploadRequest {
    Session.default.upload(data, to: convertible, method: method, headers: headers, interceptor: interceptor,
                           fileManager: fileManager, requestModifier: requestModifier)
}

/// Creates an `UploadRequest` on `Session.default` sending a file.
///
/// - Parameters:
///   - fileURL: The file.
///   - convertible: The URL.
///   - method: The method. `.post` by default.
///   - headers: Extra headers. `nil` by default.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - fileManager: Kept for compatibility. `.default` by default.
///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
/// - Returns: The request.
@discardableResult
public func upload(_ fileURL: URL, to convertible: any URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
                   interceptor: (any RequestInterceptor)? = nil, fileManager: FileManager = .default,
                   requestModifier: Session.RequestModifier? = nil) -> UploadRequest {
    Session.default.upload(fileURL, to: convertible, method: method, headers: headers, interceptor: interceptor,
                           fileManager: fileManager, requestModifier: requestModifier)
}

/// Creates an `UploadRequest` on `Session.default` sending what a stream yields.
///
/// - Parameters:
///   - stream: The stream, read once.
///   - convertible: The URL.
///   - method: The method. `.post` by default.
///   - headers: Extra headers. `nil` by default.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - fileManager: Kept for compatibility. `.default` by default.
///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
/// - Returns: The request.
@discardableResult
public func upload(_ stream: InputStream, to convertible: any URLConvertible, method: HTTPMethod = .post, headers: HTTPHeaders? = nil,
                   interceptor: (any RequestInterceptor)? = nil, fileManager: FileManager = .default,
                   requestModifier: Session.RequestModifier? = nil) -> UploadRequest {
    Session.default.upload(stream, to: convertible, method: method, headers: headers, interceptor: interceptor,
                           fileManager: fileManager, requestModifier: requestModifier)
}

/// Creates an `UploadRequest` on `Session.default` sending a multipart form.
///
/// - Parameters:
///   - multipartFormData: Fills the form, called at once.
///   - url: The URL.
///   - encodingMemoryThreshold: Forms smaller than this are encoded in memory, larger ones
///     into a temporary file. `MultipartFormData.encodingMemoryThreshold` by default.
///   - method: The method. `.post` by default.
///   - headers: Extra headers. `nil` by default.
///   - interceptor: The request's own interceptor. `nil` by default.
///   - fileManager: Used by the form for its files. `.default` by default.
///   - requestModifier: Changes the `URLRequest` before it is sent. `nil` by default.
/// - Returns: The request.
@discardableResult
public func upload(multipartFormData: (MultipartFormData) -> Void, to url: any URLConvertible,
                   usingThreshold encodingMemoryThreshold: UInt64 = MultipartFormData.encodingMemoryThreshold,
                   method: HTTPMethod = .post, headers: HTTPHeaders? = nil, interceptor: (any RequestInterceptor)? = nil,
                   fileManager: FileManager = .default, requestModifier: Session.RequestModifier? = nil) -> UploadRequest {
    Session.default.upload(multipartFormData: multipartFormData, to: url, usingThreshold: encodingMemoryThreshold, method: method,
                           headers: headers, interceptor: interceptor, fileManager: fileManager, requestModifier: requestModifier)
}
