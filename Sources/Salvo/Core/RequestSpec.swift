import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Salvo's own description of what to send, read once from a `URLRequest` at the edge (or
/// built straight from a URL, method and headers), so the hot path never mutates a
/// `URLRequest`, whose header setters are expensive on Linux.
struct RequestSpec: Sendable {
    var url: URL
    var method: HTTPMethod
    var headers: HTTPHeaders
    var body: Data?
    var timeoutInterval: TimeInterval

    init(url: URL, method: HTTPMethod, headers: HTTPHeaders, body: Data? = nil, timeoutInterval: TimeInterval = 60) {
        self.url = url
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

    /// `scheme://host:port`, the key for per-host connection limits.
    var hostKey: String {
        let scheme = url.scheme?.lowercased() ?? "http"
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return "\(scheme)://\(url.host?.lowercased() ?? ""):\(port)"
    }
}
