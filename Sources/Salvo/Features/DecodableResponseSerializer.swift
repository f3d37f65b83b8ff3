import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// MARK: - Empty responses

/// A type with a value that stands for an empty response body.
///
/// `DecodableResponseSerializer` returns `emptyValue()` when the body is empty and the
/// request's method or the response's status code allows that; a type that does not
/// conform fails with `AFError.responseSerializationFailed(reason: .invalidEmptyResponse(type:))`.
public protocol EmptyResponse: Sendable {
    /// The value to use for an empty body.
    ///
    /// - Returns: The value.
    static func emptyValue() -> Self
}

/// The value of a response that carries no body, such as a `204 No Content`.
///
/// Decode into `Empty` when only success matters: an allowed empty body yields `Empty.value`,
/// and a JSON object (`{}` or any other) decodes too, its contents ignored.
public struct Empty: Hashable, Codable, Sendable {
    /// The one `Empty` value.
    public static let value = Empty()
}

extension Empty: EmptyResponse {
    /// Returns `Empty.value`.
    ///
    /// - Returns: `Empty.value`.
    public static func emptyValue() -> Empty { value }
}

// MARK: - Decoders

/// Anything that decodes a `Decodable` value from `Data`, such as `JSONDecoder`.
public protocol DataDecoder: Sendable {
    /// Decodes a value.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - data: The bytes to decode.
    /// - Returns: The value.
    /// - Throws: Whatever the decoder throws for malformed input.
    func decode<D: Decodable>(_ type: D.Type, from data: Data) throws -> D
}

/// `JSONDecoder` decodes `Data` already; this declares it.
extension JSONDecoder: DataDecoder {}
/// `PropertyListDecoder` decodes `Data` already; this declares it.
extension PropertyListDecoder: DataDecoder {}

// MARK: - Serializer

/// Decodes the body into a `Decodable` type with a `DataDecoder`, `JSONDecoder()` by default.
///
/// An empty or missing body fails with `.inputDataNilOrZeroLength` unless the request's
/// method or the response's status code allows it; then the result is `T.emptyValue()` when
/// `T` conforms to `EmptyResponse` (as `Empty` does), and otherwise the serializer fails with
/// `.invalidEmptyResponse(type:)`. A decoder error becomes `.decodingFailed(error:)`.
public final class DecodableResponseSerializer<T: Decodable>: ResponseSerializer, InputSerializer where T: Sendable {
    /// Applied to the body before it is decoded.
    public let dataPreprocessor: any DataPreprocessor
    /// Decodes the body.
    public let decoder: any DataDecoder
    /// Status codes whose responses may have an empty body.
    public let emptyResponseCodes: Set<Int>
    /// Request methods whose responses may have an empty body.
    public let emptyRequestMethods: Set<HTTPMethod>

    /// Creates the serializer.
    ///
    /// - Parameters:
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - decoder: Decodes the body. `JSONDecoder()` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    public init(dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer.defaultDataPreprocessor,
                decoder: any DataDecoder = JSONDecoder(),
                emptyResponseCodes: Set<Int> = DecodableResponseSerializer.defaultEmptyResponseCodes,
                emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer.defaultEmptyRequestMethods) {
        self.dataPreprocessor = dataPreprocessor
        self.decoder = decoder
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// Decodes the body.
    ///
    /// - Parameters:
    ///   - request: The request sent; its method decides whether an empty body is allowed.
    ///   - response: The response; its status code decides whether an empty body is allowed.
    ///   - data: The body.
    ///   - error: The request's error, rethrown when present.
    /// - Returns: The decoded value, or `T.emptyValue()` for an allowed empty body.
    /// - Throws: The request's error; `.inputDataNilOrZeroLength`, `.invalidEmptyResponse(type:)`
    ///   or `.decodingFailed(error:)` wrapped in `AFError.responseSerializationFailed`; or the
    ///   preprocessor's error.
    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> T {
        try serialize(input: SerializationInput(request: request, response: response), data: data, error: error)
    }

    func serialize(input: SerializationInput, data: Data?, error: (any Error)?) throws -> T {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyAllowed(input) else { throw AFError.responseSerializationFailed(reason: .inputDataNilOrZeroLength) }
            guard let emptyType = T.self as? any EmptyResponse.Type, let empty = emptyType.emptyValue() as? T else {
                throw AFError.responseSerializationFailed(reason: .invalidEmptyResponse(type: "\(T.self)"))
            }
            return empty
        }
        let body = try dataPreprocessor.preprocess(data)
        do {
            return try decoder.decode(T.self, from: body)
        } catch {
            throw AFError.responseSerializationFailed(reason: .decodingFailed(error: error))
        }
    }
}

extension ResponseSerializer {
    /// A `DecodableResponseSerializer` with the given settings.
    ///
    /// - Parameters:
    ///   - type: The type to decode.
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - decoder: Decodes the body. `JSONDecoder()` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    /// - Returns: The serializer.
    public static func decodable<T: Decodable & Sendable>(of type: T.Type,
                                                          dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<T>.defaultDataPreprocessor,
                                                          decoder: any DataDecoder = JSONDecoder(),
                                                          emptyResponseCodes: Set<Int> = DecodableResponseSerializer<T>.defaultEmptyResponseCodes,
                                                          emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<T>.defaultEmptyRequestMethods)
        -> DecodableResponseSerializer<T> where Self == DecodableResponseSerializer<T> {
        DecodableResponseSerializer<T>(dataPreprocessor: dataPreprocessor, decoder: decoder, emptyResponseCodes: emptyResponseCodes,
                                       emptyRequestMethods: emptyRequestMethods)
    }
}
