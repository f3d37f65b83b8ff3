import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One attempt's request and, once it completes, its response head and metrics, with the
/// Foundation objects (`URLRequest`, `HTTPURLResponse`) built on first access and cached.
///
/// Shared by the `Request` and every response value made from it, so the cost is paid at
/// most once, and only by code that reads them.
final class ResponseContext: Sendable {
    private struct State {
        var head: ResponseHead?
        var metrics: TransferMetrics?
        var request: URLRequest?
        var response: HTTPURLResponse??
    }

    let spec: RequestSpec
    /// For a redirect hop, the context of the attempt's first request.
    let origin: ResponseContext?
    private let state: Mutex<State>

    init(spec: RequestSpec, urlRequest: URLRequest?, head: ResponseHead? = nil, origin: ResponseContext? = nil) {
        self.spec = spec
        self.origin = origin
        state = Mutex(State(head: head, metrics: nil, request: urlRequest, response: nil))
    }

    /// Records how the attempt ended; called once, when its transfer completes.
    func complete(head: ResponseHead?, metrics: TransferMetrics) {
        state.withLock {
            $0.head = head
            $0.metrics = metrics
        }
    }

    var head: ResponseHead? { state.withLock { $0.head } }
    var metrics: TransferMetrics? { state.withLock { $0.metrics } }

    /// The request the attempt started with (before redirects), as `Request.request` reports.
    var attemptRequest: URLRequest { (origin ?? self).urlRequest }

    var urlRequest: URLRequest {
        if let request = state.withLock({ $0.request }) { return request }
        let built = spec.urlRequest
        state.withLock { $0.request = built }
        return built
    }

    var httpResponse: HTTPURLResponse? {
        let (cached, head) = state.withLock { ($0.response, $0.head) }
        if let cached { return cached }
        guard let head else { return nil }
        let built = head.makeHTTPURLResponse()
        state.withLock { $0.response = .some(built) }
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
