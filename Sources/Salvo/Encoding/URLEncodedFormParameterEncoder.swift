import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `ParameterEncoder` that writes parameters as `application/x-www-form-urlencoded` text,
/// into the URL's query or into the body depending on its `Destination`.
///
/// When the parameters go into the body and the request has no `Content-Type`, it gets
/// `application/x-www-form-urlencoded; charset=utf-8`; one already set is kept. How values
/// are written is up to the `URLEncodedFormEncoder` given at creation.
///
/// The class is `open`, as in Alamofire: a subclass may override `encode(_:into:)` and
/// call `super`.
///
/// - Note: In Swift 6 a subclass must restate the conformance,
///   `class MyEncoder: URLEncodedFormParameterEncoder, @unchecked Sendable`, or the compiler
///   warns; the same holds with Alamofire.
// `@unchecked Sendable` because the compiler cannot check a non-final class. It holds: the
// stored properties are two `let`s, a `URLEncodedFormEncoder` (itself checked `Sendable`)
// and a `Sendable` enum. A subclass that adds mutable state must guard it itself, as with
// any `open` Sendable class.
open class URLEncodedFormParameterEncoder: @unchecked Sendable, ParameterEncoder { // no lock: immutable `let`s of Sendable types (see above)
    /// Where the encoded text goes.
    public enum Destination: Sendable {
        /// Into the query for `GET`, `HEAD` and `DELETE` requests, into the body otherwise.
        case methodDependent
        /// Into the query, after any query the URL already has.
        case queryString
        /// Into the body.
        case httpBody

        func encodesParametersInURL(for method: HTTPMethod) -> Bool {
            switch self {
            case .methodDependent: return method == .get || method == .head || method == .delete
            case .queryString: return true
            case .httpBody: return false
            }
        }
    }

    /// An encoder with a default `URLEncodedFormEncoder` and the `.methodDependent` destination.
    public static var `default`: URLEncodedFormParameterEncoder { URLEncodedFormParameterEncoder(encoder: .withDefaults()) }

    /// The encoder that turns parameters into text.
    public let encoder: URLEncodedFormEncoder

    /// Where the text goes.
    public let destination: Destination

    /// Creates a parameter encoder.
    ///
    /// - Parameters:
    ///   - encoder: The `URLEncodedFormEncoder` to use. `URLEncodedFormEncoder()` by default.
    ///   - destination: Where the text goes. `.methodDependent` by default.
    public init(encoder: URLEncodedFormEncoder = URLEncodedFormEncoder(), destination: Destination = .methodDependent) {
        self.encoder = encoder
        self.destination = destination
    }

    /// Encodes `parameters` into the query or the body of a copy of `request`. Override it
    /// to change how parameters are written; call `super` for the standard encoding.
    ///
    /// A query the URL already has is kept and the new pairs are appended after an `&`.
    /// An encoding that produces no pairs leaves the URL without a query.
    ///
    /// - Parameters:
    ///   - parameters: The value to encode; its root must be a keyed container. `nil`
    ///     returns `request` untouched.
    ///   - request: The request to encode the parameters into.
    /// - Returns: The request carrying the encoded parameters.
    /// - Throws: `AFError.parameterEncoderFailed` with `.missingRequiredComponent(.url)`
    ///   when the request has no URL or the new URL cannot be built,
    ///   `.missingRequiredComponent(.httpMethod(rawValue:))` when it has no method, or
    ///   `.encoderFailed(error:)` wrapping the `URLEncodedFormEncoder`'s error.
    open func encode<Parameters: Encodable>(_ parameters: Parameters?, into request: URLRequest) throws -> URLRequest {
        guard let parameters else { return request }

        var request = request

        guard let url = request.url else {
            throw AFError.parameterEncoderFailed(reason: .missingRequiredComponent(.url))
        }

        guard let method = request.method else {
            // Alamofire names the missing method "nil" in the error.
            throw AFError.parameterEncoderFailed(reason: .missingRequiredComponent(.httpMethod(rawValue: "nil")))
        }

        if destination.encodesParametersInURL(for: method), let newURL = try self.url(url, appendingQueryOf: parameters) {
            request.url = newURL
        } else {
            request.setContentTypeIfAbsent("application/x-www-form-urlencoded; charset=utf-8")

            request.httpBody = Data(try encodedBytes(parameters).bytes)
        }

        return request
    }

