import Foundation

/// Turns one chunk of a streamed body into a value.
public protocol DataStreamSerializer<SerializedObject>: Sendable {
    /// The value produced.
    associatedtype SerializedObject: Sendable

    /// Serializes a chunk.
    ///
    /// - Parameter data: The chunk.
    /// - Returns: The value.
    /// - Throws: A serialization error.
    func serialize(_ data: Data) throws -> SerializedObject
}

/// Decodes each chunk into a `Decodable` type.
///
/// - Note: `responseStreamDecodable` feeds it each chunk as it arrives, as Alamofire does;
///   `responseStreamDecodableLines` splits the body into lines first (newline-delimited
///   JSON), so a value split across chunks still decodes.
public struct DecodableStreamSerializer<T: Decodable & Sendable>: DataStreamSerializer {
    /// Decodes the data.
    public let decoder: any DataDecoder
    /// Applied to the data first.
    public let dataPreprocessor: any DataPreprocessor

    /// Creates the serializer.
    ///
    /// - Parameters:
    ///   - decoder: Decodes the data. `JSONDecoder()` by default.
    ///   - dataPreprocessor: Applied first. `PassthroughPreprocessor` by default.
    public init(decoder: any DataDecoder = JSONDecoder(), dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor()) {
        self.decoder = decoder
        self.dataPreprocessor = dataPreprocessor
    }

    /// Decodes `data`.
    ///
    /// - Throws: `AFError.responseSerializationFailed(reason: .decodingFailed(error:))`.
    public func serialize(_ data: Data) throws -> T {
        let processed = try dataPreprocessor.preprocess(data)
        do {
            return try decoder.decode(T.self, from: processed)
        } catch {
            throw AFError.responseSerializationFailed(reason: .decodingFailed(error: error))
        }
    }
}

/// Passes each chunk on unchanged.
public struct PassthroughStreamSerializer: DataStreamSerializer {
    /// Creates the serializer.
    public init() {}
    /// Returns `data`.
    public func serialize(_ data: Data) throws -> Data { data }
}

/// Decodes each chunk as UTF-8 text (invalid bytes become U+FFFD).
public struct StringStreamSerializer: DataStreamSerializer {
    /// Creates the serializer.
    public init() {}
    /// Returns `data` as text.
    public func serialize(_ data: Data) throws -> String { String(decoding: data, as: UTF8.self) }
}

extension DataStreamSerializer {
    /// A `DecodableStreamSerializer` for `type`.
    ///
    /// - Parameters:
    ///   - type: The type.
    ///   - decoder: Decodes the data. `JSONDecoder()` by default.
    ///   - dataPreprocessor: Applied first. `PassthroughPreprocessor` by default.
    /// - Returns: The serializer.
    public static func decodable<T: Decodable & Sendable>(of type: T.Type, decoder: any DataDecoder = JSONDecoder(),
                                                          dataPreprocessor: any DataPreprocessor = PassthroughPreprocessor())
        -> Self where Self == DecodableStreamSerializer<T> {
        DecodableStreamSerializer<T>(decoder: decoder, dataPreprocessor: dataPreprocessor)
    }
}

extension DataStreamSerializer where Self == PassthroughStreamSerializer {
    /// A `PassthroughStreamSerializer`.
    public static var passthrough: PassthroughStreamSerializer { PassthroughStreamSerializer() }
}

extension DataStreamSerializer where Self == StringStreamSerializer {
    /// A `StringStreamSerializer`.
    public static var string: StringStreamSerializer { StringStreamSerializer() }
}
