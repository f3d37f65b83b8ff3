import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request and response of one finished attempt, as Salvo's cheap values, with the
/// Foundation objects (`URLRequest`, `HTTPURLResponse`) built on first access and cached.
///
/// Shared by the `Request` and every response value made from it, so the cost is paid at
/// most once, and only by code that reads them.
final class ResponseContext: Sendable {
    let spec: RequestSpec
    let head: ResponseHead?
    private let cachedRequest = Mutex<URLRequest?>(nil)
    private let cachedResponse = Mutex<HTTPURLResponse??>(nil)

    init(spec: RequestSpec, head: ResponseHead?) {
        self.spec = spec
        self.head = head
    }

    /// An already built `URLRequest` (the one the caller gave) skips the rebuild.
    init(spec: RequestSpec, urlRequest: URLRequest?, head: ResponseHead?) {
        self.spec = spec
        self.head = head
        cachedRequest.withLock { $0 = urlRequest }
    }

    var urlRequest: URLRequest {
        if let request = cachedRequest.withLock({ $0 }) { return request }
        let built = spec.urlRequest
        cachedRequest.withLock { $0 = built }
        return built
    }

    var httpResponse: HTTPURLResponse? {
        if let response = cachedResponse.withLock({ $0 }) { return response }
        let built = head.flatMap { $0.makeHTTPURLResponse() }
        cachedResponse.withLock { $0 = .some(built) }
        return built
    }
}

extension ResponseHead {
    /// Parses the raw header lines into the dictionary Foundation expects; a repeated
    /// name's values are joined with ", ", as Foundation does.
    var headerFields: [String: String] {
        var fields: [String: String] = [:]
        var lowercasedNames: [String: String] = [:]
        let text = String(decoding: rawHeaders, as: UTF8.self)
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\r\n" || $0 == "\n" || $0 == "\r" }).dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = String(line[..<colon]).trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { continue }
            let key = name.lowercased()
            if let existing = lowercasedNames[key] {
                fields[existing] = fields[existing]! + ", " + value
            } else {
                lowercasedNames[key] = name
                fields[name] = value
            }
        }
        return fields
    }

    /// The value of one header, found without building the whole dictionary.
    func value(forHeader name: String) -> String? {
        headerFields.first { HTTPHeaders.equalIgnoringASCIICase($0.key, name) }?.value
    }

    func makeHTTPURLResponse() -> HTTPURLResponse? {
        guard let url = URL(string: url) else { return nil }
        return HTTPURLResponse(url: url, statusCode: statusCode, httpVersion: "HTTP/\(httpVersion)", headerFields: headerFields)
    }
}
