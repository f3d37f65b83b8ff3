import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A session's use of its configuration's `URLCache`, as URLSession uses it: what a `GET`
/// data request may take from it before anything is sent, and what it stores afterwards.
final class ResponseCache: @unchecked Sendable { // two `let`s; URLCache locks its own storage
    /// What the cache does for one attempt.
    enum Lookup {
        /// Send the request as it is.
        case load
        /// Answer with the stored response; nothing is sent.
        case serve(CachedURLResponse)
        /// Send the request with these conditions; a 304 is answered with the stored response.
        case revalidate(CachedURLResponse, conditions: [(name: String, value: String)])
        /// `returnCacheDataDontLoad` and nothing stored: fail without sending.
        case unavailable
    }

    private static let storedAtKey = "SalvoStoredAt"
    private static let varyKey = "SalvoVary"

    let urlCache: URLCache
    /// The configuration's `requestCachePolicy`, for requests that keep the default policy.
    let sessionPolicy: URLRequest.CachePolicy

    init(urlCache: URLCache, sessionPolicy: URLRequest.CachePolicy) {
        self.urlCache = urlCache
        self.sessionPolicy = sessionPolicy
    }

    /// The policy `urlRequest` is loaded with: its own, unless it kept the default.
    func policy(of urlRequest: URLRequest) -> URLRequest.CachePolicy {
        urlRequest.cachePolicy == .useProtocolCachePolicy ? sessionPolicy : urlRequest.cachePolicy
    }

    /// What the cache offers `urlRequest`, whose headers as sent (the session's included) are
    /// `header(name)`.
    func lookup(_ urlRequest: URLRequest, headers: HTTPHeaders, header: (String) -> String?, now: Date = Date()) -> Lookup {
        let policy = policy(of: urlRequest)
        switch policy {
        case .reloadIgnoringLocalCacheData, .reloadIgnoringLocalAndRemoteCacheData: return .load
        default: break
        }
        // Foundation's URLCache on Linux files entries by host, port and path alone: the scheme
        // and the query are left out, so an entry is used only for its own URL.
        let headers = Self.withSessionDirectives(headers, header)
        guard !HTTPCacheRules.requestForbidsStoring(headers), !HTTPCacheRules.isConditional(headers),
              let entry = urlCache.cachedResponse(for: urlRequest), let response = entry.response as? HTTPURLResponse,
              response.url?.absoluteString == urlRequest.url?.absoluteString, !Self.varies(entry, response, from: header) else {
            return policy == .returnCacheDataDontLoad ? .unavailable : .load
        }
        switch policy {
        case .returnCacheDataElseLoad, .returnCacheDataDontLoad:
            return .serve(entry)
        case .reloadRevalidatingCacheData:
            return revalidation(of: entry, response)
        default:
            let storedAt = (entry.userInfo?[Self.storedAtKey] as? TimeInterval).map(Date.init(timeIntervalSince1970:))
                ?? HTTPDate.parse(response.value(forHTTPHeaderField: "Date")) ?? .distantPast
            if !HTTPCacheRules.requestWantsRevalidation(headers), HTTPCacheRules.isFresh(response, storedAt: storedAt, now: now) {
                return .serve(entry)
            }
            return revalidation(of: entry, response)
        }
    }

    private func revalidation(of entry: CachedURLResponse, _ response: HTTPURLResponse) -> Lookup {
        let conditions = HTTPCacheRules.validators(of: response)
        return conditions.isEmpty ? .load : .revalidate(entry, conditions: conditions)
    }

    /// The request's headers with the session's `Cache-Control` and `Pragma` where the request
    /// sets none: the directives the request goes out with.
    private static func withSessionDirectives(_ headers: HTTPHeaders, _ header: (String) -> String?) -> HTTPHeaders {
        var headers = headers
        for name in ["Cache-Control", "Pragma"] where headers.value(for: name) == nil {
            if let value = header(name) { headers.update(name: name, value: value) }
        }
        return headers
    }

