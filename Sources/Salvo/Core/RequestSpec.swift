import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Salvo's own description of what to send, read once from a `URLRequest` at the edge (or
/// built straight from a URL, method and headers), so the hot path never mutates a
/// `URLRequest`, whose header setters are expensive on Linux.
struct RequestSpec: Sendable {
    var url: URL {
        didSet { urlString = url.absoluteString }
    }
    /// The URL as text, kept so it is made once (the text the caller gave, when it was text).
    private(set) var urlString: String
    var method: HTTPMethod
    var headers: HTTPHeaders
    var body: Data?
    var timeoutInterval: TimeInterval

    init(url: URL, urlString: String? = nil, method: HTTPMethod, headers: HTTPHeaders, body: Data? = nil,
         timeoutInterval: TimeInterval = 60) {
        self.url = url
        self.urlString = urlString ?? url.absoluteString
        self.method = method
        self.headers = headers
        self.body = body
        self.timeoutInterval = timeoutInterval
    }

    /// Reads a `URLRequest`.
    ///
    /// - Throws: `AFError.invalidURL` when the request has no URL.
    init(_ urlRequest: URLRequest) throws {
        guard let url = urlRequest.url else { throw AFError.invalidURL(url: "") }
        self.url = url
        urlString = url.absoluteString
        method = HTTPMethod(rawValue: urlRequest.httpMethod ?? "GET")
        headers = urlRequest.allHTTPHeaderFields.map(HTTPHeaders.init) ?? HTTPHeaders()
        body = urlRequest.httpBody
        timeoutInterval = urlRequest.timeoutInterval
    }

    /// The `URLRequest` this spec describes, built only when someone asks for it.
    var urlRequest: URLRequest {
        var request = URLRequest(url: url, timeoutInterval: timeoutInterval)
        request.httpMethod = method.rawValue
        if !headers.isEmpty { request.allHTTPHeaderFields = headers.dictionary }
        request.httpBody = body
        return request
    }

    /// `scheme://authority` in lower case: the key for per-host connection limits.
    ///
    /// Read straight off the URL text: Foundation's `host`, `port` and `scheme` accessors
    /// re-parse the URL on Linux, which cost more than the rest of a request's set-up.
    static func originKey(of urlString: String) -> Substring {
        var text = urlString
        let (end, hasUpper) = text.withUTF8 { bytes -> (Int, Bool) in
            var index = 0
            var hasUpper = false
            // Skip "scheme://", then take the authority up to the path, query or fragment.
            var slashes = 0
            var seenColon = false
            while index < bytes.count {
                let byte = bytes[index]
                if byte >= 0x41 && byte <= 0x5A { hasUpper = true }
                if !seenColon {
                    if byte == UInt8(ascii: ":") { seenColon = true }
                } else if slashes < 2 {
                    if byte == UInt8(ascii: "/") { slashes += 1 } else { break }
                } else if byte == UInt8(ascii: "/") || byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") {
                    break
                }
                index += 1
            }
            return (index, hasUpper)
        }
        let key = Substring(urlString.utf8.prefix(end))
        return hasUpper ? Substring(key.lowercased()) : key
    }
}