    /// Returns `url` with the encoded parameters added to its query, or `nil` when
    /// `URLComponents` cannot take the URL apart, in which case Alamofire falls back to
    /// the body.
    private func url(_ url: URL, appendingQueryOf parameters: some Encodable) throws -> URL? {
        let splice = QuerySplice(url)
        var components = splice == nil ? URLComponents(url: url, resolvingAgainstBaseURL: false) : nil
        guard splice != nil || components != nil else { return nil }

        let query = try encodedQuery(parameters)
        if let spliced = splice?.url(appending: query) { return spliced }

        if components == nil { components = URLComponents(url: url, resolvingAgainstBaseURL: false) }
        guard var components else {
            throw AFError.parameterEncoderFailed(reason: .missingRequiredComponent(.url))
        }
        // Alamofire joins the old and new queries with `&` whenever a query was present,
        // even an empty one, and drops the query only when the result is empty.
        let newQuery = components.percentEncodedQuery.map { $0 + "&" + query } ?? query
        components.percentEncodedQuery = newQuery.isEmpty ? nil : newQuery

        guard let newURL = components.url else {
            throw AFError.parameterEncoderFailed(reason: .missingRequiredComponent(.url))
        }
        return newURL
    }

    /// Encodes the parameters as query text that `URLComponents` accepts.
    private func encodedQuery(_ parameters: some Encodable) throws -> String {
        let encoded = try encodedBytes(parameters)
        // `URLComponents` stops the process on a query byte it rejects, which only a custom
        // `allowedCharacters` can let through; refuse such a query instead.
        guard encoded.isQuerySafe || Self.isValidQuery(encoded.bytes) else {
            throw AFError.parameterEncoderFailed(reason: .missingRequiredComponent(.url))
        }
        return String(decoding: encoded.bytes, as: UTF8.self)
    }

    private func encodedBytes(_ parameters: some Encodable) throws -> (bytes: [UInt8], isQuerySafe: Bool) {
        do {
            return try encoder.encodeBytes(parameters)
        } catch {
            throw AFError.parameterEncoderFailed(reason: .encoderFailed(error: error))
        }
    }

    /// The bytes `URLComponents` accepts raw in a percent-encoded query: RFC 3986's query
    /// characters.
    private static let queryBytes = Set("!$&'()*+,-./0123456789:;=?@ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz~".utf8)

    /// Whether `URLComponents` accepts `bytes` as a percent-encoded query: query characters,
    /// and `%` only before two hex digits.
    private static func isValidQuery(_ bytes: [UInt8]) -> Bool {
        func isHex(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
                || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
                || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
        }
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%") {
                guard index + 2 < bytes.count, isHex(bytes[index + 1]), isHex(bytes[index + 2]) else { return false }
                index += 3
            } else {
                guard queryBytes.contains(bytes[index]) else { return false }
                index += 1
            }
        }
        return true
    }
}

extension ParameterEncoder where Self == URLEncodedFormParameterEncoder {
    /// A `URLEncodedFormParameterEncoder` with default settings, for `encoder: .urlEncodedForm`.
    public static var urlEncodedForm: URLEncodedFormParameterEncoder { URLEncodedFormParameterEncoder() }

    /// Creates a `URLEncodedFormParameterEncoder`, for `encoder: .urlEncodedForm(...)`.
    ///
    /// - Parameters:
    ///   - encoder: The `URLEncodedFormEncoder` to use. `URLEncodedFormEncoder()` by default.
    ///   - destination: Where the text goes. `.methodDependent` by default.
    /// - Returns: The parameter encoder.
    public static func urlEncodedForm(encoder: URLEncodedFormEncoder = URLEncodedFormEncoder(),
                                      destination: URLEncodedFormParameterEncoder.Destination = .methodDependent) -> URLEncodedFormParameterEncoder {
        URLEncodedFormParameterEncoder(encoder: encoder, destination: destination)
    }
}
