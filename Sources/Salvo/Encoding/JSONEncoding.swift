import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes `Parameters`, or any JSON object, as a JSON body with `Content-Type:
/// application/json` unless the request already has a `Content-Type`.
///
/// The bytes are those `JSONSerialization` writes on Linux for the same options; the common
/// value types are written by Salvo's own writer, which skips Foundation's bridging, and
/// anything else goes through `JSONSerialization` itself.
public struct JSONEncoding: ParameterEncoding {
    /// Errors of the JSON encoding itself.
    public enum Error: Swift.Error, Sendable {
        /// The value is not something JSON can represent.
        case invalidJSONObject
    }

    /// Compact output.
    public static var `default`: JSONEncoding { JSONEncoding() }

    /// Indented output.
    public static var prettyPrinted: JSONEncoding { JSONEncoding(options: .prettyPrinted) }

    /// The options given to the writer.
    public let options: JSONSerialization.WritingOptions

    /// Creates an encoding.
    ///
    /// - Parameter options: Writing options; none by default.
    public init(options: JSONSerialization.WritingOptions = []) {
        self.options = options
    }

    /// Returns the request with the parameters as its JSON body.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to encode into.
    ///   - parameters: The parameters; `nil` leaves the request unchanged.
    /// - Returns: The encoded request.
    /// - Throws: `AFError.parameterEncodingFailed(reason: .jsonEncodingFailed)` when the
    ///   parameters hold something JSON cannot represent or nest deeper than
    ///   `ParameterNesting.maximumDepth`.
    public func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        var urlRequest = try urlRequest.asURLRequest()
        guard let parameters else { return urlRequest }
        urlRequest.httpBody = try encodedBody(parameters)
        urlRequest.setContentTypeIfAbsent("application/json")
        return urlRequest
    }

    /// Returns the request with any JSON object as its body.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to encode into.
    ///   - jsonObject: A dictionary or array of JSON values; `nil` leaves the request unchanged.
    /// - Returns: The encoded request.
    /// - Throws: `AFError.parameterEncodingFailed(reason: .jsonEncodingFailed)` when the
    ///   object is not valid JSON (a top-level scalar included).
    public func encode(_ urlRequest: any URLRequestConvertible, withJSONObject jsonObject: Any? = nil) throws -> URLRequest {
        var urlRequest = try urlRequest.asURLRequest()
        guard let jsonObject else { return urlRequest }
        urlRequest.httpBody = try encodedBody(jsonObject)
        urlRequest.setContentTypeIfAbsent("application/json")
        return urlRequest
    }

    private func encodedBody(_ object: Any) throws -> Data {
        if let writer = JSONWriter(options: options) {
            switch writer.write(object) {
            case let .written(bytes): return Data(bytes)
            case .invalid: throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: Error.invalidJSONObject))
            case .tooDeep: throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: ParameterNesting.tooDeep(object)))
            case .unsupported: break
            }
        }
        // JSONSerialization recurses too, and has no limit of its own.
        if ParameterNesting.exceedsMaximumDepth(object) {
            throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: ParameterNesting.tooDeep(object)))
        }
        guard JSONSerialization.isValidJSONObject(object) else {
            throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: Error.invalidJSONObject))
        }
        do {
            return try JSONSerialization.data(withJSONObject: object, options: options)
        } catch {
            throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: error))
        }
    }
}

extension JSONEncoding.Error: LocalizedError {
    /// What went wrong, in words.
    public var errorDescription: String? {
        switch self {
        case .invalidJSONObject:
            "The parameters or object given to JSONEncoding are not valid JSON: a value JSON cannot represent (NaN, infinity, a type JSONSerialization does not know) or a top-level value that is neither an array nor a dictionary."
        }
    }
}
