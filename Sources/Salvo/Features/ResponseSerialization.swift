import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns a data response into a value.
public protocol DataResponseSerializerProtocol<SerializedObject>: Sendable {
    /// The value produced.
    associatedtype SerializedObject: Sendable

    /// Serializes a response.
    ///
    /// - Parameters:
    ///   - request: The request sent.
    ///   - response: The response, if any.
    ///   - data: The body, if any.
    ///   - error: The request's error, if any; serializers rethrow it.
    /// - Returns: The value.
    /// - Throws: The request's error, or a serialization error.
    func serialize(request: URLRequest?, response: HTTPURLResponse?, data: Data?, error: (any Error)?) throws -> SerializedObject
}

/// Prepares data before serialization.
public protocol DataPreprocessor: Sendable {
    /// Returns the data to serialize.
    ///
    /// - Parameter data: The body.
    /// - Returns: The data to serialize.
    /// - Throws: Any error; serialization then fails with it.
    func preprocess(_ data: Data) throws -> Data
}

/// Leaves data unchanged.
public struct PassthroughPreprocessor: DataPreprocessor {
    /// Creates the preprocessor.
    public init() {}
    /// Returns `data`.
    public func preprocess(_ data: Data) throws -> Data { data }
}

/// Drops the `)]}',\n` prefix some servers put before JSON.
public struct GoogleXSSIPreprocessor: DataPreprocessor {
    /// Creates the preprocessor.
    public init() {}
    /// Returns `data` without the prefix.
    public func preprocess(_ data: Data) throws -> Data {
        let prefix = Data(")]}',\n".utf8)
        return data.starts(with: prefix) ? data.dropFirst(prefix.count) : data
    }
}

extension DataPreprocessor where Self == PassthroughPreprocessor {
    /// A `PassthroughPreprocessor`.
    public static var passthrough: PassthroughPreprocessor { PassthroughPreprocessor() }
}

extension DataPreprocessor where Self == GoogleXSSIPreprocessor {
    /// A `GoogleXSSIPreprocessor`.
    public static var googleXSSI: GoogleXSSIPreprocessor { GoogleXSSIPreprocessor() }
}

/// A serializer with Alamofire's rules for empty bodies.
public protocol ResponseSerializer<SerializedObject>: DataResponseSerializerProtocol & DownloadResponseSerializerProtocol {
    /// Applied to the data before serialization.
    var dataPreprocessor: any DataPreprocessor { get }
    /// Request methods whose responses may be empty.
    var emptyRequestMethods: Set<HTTPMethod> { get }
    /// Status codes whose responses may be empty.
    var emptyResponseCodes: Set<Int> { get }
}

// Built once: every response method's default arguments read these, and a `Set` literal
// hashes its elements (a method's name, for `HTTPMethod`) each time it is made.
private let sharedEmptyRequestMethods: Set<HTTPMethod> = [.head]
private let sharedEmptyResponseCodes: Set<Int> = [204, 205]

extension ResponseSerializer {
    /// `PassthroughPreprocessor`.
    public static var defaultDataPreprocessor: any DataPreprocessor { PassthroughPreprocessor() }
    /// `[.head]`.
    public static var defaultEmptyRequestMethods: Set<HTTPMethod> { sharedEmptyRequestMethods }
    /// `[204, 205]`.
    public static var defaultEmptyResponseCodes: Set<Int> { sharedEmptyResponseCodes }

    /// The default preprocessor.
    public var dataPreprocessor: any DataPreprocessor { PassthroughPreprocessor() }
    /// The default methods.
    public var emptyRequestMethods: Set<HTTPMethod> { Self.defaultEmptyRequestMethods }
    /// The default codes.
    public var emptyResponseCodes: Set<Int> { Self.defaultEmptyResponseCodes }

    /// Whether the request's method allows an empty body, or `nil` without a request.
    public func requestAllowsEmptyResponseData(_ request: URLRequest?) -> Bool? {
        request.flatMap(\.httpMethod).map { emptyRequestMethods.contains(HTTPMethod(rawValue: $0)) }
    }

    /// Whether the status code allows an empty body, or `nil` without a response.
    public func responseAllowsEmptyResponseData(_ response: HTTPURLResponse?) -> Bool? {
        response.map { emptyResponseCodes.contains($0.statusCode) }
    }

    /// Whether an empty body is acceptable for this request and response.
    public func emptyResponseAllowed(forRequest request: URLRequest?, response: HTTPURLResponse?) -> Bool {
        requestAllowsEmptyResponseData(request) == true || responseAllowsEmptyResponseData(response) == true
    }

    func emptyAllowed(_ input: SerializationInput) -> Bool {
        input.method.map { emptyRequestMethods.contains($0) } == true
            || input.statusCode.map { emptyResponseCodes.contains($0) } == true
    }
}

/// What the built-in serializers read, taken from Salvo's own values so that no
/// `HTTPURLResponse` is built for them.
struct SerializationInput {
    var method: HTTPMethod?
    var statusCode: Int?
    /// The `Content-Type` the charset comes from, or the charset itself when an
    /// `HTTPURLResponse` already named it.
    private var contentType: String?
    private var charsetGiven: String?

    /// The response's charset. Read only by the `String` serializer, so it is parsed only
    /// when asked for (~5,000 instructions a response otherwise).
    var textEncodingName: String? { charsetGiven ?? contentType.flatMap(Self.charset(of:)) }

    init(request: URLRequest?, response: HTTPURLResponse?) {
        method = request?.method
        statusCode = response?.statusCode
        charsetGiven = response?.textEncodingName
    }

    init(context: ResponseContext?) {
        method = (context?.origin ?? context)?.spec.method
        let head = context?.head
        statusCode = head?.statusCode
        contentType = head?.contentType
    }

    private static func charset(of contentType: String) -> String? {
        for parameter in contentType.split(separator: ";").dropFirst() {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2, pair[0].trimmingCharacters(in: .whitespaces).lowercased() == "charset" else { continue }
            return pair[1].trimmingCharacters(in: CharacterSet(charactersIn: " \""))
        }
        return nil
    }
}

/// The built-in serializers, which work from `SerializationInput`.
protocol InputSerializer<SerializedObject>: DataResponseSerializerProtocol {
    func serialize(input: SerializationInput, data: Data?, error: (any Error)?) throws -> SerializedObject
}

