import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Passes the body through as `Data`.
public final class DataResponseSerializer: ResponseSerializer, InputSerializer {
    /// Applied before the data is returned.
    public let dataPreprocessor: any DataPreprocessor
    /// Status codes whose responses may be empty.
    public let emptyResponseCodes: Set<Int>
    /// Methods whose responses may be empty.
    public let emptyRequestMethods: Set<HTTPMethod>

    /// Creates the serializer.
    ///
    /// - Parameters:
    ///   - dataPreprocessor: Applied first. `PassthroughPreprocessor` by default.
    ///   - emptyResponseCodes: `[204, 205]` by default.
    ///   - emptyRequestMethods: `[.head]` by default.
    public init(dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods) {
        self.dataPreprocessor = dataPreprocessor
        self.emptyResponseCodes = emptyResponseCodes
        self.emptyRequestMethods = emptyRequestMethods
    }

    /// Returns the body, or an empty `Data` where an empty body is allowed.
    ///
    /// - Throws: The request's error, or `AFError.responseSerializationFailed(reason: .inputDataNilOrZeroLength)`.
    public func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> Data {
        try serialize(input: SerializationInput(request: request, response: response), data: data, error: error)
    }

    func serialize(input: SerializationInput, data: Data?, error: (any Error)?) throws -> Data {
        if let error { throw error }
        guard let data, !data.isEmpty else {
            guard emptyAllowed(input) else { throw AFError.responseSerializationFailed(reason: .inputDataNilOrZeroLength) }
            return Data()
        }
        return try dataPreprocessor.preprocess(data)
    }
}

extension ResponseSerializer where Self == DataResponseSerializer {
    /// A `DataResponseSerializer` with default settings.
    public static var data: DataResponseSerializer { DataResponseSerializer() }

    /// A `DataResponseSerializer` with the given settings.
    public static func data(dataPreprocessor: any DataPreprocessor = DataResponseSerializer.defaultDataPreprocessor,
                            emptyResponseCodes: Set<Int> = DataResponseSerializer.defaultEmptyResponseCodes,
                            emptyRequestMethods: Set<HTTPMethod> = DataResponseSerializer.defaultEmptyRequestMethods) -> DataResponseSerializer {
        DataResponseSerializer(dataPreprocessor: dataPreprocessor, emptyResponseCodes: emptyResponseCodes, emptyRequestMethods: emptyRequestMethods)
    }
}
