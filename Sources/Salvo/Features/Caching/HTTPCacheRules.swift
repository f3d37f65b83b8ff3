import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The parts of HTTP caching (RFC 9111) a private client cache needs: whether a response may
/// be stored, how long it stays fresh, and what the request asks of the cache.
enum HTTPCacheRules {
    /// Statuses a cache may store without explicit freshness (RFC 9110 section 15.1).
    static let heuristicallyCacheable: Set<Int> = [200, 203, 204, 300, 301, 308, 404, 405, 410, 414, 501]

    /// `Cache-Control`'s directives, names lowercased, values unquoted (`nil` for none).
    static func directives(_ header: String?) -> [String: String?] {
        guard let header else { return [:] }
        var result: [String: String?] = [:]
        for part in header.split(separator: ",") {
            let pieces = part.split(separator: "=", maxSplits: 1)
            guard let name = pieces.first?.trimmingCharacters(in: .whitespaces).lowercased(), !name.isEmpty else { continue }
            let value = pieces.count > 1 ? pieces[1].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: CharacterSet(charactersIn: "\"")) : nil
            result[name] = value
        }
        return result
    }

    /// Whether the request forbids the cache to store its response (`no-store`).
    static func requestForbidsStoring(_ headers: HTTPHeaders) -> Bool {
        directives(headers.value(for: "Cache-Control"))["no-store"] != nil
    }

    /// Whether the request wants the origin asked even when the stored response is fresh.
    static func requestWantsRevalidation(_ headers: HTTPHeaders) -> Bool {
        let request = directives(headers.value(for: "Cache-Control"))
        if request["no-cache"] != nil { return true }
        if let maxAge = request["max-age"], let seconds = maxAge.flatMap(Int.init), seconds <= 0 { return true }
        return headers.value(for: "Pragma")?.lowercased().contains("no-cache") == true
    }

    /// Whether `response` may be stored: a cacheable status, no `no-store`, no `Vary: *`, and
    /// something that makes storing worth it (explicit freshness or a validator).
    static func isStorable(_ response: HTTPURLResponse) -> Bool {
        let control = directives(response.value(forHTTPHeaderField: "Cache-Control"))
        guard control["no-store"] == nil, response.value(forHTTPHeaderField: "Vary")?.contains("*") != true else { return false }
        let explicit = control["max-age"] != nil || response.value(forHTTPHeaderField: "Expires") != nil || control["public"] != nil
        let validated = response.value(forHTTPHeaderField: "ETag") != nil || response.value(forHTTPHeaderField: "Last-Modified") != nil
        return heuristicallyCacheable.contains(response.statusCode) && (explicit || validated)
    }

    /// Whether `response`, stored at `storedAt`, may still be served without asking the
    /// origin at `now`.
    static func isFresh(_ response: HTTPURLResponse, storedAt: Date, now: Date) -> Bool {
        let control = directives(response.value(forHTTPHeaderField: "Cache-Control"))
        if control["no-cache"] != nil { return false }
        let date = HTTPDate.parse(response.value(forHTTPHeaderField: "Date")) ?? storedAt
        var lifetime: TimeInterval = 0
        if let maxAge = control["max-age"] ?? nil, let seconds = TimeInterval(maxAge) {
            lifetime = seconds
        } else if let expires = response.value(forHTTPHeaderField: "Expires") {
            // An unparsable Expires (such as "0") means already expired.
            lifetime = HTTPDate.parse(expires).map { $0.timeIntervalSince(date) } ?? 0
        } else if let modified = HTTPDate.parse(response.value(forHTTPHeaderField: "Last-Modified")) {
            // A tenth of the time since the last change, as browsers and URLSession guess.
            lifetime = max(0, date.timeIntervalSince(modified)) / 10
        }
        let age = (TimeInterval(response.value(forHTTPHeaderField: "Age") ?? "") ?? 0) + max(0, now.timeIntervalSince(storedAt))
        return age < lifetime
    }

    /// The validators for a conditional request revalidating `response`.
    static func validators(of response: HTTPURLResponse) -> [(name: String, value: String)] {
        var headers: [(String, String)] = []
        if let etag = response.value(forHTTPHeaderField: "ETag") { headers.append(("If-None-Match", etag)) }
        if let modified = response.value(forHTTPHeaderField: "Last-Modified") { headers.append(("If-Modified-Since", modified)) }
        return headers
    }

    /// Whether the request already makes its own conditions, which the cache then leaves alone.
    static func isConditional(_ headers: HTTPHeaders) -> Bool {
        ["If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"].contains { headers.value(for: $0) != nil }
    }
}
