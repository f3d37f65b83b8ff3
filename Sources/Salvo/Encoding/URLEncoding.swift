import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Encodes `Parameters` as `application/x-www-form-urlencoded` pairs, into the URL's query
/// or into the body.
///
/// Top-level keys are sorted. Nested dictionaries become `key[nested]=value`; arrays use the
/// `ArrayEncoding` (`key[]=value` by default); booleans use the `BoolEncoding` (`1` / `0` by
/// default). Names and values are escaped with `CharacterSet.afURLQueryAllowed`.
///
/// - Note: Alamofire leaves nested dictionary keys in dictionary order, which changes from
///   one process to the next; Salvo sorts them too, which is one of the orders Alamofire
///   may produce and the same in every run.
public struct URLEncoding: ParameterEncoding {
    /// Where the encoded parameters go.
    public enum Destination: Sendable {
        /// Into the query for `GET`, `HEAD` and `DELETE`; into the body for other methods.
        case methodDependent
        /// Always into the query, appended to any query the URL has.
        case queryString
        /// Always into the body, with a form `Content-Type` unless one is set.
        case httpBody

        func encodesParametersInURL(for method: HTTPMethod) -> Bool {
            switch self {
            case .methodDependent: return method == .get || method == .head || method == .delete
            case .queryString: return true
            case .httpBody: return false
            }
        }
    }

    /// How array elements' keys are written.
    public enum ArrayEncoding: Sendable {
        /// `key[]=value`, the default.
        case brackets
        /// `key=value`.
        case noBrackets
        /// `key[0]=value`.
        case indexInBrackets
        /// A closure given the key and the element's index.
        case custom(@Sendable (_ key: String, _ index: Int) -> String)

        func encode(key: String, atIndex index: Int) -> String {
            switch self {
            case .brackets: return "\(key)[]"
            case .noBrackets: return key
            case .indexInBrackets: return "\(key)[\(index)]"
            case let .custom(encoding): return encoding(key, index)
            }
        }
    }

    /// How booleans are written.
    public enum BoolEncoding: Sendable {
        /// `1` and `0`, the default.
        case numeric
        /// `true` and `false`.
        case literal

        func encode(value: Bool) -> String {
            switch self {
            case .numeric: return value ? "1" : "0"
            case .literal: return value ? "true" : "false"
            }
        }
    }

    /// Method-dependent destination, bracketed arrays, numeric booleans.
    public static var `default`: URLEncoding { URLEncoding() }

    /// Always into the query.
    public static var queryString: URLEncoding { URLEncoding(destination: .queryString) }

    /// Always into the body.
    public static var httpBody: URLEncoding { URLEncoding(destination: .httpBody) }

    /// Where the parameters go.
    public let destination: Destination

    /// How array keys are written.
    public let arrayEncoding: ArrayEncoding

    /// How booleans are written.
    public let boolEncoding: BoolEncoding

    /// Creates an encoding.
    ///
    /// - Parameters:
    ///   - destination: Where the parameters go. `.methodDependent` by default.
    ///   - arrayEncoding: How array keys are written. `.brackets` by default.
    ///   - boolEncoding: How booleans are written. `.numeric` by default.
    public init(destination: Destination = .methodDependent,
                arrayEncoding: ArrayEncoding = .brackets,
                boolEncoding: BoolEncoding = .numeric) {
        self.destination = destination
        self.arrayEncoding = arrayEncoding
        self.boolEncoding = boolEncoding
    }

    /// Returns the request with the parameters in its query or body.
    ///
    /// Empty parameters leave the URL unchanged but still give a body request an empty
    /// body and a `Content-Type`, as Alamofire does.
    ///
    /// - Parameters:
    ///   - urlRequest: The request to encode into.
    ///   - parameters: The parameters; `nil` leaves the request unchanged.
    /// - Returns: The encoded request.
    /// - Throws: `AFError.parameterEncodingFailed(reason: .missingURL)` when a query
    ///   destination has no URL; `.customEncodingFailed` with an `EncodingError` when the
    ///   parameters nest deeper than `ParameterNesting.maximumDepth`; or what
    ///   `urlRequest.asURLRequest()` throws.
    public func encode(_ urlRequest: any URLRequestConvertible, with parameters: Parameters?) throws -> URLRequest {
        var urlRequest = try urlRequest.asURLRequest()
        guard let parameters else { return urlRequest }

        if let method = urlRequest.method, destination.encodesParametersInURL(for: method) {
            guard let url = urlRequest.url else {
                throw AFError.parameterEncodingFailed(reason: .missingURL)
            }
            if !parameters.isEmpty {
                var bytes: [UInt8] = []
                try appendQuery(parameters, to: &bytes)
                // Editing the URL text gives what URLComponents would, for the URL shapes
                // QuerySplice accepts, at a fraction of the cost.
                // (An empty query still leaves a "?" in Alamofire's output; URLComponents
                // handles that rare case.)
                if !bytes.isEmpty, let splice = QuerySplice(url), let spliced = splice.url(appending: bytes) {
                    urlRequest.url = spliced
                } else if var components = URLComponents(url: url, resolvingAgainstBaseURL: false) {
                    let query = String(decoding: bytes, as: UTF8.self)
                    components.percentEncodedQuery = (components.percentEncodedQuery.map { $0 + "&" } ?? "") + query
                    urlRequest.url = components.url
                }
            }
        } else {
            urlRequest.setContentTypeIfAbsent("application/x-www-form-urlencoded; charset=utf-8")
            var bytes: [UInt8] = []
            try appendQuery(parameters, to: &bytes)
            urlRequest.httpBody = Data(bytes)
        }
        return urlRequest
    }

