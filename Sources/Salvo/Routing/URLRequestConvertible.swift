import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A type that can build a `URLRequest`: the usual shape of an API router.
public protocol URLRequestConvertible: Sendable {
    /// Returns a `URLRequest`, or throws.
    ///
    /// - Returns: The `URLRequest`.
    /// - Throws: Any error met while building it; Salvo wraps it in `AFError.createURLRequestFailed`.
    func asURLRequest() throws -> URLRequest
}

extension URLRequestConvertible {
    /// The `URLRequest` from `asURLRequest()`, or `nil` when it throws.
    public var urlRequest: URLRequest? { try? asURLRequest() }
}

extension URLRequest: URLRequestConvertible {
    /// Returns `self`.
    public func asURLRequest() throws -> URLRequest { self }
}
