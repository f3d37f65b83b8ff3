import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A type that encodes an `Encodable` value into a `URLRequest`, as its query, its body, or
/// however else the conforming type decides.
///
/// Salvo ships `URLEncodedFormParameterEncoder` and `JSONParameterEncoder`; any other type
/// that conforms can be passed wherever a request takes an `encoder:` argument.
public protocol ParameterEncoder: Sendable {
    /// Encodes `parameters` into a copy of `request`.
    ///
    /// - Parameters:
    ///   - parameters: The value to encode. `nil` returns `request` untouched.
    ///   - request: The request to encode the parameters into.
    /// - Returns: The request carrying the encoded parameters.
    /// - Throws: Any error encoding produced. Salvo's encoders throw
    ///   `AFError.parameterEncoderFailed` (or, for JSON, `AFError.parameterEncodingFailed`),
    ///   exactly as Alamofire's do.
    func encode<Parameters: Encodable & Sendable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest
}