    /// Whether the request differs from the stored one in a header the response varies by.
    /// A stored response that varies by headers no one recorded (stored by other code, or
    /// changed by a cached response handler) is taken to vary.
    private static func varies(_ entry: CachedURLResponse, _ response: HTTPURLResponse, from header: (String) -> String?) -> Bool {
        guard let recorded = entry.userInfo?[varyKey] as? [String: String] else { return !varyingNames(response).isEmpty }
        return recorded.contains { name, value in (header(name) ?? "") != value }
    }

    /// The request headers `response` varies by, but the encoding: the body is stored decoded.
    private static func varyingNames(_ response: HTTPURLResponse) -> [String] {
        guard let vary = response.value(forHTTPHeaderField: "Vary") else { return [] }
        return vary.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && $0.lowercased() != "accept-encoding" }
    }

    /// Stores `response` and `data` for `urlRequest` when HTTP allows it and `handler` agrees.
    func store(_ response: HTTPURLResponse, data: Data, for urlRequest: URLRequest, headers: HTTPHeaders,
               header: (String) -> String?, request: Request, handler: (any CachedResponseHandler)?) {
        guard !HTTPCacheRules.requestForbidsStoring(Self.withSessionDirectives(headers, header)), HTTPCacheRules.isStorable(response) else {
            return
        }
        var userInfo: [AnyHashable: Any] = [Self.storedAtKey: Date().timeIntervalSince1970]
        let names = Self.varyingNames(response)
        if !names.isEmpty {
            userInfo[Self.varyKey] = Dictionary(names.map { ($0, header($0) ?? "") }, uniquingKeysWith: { first, _ in first })
        }
        let candidate = CachedURLResponse(response: response, data: data, userInfo: userInfo, storagePolicy: .allowed)
        guard let handler else {
            urlCache.storeCachedResponse(candidate, for: urlRequest)
            return
        }
        let urlCache = urlCache
        handler.dataTask(request, willCacheResponse: candidate) { chosen in
            if let chosen { urlCache.storeCachedResponse(chosen, for: urlRequest) }
        }
    }

    /// The stored response brought up to date by a `304 Not Modified`'s headers, stored again.
    func refreshed(_ entry: CachedURLResponse, by notModified: HTTPURLResponse, for urlRequest: URLRequest) -> CachedURLResponse {
        guard let stored = entry.response as? HTTPURLResponse, let response = Self.refreshed(stored, by: notModified) else { return entry }
        var userInfo = entry.userInfo ?? [:]
        userInfo[Self.storedAtKey] = Date().timeIntervalSince1970
        let refreshed = CachedURLResponse(response: response, data: entry.data, userInfo: userInfo, storagePolicy: entry.storagePolicy)
        urlCache.storeCachedResponse(refreshed, for: urlRequest)
        return refreshed
    }

    /// A stored response under the headers of the `304 Not Modified` that revalidated it (but
    /// the body's framing), as URLSession reports a revalidated response.
    static func refreshed(_ stored: HTTPURLResponse, by notModified: HTTPURLResponse) -> HTTPURLResponse? {
        guard let url = stored.url else { return nil }
        var fields: [String: String] = [:]
        for case let (name as String, value as String) in stored.allHeaderFields { fields[name] = value }
        let framing: Set<String> = ["content-length", "content-encoding", "transfer-encoding"]
        for case let (name as String, value as String) in notModified.allHeaderFields where !framing.contains(name.lowercased()) {
            fields = fields.filter { $0.key.lowercased() != name.lowercased() }
            fields[name] = value
        }
        return HTTPURLResponse(url: url, statusCode: stored.statusCode, httpVersion: "HTTP/1.1", headerFields: fields)
    }

    /// The head of a stored response, as the engine would have read it.
    static func head(of response: HTTPURLResponse) -> ResponseHead {
        var text = "HTTP/1.1 \(response.statusCode)\r\n"
        for case let (name as String, value as String) in response.allHeaderFields { text += "\(name): \(value)\r\n" }
        return ResponseHead(statusCode: response.statusCode, httpVersion: "1.1", url: response.url?.absoluteString ?? "",
                            contentType: response.value(forHTTPHeaderField: "Content-Type"), redirectURL: nil, rawHeaders: Array(text.utf8))
    }
}