    /// Returns the escaped name and value pairs for one key and value, recursing into
    /// dictionaries and arrays.
    ///
    /// Past `ParameterNesting.maximumDepth` levels it stops descending and returns the pairs
    /// found up to there (`encode(_:with:)` throws instead).
    ///
    /// - Parameters:
    ///   - key: The key, unescaped.
    ///   - value: The value.
    /// - Returns: Escaped `(name, value)` pairs.
    public func queryComponents(fromKey key: String, value: Any) -> [(String, String)] {
        var pairs: [(String, String)] = []
        try? forEachComponent(key: key, value: value, depth: 0) { name, value in
            pairs.append((PercentEscaper.query.escape(name), PercentEscaper.query.escape(value)))
        }
        return pairs
    }

    /// Escapes a string with `CharacterSet.afURLQueryAllowed`.
    ///
    /// - Parameter string: The text.
    /// - Returns: The escaped text.
    public func escape(_ string: String) -> String {
        PercentEscaper.query.escape(string)
    }

    private func appendQuery(_ parameters: Parameters, to bytes: inout [UInt8]) throws {
        bytes.reserveCapacity(256)
        if case .custom = arrayEncoding {
            // A custom array key is made from the unescaped key: pairs go through strings.
            var first = true
            for key in parameters.keys.sorted() {
                try forEachComponent(key: key, value: parameters[key]!, depth: 1) { name, value in
                    if !first { bytes.append(UInt8(ascii: "&")) }
                    first = false
                    PercentEscaper.query.append(name, to: &bytes)
                    bytes.append(UInt8(ascii: "="))
                    PercentEscaper.query.append(value, to: &bytes)
                }
            }
            return
        }
        var query = QueryBytes(bytes: bytes)
        bytes = []
        var name: [UInt8] = []
        name.reserveCapacity(64)
        // Sorted by position, which reads an entry without hashing its key again.
        for index in parameters.indices.sorted(by: { parameters[$0].key < parameters[$1].key }) {
            let (key, value) = parameters[index]
            name.removeAll(keepingCapacity: true)
            PercentEscaper.query.append(key, to: &name)
            try write(value, name: &name, depth: 1, into: &query)
        }
        bytes = query.bytes
    }

    /// Walks a value in Alamofire's order of type checks, with the common scalar types
    /// tested first, which changes no output because none of them matches an earlier case.
    ///
    /// The fast cases match the exact dynamic type only: `as? Int` also accepts an
    /// `NSNumber` made from `true` or `2.0`, and `as? String` an `Optional<String>`, which
    /// Alamofire writes as `true`, `2.0` and `Optional("…")`.
    ///
    /// `depth` counts the dictionaries and arrays around `value`, the parameters included;
    /// a container at `ParameterNesting.maximumDepth` is the deepest allowed.
    func forEachComponent(key: String, value: Any, depth: Int, _ body: (String, String) -> Void) throws {
        let valueType = type(of: value)
        switch value {
        case let string as String where valueType == String.self:
            body(key, string)
        case let int as Int where valueType == Int.self:
            body(key, String(int))
        case let bool as Bool where valueType == Bool.self:
            body(key, boolEncoding.encode(value: bool))
        case let dictionary as [String: Any]:
            try checkDepth(depth, value)
            for nestedKey in dictionary.keys.sorted() {
                try forEachComponent(key: "\(key)[\(nestedKey)]", value: dictionary[nestedKey]!, depth: depth + 1, body)
            }
        case let array as [Any]:
            try checkDepth(depth, value)
            for (index, element) in array.enumerated() {
                try forEachComponent(key: arrayEncoding.encode(key: key, atIndex: index), value: element, depth: depth + 1, body)
            }
        case let number as NSNumber:
            if number.isBool {
                body(key, boolEncoding.encode(value: number.boolValue))
            } else {
                body(key, "\(number)")
            }
        case let date as Date where !date.timeIntervalSinceReferenceDate.isFinite:
            // Foundation traps describing a NaN date; an infinite one it writes this way.
            body(key, "<description unavailable>")
        default:
            body(key, "\(value)")
        }
    }

    /// Fails past `ParameterNesting.maximumDepth` levels of containers.
    func checkDepth(_ depth: Int, _ value: Any) throws {
        guard depth < ParameterNesting.maximumDepth else {
            throw AFError.parameterEncodingFailed(reason: .customEncodingFailed(error: ParameterNesting.tooDeep(value)))
        }
    }
}

extension NSNumber {
    /// Whether the number was made from a `Bool`, which Foundation records as a `char`.
    var isBool: Bool {
        String(cString: objCType) == "c"
    }
}
