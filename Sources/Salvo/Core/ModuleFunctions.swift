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
