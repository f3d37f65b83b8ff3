import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension DataRequest {
    /// Calls a handler with the response serialized by a `ResponseSerializer`.
    ///
    /// Behaves as `response(queue:responseSerializer:completionHandler:)` for any
    /// `DataResponseSerializerProtocol`; this overload, which Alamofire has too, lets the
    /// shorthands declared on `ResponseSerializer` be written at the call site:
    /// `response(responseSerializer: .string) { ... }`, `.decodable(of: T.self)`, `.data()`.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - responseSerializer: The serializer.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func response<Serializer: ResponseSerializer>(queue: DispatchQueue = .main,
                                                         responseSerializer: Serializer,
                                                         completionHandler: @escaping @Sendable (AFDataResponse<Serializer.SerializedObject>) -> Void) -> Self {
        responseWithAnySerializer(queue: queue, responseSerializer: responseSerializer, completionHandler: completionHandler)
    }

    /// Reaches the `DataResponseSerializerProtocol` overload: here the serializer is known
    /// only by that protocol, so the call cannot resolve back to the overload above.
    private func responseWithAnySerializer<Serializer: DataResponseSerializerProtocol>(
        queue: DispatchQueue, responseSerializer: Serializer,
        completionHandler: @escaping @Sendable (AFDataResponse<Serializer.SerializedObject>) -> Void) -> Self {
        response(queue: queue, responseSerializer: responseSerializer, completionHandler: completionHandler)
    }

    /// Calls a handler with the body decoded as a `String`.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default (see
    ///     `Session.responseQueue` to keep a server process off the main queue).
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - encoding: The encoding to decode with. `nil` by default: the response's charset,
    ///     falling back to ISO-8859-1.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseString(queue: DispatchQueue = .main,
                               dataPreprocessor: any DataPreprocessor = StringResponseSerializer.defaultDataPreprocessor,
                               encoding: String.Encoding? = nil,
                               emptyResponseCodes: Set<Int> = StringResponseSerializer.defaultEmptyResponseCodes,
                               emptyRequestMethods: Set<HTTPMethod> = StringResponseSerializer.defaultEmptyRequestMethods,
                               completionHandler: @escaping @Sendable (AFDataResponse<String>) -> Void) -> Self {
        builtInResponse(queue: queue,
                        serializer: StringResponseSerializer(dataPreprocessor: dataPreprocessor, encoding: encoding,
                                                             emptyResponseCodes: emptyResponseCodes,
                                                             emptyRequestMethods: emptyRequestMethods),
                        completionHandler: completionHandler)
    }

    /// Calls a handler with the body decoded into a `Decodable` type.
    ///
    /// - Parameters:
    ///   - type: The type to decode. Inferred from the handler by default.
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - decoder: Decodes the body. `JSONDecoder()` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies. `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @discardableResult
    public func responseDecodable<Value: Decodable & Sendable>(of type: Value.Type = Value.self,
                                                               queue: DispatchQueue = .main,
                                                               dataPreprocessor: any DataPreprocessor = DecodableResponseSerializer<Value>.defaultDataPreprocessor,
                                                               decoder: any DataDecoder = JSONDecoder(),
                                                               emptyResponseCodes: Set<Int> = DecodableResponseSerializer<Value>.defaultEmptyResponseCodes,
                                                               emptyRequestMethods: Set<HTTPMethod> = DecodableResponseSerializer<Value>.defaultEmptyRequestMethods,
                                                               completionHandler: @escaping @Sendable (AFDataResponse<Value>) -> Void) -> Self {
        builtInResponse(queue: queue,
                        serializer: DecodableResponseSerializer<Value>(dataPreprocessor: dataPreprocessor, decoder: decoder,
                                                                       emptyResponseCodes: emptyResponseCodes,
                                                                       emptyRequestMethods: emptyRequestMethods),
                        completionHandler: completionHandler)
    }

    /// Calls a handler with the body parsed by `JSONSerialization`.
    ///
    /// - Parameters:
    ///   - queue: Where the serializer and handler run. `.main` by default.
    ///   - dataPreprocessor: Applied to the body first. `PassthroughPreprocessor` by default.
    ///   - emptyResponseCodes: Status codes that may have empty bodies (the value is then
    ///     `NSNull()`). `[204, 205]` by default.
    ///   - emptyRequestMethods: Methods whose responses may be empty. `[.head]` by default.
    ///   - options: `JSONSerialization` reading options. `.allowFragments` by default.
    ///   - completionHandler: Called once.
    /// - Returns: The request.
    @preconcurrency
    @available(*, deprecated, message: "responseJSON is deprecated, as in Alamofire 5. Use responseDecodable instead.")
    @discardableResult
    public func responseJSON(queue: DispatchQueue = .main,
                             dataPreprocessor: any DataPreprocessor = JSONResponseSerializer.defaultDataPreprocessor,
                             emptyResponseCodes: Set<Int> = JSONResponseSerializer.defaultEmptyResponseCodes,
                             emptyRequestMethods: Set<HTTPMethod> = JSONResponseSerializer.defaultEmptyRequestMethods,
                             options: JSONSerialization.ReadingOptions = .allowFragments,
                             completionHandler: @escaping @Sendable (AFDataResponse<Any>) -> Void) -> Self {
        let serializer = JSONResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes,
                                                emptyRequestMethods: emptyRequestMethods, options: options)
        // The serializer's value is typed `any Sendable`; Alamofire's handler takes `Any`, so
        // re-type it on the handler's queue, where the response is made and consumed.
        return builtInResponse(queue: queue, serializer: serializer) { response in
            completionHandler(response.map { $0 as Any })
        }
    }
}
