import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The multi-line text `debugDescription` gives for responses, laid out as Alamofire lays it
/// out (logs and tools that read Alamofire's format keep working): the request with its headers
/// and body, the response's status, headers and body, then timings and the result.
enum ResponseDebugDescription {
    static func request(_ request: URLRequest) -> String {
        """
        [Request]: \(request.httpMethod ?? "GET") \(request.url?.absoluteString ?? "")
            \(headerLines(request.headers).indentingNewlines())
            \(body(request.httpBody, headers: request.headers).indentingNewlines())
        """
    }

    static func response(_ response: HTTPURLResponse) -> String {
        """
        [Response]:
            [Status Code]: \(response.statusCode)
            \(headerLines(response.headers).indentingNewlines())
        """
    }

    /// The response as `response(_:)` gives it, followed by its body.
    static func response(_ response: HTTPURLResponse, body data: Data?) -> String {
        """
        \(Self.response(response))
            \(body(data, headers: response.headers).indentingNewlines())
        """
    }

    static func headerLines(_ headers: HTTPHeaders) -> String {
        guard !headers.isEmpty else { return "[Headers]: None" }
        return """
        [Headers]:
            \(headers.sorted().description.indentingNewlines())
        """
    }

    /// The body as text when it is short and its type is textual, else its size.
    static func body(_ data: Data?, headers: HTTPHeaders) -> String {
        guard let data, !data.isEmpty else { return "[Body]: None" }
        let textual = ["json", "xml", "text"].contains { headers["Content-Type"]?.contains($0) == true }
        guard data.count <= 100_000, textual else { return "[Body]: \(data.count) bytes" }
        return """
        [Body]:
            \(String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines).indentingNewlines())
        """
    }
}

extension String {
    /// Indents every line after the first by `spaces` spaces.
    fileprivate func indentingNewlines(by spaces: Int = 4) -> String {
        replacingOccurrences(of: "\n", with: "\n" + String(repeating: " ", count: spaces))
    }
}
