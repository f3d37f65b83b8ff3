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
    /// - Returns: The `URL`.
    /// - Throws: `AFError.invalidURL` when the string does not parse.
    public func asURL() throws -> URL {
        guard let url = URL(string: self) else { throw AFError.invalidURL(url: self) }
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
