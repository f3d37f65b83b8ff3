import Foundation

/// A type that can produce a `URL`.
public protocol URLConvertible: Sendable {
    /// Returns a `URL` from the receiver, or throws.
    ///
    /// - Returns: The `URL`.
    /// - Throws: Any error thrown while building the `URL`, usually `AFError.invalidURL`.
    func asURL() throws -> URL
}

extension String: URLConvertible {
    /// Returns a `URL` when the receiver parses as one.
    ///
    /// The result is Alamofire's, `URLComponents(string:)?.url` for a non-empty string.
    /// `URL(string:)` gives the same URL at less than half the cost for every string except
    /// those that begin with `:` (an empty scheme), so only those, and strings `URL(string:)`
    /// rejects, take the slower path.
    ///
    /// - Returns: The `URL`.
    /// - Throws: `AFError.invalidURL` when the string does not parse.
    public func asURL() throws -> URL {
        if utf8.first != UInt8(ascii: ":"), let url = URL(string: self) { return url }
        guard !isEmpty, let url = URLComponents(string: self)?.url else { throw AFError.invalidURL(url: self) }
        return url
    }
}

extension URL: URLConvertible {
    /// Returns `self`.
    public func asURL() throws -> URL { self }
}

extension URLComponents: URLConvertible {
    /// Returns the components' `url` when it can be built.
    ///
    /// - Returns: The `URL`.
    /// - Throws: `AFError.invalidURL` when the components do not form a URL.
    public func asURL() throws -> URL {
        guard let url else { throw AFError.invalidURL(url: self) }
        return url
    }
}
