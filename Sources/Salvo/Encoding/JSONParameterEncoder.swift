import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `ParameterEncoder` that writes parameters as a JSON body with a `JSONEncoder`.
///
/// When the request has no `Content-Type`, it gets `application/json`; one already set is
/// kept.
///
/// The class is `open`, as in Alamofire: a subclass may override
/// `encode(_:into:)`, for instance to add a header or wrap the value, and call `super`.
///
/// - Note: In Swift 6 a subclass must restate the conformance,
///   `class MyEncoder: JSONParameterEncoder, @unchecked Sendable`, or the compiler
///   warns; the same holds with Alamofire.
// `@unchecked Sendable` because the compiler cannot check a non-final class. It holds: the
// only stored property is a `let` holding a `JSONEncoder`, which Foundation declares
// `Sendable` (its options sit behind a lock). A subclass that adds mutable state must guard
// it itself, as with any `open` Sendable class.
open class JSONParameterEncoder: @unchecked Sendable, ParameterEncoder { // no lock: one immutable `let` of a Sendable JSONEncoder (see above)
    /// An encoder with a default `JSONEncoder`.
    public static var `default`: JSONParameterEncoder { JSONParameterEncoder() }

    /// An encoder whose `JSONEncoder` writes indented output (`.prettyPrinted`).
    public static var prettyPrinted: JSONParameterEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .prettyPrinted
        return JSONParameterEncoder(encoder: encoder)
    }

    /// An encoder whose `JSONEncoder` writes object keys in sorted order (`.sortedKeys`).
    public static var sortedKeys: JSONParameterEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return JSONParameterEncoder(encoder: encoder)
    }

    /// The `JSONEncoder` that writes the body.
    public let encoder: JSONEncoder

    /// Creates a parameter encoder.
    ///
    /// - Parameter encoder: The `JSONEncoder` to use. `JSONEncoder()` by default.
    public init(encoder: JSONEncoder = JSONEncoder()) {
        self.encoder = encoder
    }

    /// Encodes `parameters` as the JSON body of a copy of `request`. Override it to change
    /// how parameters are written; call `super` to keep the JSON body and `Content-Type`.
    ///
    /// - Parameters:
    ///   - parameters: The value to encode. `nil` returns `request` untouched.
    ///   - request: The request to encode the parameters into.
    /// - Returns: The request with the JSON body.
    /// - Throws: `AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error:))` when
    ///   the `JSONEncoder` fails, for instance on a `Double.nan`. (Alamofire reports this
    ///   encoder's failures with that `ParameterEncoding` error too.)
    open func encode<Parameters: Encodable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        guard let parameters else { return request }

        var request = request

        do {
            request.httpBody = try encoder.encode(parameters)
        } catch {
            throw AFError.parameterEncodingFailed(reason: .jsonEncodingFailed(error: error))
        }
        request.setContentTypeIfAbsent("application/json")

        return request
    }
}

extension ParameterEncoder where Self == JSONParameterEncoder {
    /// A `JSONParameterEncoder` with a default `JSONEncoder`, for `encoder: .json`.
    public static var json: JSONParameterEncoder { JSONParameterEncoder() }

    /// Creates a `JSONParameterEncoder`, for `encoder: .json(encoder:)`.
    ///
    /// - Parameter encoder: The `JSONEncoder` to use. `JSONEncoder()` by default.
    /// - Returns: The parameter encoder.
    public static func json(encoder: JSONEncoder = JSONEncoder()) -> JSONParameterEncoder {
        JSONParameterEncoder(encoder: encoder)
    }
}
