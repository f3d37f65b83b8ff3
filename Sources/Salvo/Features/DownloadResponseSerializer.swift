import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a download's response and file into a value.
public protocol DownloadResponseSerializerProtocol<SerializedObject>: Sendable {
    /// The value produced.
    associatedtype SerializedObject: Sendable

    /// Serializes a download.
    ///
    /// - Parameters:
    ///   - request: The request sent.
    ///   - response: The response, if any.
    ///   - fileURL: Where the file is, if the download succeeded.
    ///   - error: The request's error, if any; serializers rethrow it.
    /// - Returns: The value.
    /// - Throws: The request's error, or a serialization error.
    func serializeDownload(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, error: (any Error)?) throws -> SerializedObject
}

extension DownloadResponseSerializerProtocol where Self: DataResponseSerializerProtocol {
    /// Reads the file and serializes its contents as a data response.
    ///
    /// - Throws: The request's error; `AFError.responseSerializationFailed` with
    ///   `.inputFileNil` or `.inputFileReadFailed(at:)`; or the data serializer's error.
    public func serializeDownload(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, error: (any Error)?) throws -> SerializedObject {
        if let error { throw error }
        let data = try URLResponseSerializer.readFile(fileURL)
        return try serialize(request: request, response: response, data: data, error: nil)
    }
}

/// Produces the downloaded file's `URL`.
public struct URLResponseSerializer: DownloadResponseSerializerProtocol {
    /// Creates the serializer.
    public init() {}

    /// Returns `fileURL`.
    ///
    /// - Throws: The request's error, or `AFError.responseSerializationFailed(reason: .inputFileNil)`.
    public func serializeDownload(request: URLRequest?, response: HTTPURLResponse?, fileURL: URL?, error: (any Error)?) throws -> URL {
        if let error { throw error }
        guard let fileURL else { throw AFError.responseSerializationFailed(reason: .inputFileNil) }
        return fileURL
    }

    /// The whole file, for serializers that work on `Data`.
    static func readFile(_ fileURL: URL?) throws -> Data {
        guard let fileURL else { throw AFError.responseSerializationFailed(reason: .inputFileNil) }
        do {
            return try Data(contentsOf: fileURL)
        } catch {
            throw AFError.responseSerializationFailed(reason: .inputFileReadFailed(at: fileURL))
        }
    }
}

extension DownloadResponseSerializerProtocol where Self == URLResponseSerializer {
    /// A `URLResponseSerializer`.
    public static var url: URLResponseSerializer { URLResponseSerializer() }
}
