import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension URLRequest {
    /// Creates a request from a URL, a method and optional headers.
    ///
    /// - Parameters:
    ///   - url: The `URLConvertible` value.
    ///   - method: The `HTTPMethod`.
    ///   - headers: The `HTTPHeaders`; `nil` (the default) sets none.
    /// - Throws: The error `url.asURL()` throws, usually `AFError.invalidURL`.
    public init(url: any URLConvertible, method: HTTPMethod, headers: HTTPHeaders? = nil) throws {
        let url = try url.asURL()
        self.init(url: url)
        httpMethod = method.rawValue
        allHTTPHeaderFields = headers?.dictionary
    }

    /// The request's `httpMethod` as an `HTTPMethod`.
    public var method: HTTPMethod? {
        get { httpMethod.map(HTTPMethod.init(rawValue:)) }
        set { httpMethod = newValue?.rawValue }
    }

    /// The request's header fields as `HTTPHeaders`.
    public var headers: HTTPHeaders {
        get { allHTTPHeaderFields.map(HTTPHeaders.init) ?? HTTPHeaders() }
        set { allHTTPHeaderFields = newValue.dictionary }
    }

    /// Checks the request for mistakes that would make its transfer meaningless.
    ///
    /// - Throws: `AFError.urlRequestValidationFailed(reason: .bodyDataInGETRequest)` when a
    ///   `GET` request carries a body.
    public func validate() throws {
        if method == .get, let bodyData = httpBody {
            throw AFError.urlRequestValidationFailed(reason: .bodyDataInGETRequest(bodyData))
        }
    }
}
