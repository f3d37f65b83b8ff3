import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Parses the body with `JSONSerialization`.
///
/// An empty or missing body fails with `.inputDataNilOrZeroLength` unless the request's
/// method or the response's status code allows it; then the result is `NSNull()`. A parse
/// error becomes `AFError.responseSerializationFailed(reason: .jsonSerializationFailed(error:))`.
///
/// - Note: Differs from Alamofire in one type: Salvo's serializers produce `Sendable` values,
///   so `SerializedObject` is `any Sendable` rather than `Any`. Casts such as
///   `value as? [String: Any]` work unchanged, and `DataRequest.responseJSON` still hands its
///   handler an `AFDataResponse<Any>`.
@available(*, deprecated, message: "JSONResponseSerializer is deprecated, as in Alamofire 5. Use DecodableResponseSerializer instead.")
public final class JSONResponseSerializer: ResponseSerializer, InputSerializer {
    /// Applied to the body before it is parsed.
    public let dataPreprocessor: any DataPreprocessor
    /// Status codes whose responses may have an empty body.
    public let emptyResponseCodes: Set<Int>
    /// Request methods whose responses may have an empty body.
    public let emptyRequestMethods: Set<HTTPMethod>
    /// The options passed to `JSONSerialization`.
    public let options: JSONSerialization.ReadingOptions

    /// Creates the serializer.
    ///
    /// - Parameters:
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    ///   - options: `JSONSerialization` reading options. `.allowFragments` by default.
    public init(dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
                emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
                emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
                options: JSONSerialization.ReadingOptions = .allowFragments) {
        self.dataPreprocessor = dataPreprocessor
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
        self.options = options
    }

    /// Parses the body.
    ///
    /// - Parameters:
    ///   - request: The request sent; its method decides whether an empty body is allowed.
    ///   - response: The response; its status code decides whether an empty body is allowed.
    ///   - data: The body.
    ///   - error: The request's error, rethrown when present.
    /// - Returns: The parsed object (dictionaries, arrays, strings, numbers, `NSNull`), or
    ///   `NSNull()` for an allowed empty body.
    /// - Throws: The request's error; `.inputDataNilOrZeroLength` or
    ///   `.jsonSerializationFailed(error:)` wrapped in `AFError.responseSerializationFailed`; or
    ///   the preprocessor's error.
    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> any Sendable {
        try serialize(input: SerializationInput(request: request, response: response), data: data, error: error)
    }

    func serialize(input: SerializationInput, data: Data?, error: (any Error)?) throws -> any Sendable {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyAllowed(input) else { throw AFError.responseSerializationFailed(reason: .inputDataNilOrZeroLength) }
            return NSNull()
        }
        let body = try dataPreprocessor.preprocess(data)
        let object: Any
        do {
            object = try JSONSerialization.jsonObject(with: body, options: options)
        } catch {
            throw AFError.responseSerializationFailed(reason: .jsonSerializationFailed(error: error))
        }
        return Self.sendable(object)
    }

    /// Re-types `JSONSerialization`'s result as `any Sendable`.
    ///
    /// The tree was made by this call and is referenced by nothing else, and its leaves
    /// (strings, `NSNumber`, `NSNull`) are immutable, so handing it to the one handler that
    /// serialized it is safe; the compiler cannot see that through `Any`. A cast to `any
    /// Sendable` always succeeds at run time (`Sendable` is a marker protocol); going through
    /// a generic parameter states that without the "always succeeds" diagnostic a literal
    /// `as!` draws.
    private static func sendable(_ object: Any) -> any Sendable {
        func cast<Target>(_ value: Any, to _: Target.Type) -> Target { value as! Target }
        return cast(object, to: (any Sendable).self)
    }
}
