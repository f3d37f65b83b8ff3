import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A dictionary of parameters for a `ParameterEncoding`.
public typealias Parameters = [String: any Any & Sendable]

/// A way to put `Parameters` into a `URLRequest`.
public protocol ParameterEncoding: Sendable {
    /// Returns the request with the parameters encoded into it.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to encode into.
    ///   - parameters: The parameters; `nil` leaves the request unchanged.
    /// - Returns: The encoded request.
    /// - Throws: An `AFError.parameterEncodingFailed` when the parameters cannot be encoded,
    ///   or what `urlRequest.asURLRequest()` throws.
    func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest
}
