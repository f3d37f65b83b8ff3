import Foundation
internal import CZlib
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Compresses request bodies with deflate (the zlib format, RFC 1950) and sets
/// `Content-Encoding: deflate`, as Alamofire's compressor does.
///
/// Use it as a session's or a request's interceptor. Only bodies in `httpBody` are
/// compressed; uploads from files and streams are sent as they are.
///
/// ```swift
/// // Compress bodies of 1 KiB and more; small ones gain nothing.
/// let compressor = DeflateRequestCompressor(shouldCompressBodyData: { $0.count >= 1024 })
/// ```
public struct DeflateRequestCompressor: RequestInterceptor {
    /// What to do when the request already has a `Content-Encoding` header.
    public enum DuplicateHeaderBehavior: Sendable {
        /// Fail the request with `DuplicateHeaderError`.
        case error
        /// Compress anyway and replace the header.
        case replace
        /// Leave the request alone.
        case skip
    }

    /// The request already had a `Content-Encoding` header.
    public struct DuplicateHeaderError: Error {}

    /// What to do when the request already has a `Content-Encoding` header.
    public let duplicateHeaderBehavior: DuplicateHeaderBehavior
    /// Whether a body is worth compressing (a size threshold, for instance).
    public let shouldCompressBodyData: @Sendable (_ bodyData: Data) -> Bool

    /// Creates the compressor.
    ///
    /// - Parameters:
    ///   - duplicateHeaderBehavior: What to do with an existing `Content-Encoding`. `.error`
    ///     by default.
    ///   - shouldCompressBodyData: Whether to compress a body. Always, by default.
    public init(duplicateHeaderBehavior: DuplicateHeaderBehavior = .error,
                shouldCompressBodyData: @escaping @Sendable (_ bodyData: Data) -> Bool = { _ in true }) {
        self.duplicateHeaderBehavior = duplicateHeaderBehavior
        self.shouldCompressBodyData = shouldCompressBodyData
    }

    /// Compresses the body, if there is one and it should be.
    ///
    /// - Parameters:
    ///   - urlRequest: The request.
    ///   - session: The session.
    ///   - completion: Called once with the compressed request or the error.
    public func adapt(_ urlRequest: URLRequest, for session: Session,
                      completion: @escaping @Sendable (Result<URLRequest, any Error>) -> Void) {
        guard let body = urlRequest.httpBody, shouldCompressBodyData(body) else {
            completion(.success(urlRequest))
            return
        }
        if urlRequest.value(forHTTPHeaderField: "Content-Encoding") != nil {
            switch duplicateHeaderBehavior {
            case .error:
                completion(.failure(DuplicateHeaderError()))
                return
            case .replace:
                break
            case .skip:
                completion(.success(urlRequest))
                return
            }
        }
        var compressed = urlRequest
        do {
            compressed.httpBody = try Zlib.deflate(body)
        } catch {
            completion(.failure(error))
            return
        }
        compressed.setValue("deflate", forHTTPHeaderField: "Content-Encoding")
        completion(.success(compressed))
    }
}

extension RequestInterceptor where Self == DeflateRequestCompressor {
    /// A `DeflateRequestCompressor` with the default behaviours.
    public static var deflateCompressor: DeflateRequestCompressor { DeflateRequestCompressor() }

    /// A `DeflateRequestCompressor`.
    ///
    /// - Parameters:
    ///   - duplicateHeaderBehavior: What to do with an existing `Content-Encoding`. `.error`
    ///     by default.
    ///   - shouldCompressBodyData: Whether to compress a body. Always, by default.
    /// - Returns: The compressor.
    public static func deflateCompressor(duplicateHeaderBehavior: DeflateRequestCompressor.DuplicateHeaderBehavior = .error,
                                         shouldCompressBodyData: @escaping @Sendable (_ bodyData: Data) -> Bool = { _ in true })
        -> DeflateRequestCompressor {
        DeflateRequestCompressor(duplicateHeaderBehavior: duplicateHeaderBehavior, shouldCompressBodyData: shouldCompressBodyData)
    }
}

/// zlib's one-shot calls.
enum Zlib {
    /// A zlib error code.
    struct Failure: Error, CustomStringConvertible {
        let code: Int32
        var description: String { "zlib error \(code)" }
    }

    /// The zlib stream (header, deflate data, Adler-32) of `data`, at the default level.
    static func deflate(_ data: Data) throws -> Data {
        var length = compressBound(uLong(data.count))
        var output = Data(count: Int(length))
        let status = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                compress2(out.baseAddress!.assumingMemoryBound(to: Bytef.self), &length,
                          input.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(data.count), Z_DEFAULT_COMPRESSION)
            }
        }
        guard status == Z_OK else { throw Failure(code: status) }
        output.count = Int(length)
        return output
    }

    /// The data of a zlib stream whose decompressed size is at most `capacity`.
    static func inflate(_ data: Data, capacity: Int) throws -> Data {
        var length = uLong(capacity)
        var output = Data(count: max(capacity, 1))
        let status = output.withUnsafeMutableBytes { out in
            data.withUnsafeBytes { input in
                uncompress(out.baseAddress!.assumingMemoryBound(to: Bytef.self), &length,
                           input.baseAddress?.assumingMemoryBound(to: Bytef.self), uLong(data.count))
            }
        }
        guard status == Z_OK else { throw Failure(code: status) }
        output.count = Int(length)
        return output
    }
}
