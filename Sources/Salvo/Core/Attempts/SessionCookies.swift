import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import SalvoEngine

/// A session's cookies: its configuration's `HTTPCookieStorage`, read before each request
/// and written from each response, as URLSession does when `httpShouldSetCookies` is true.
///
/// The storage is the only jar. Salvo follows redirects itself, one transfer per hop, so a
/// cookie set by a redirect is stored before the next hop reads the storage, and a cookie a
/// caller puts in the storage (or deletes) counts from the next request on. The storage
/// applies its own rules: domain and path matching, expiry, `Secure`, and its
/// `cookieAcceptPolicy`.
struct SessionCookies: @unchecked Sendable { // HTTPCookieStorage serializes its own access (it is shared across URLSessions the same way)
    let storage: HTTPCookieStorage

    /// The `Cookie` header value the storage holds for `url`, `nil` for none (`cookies(for:now:)`).
    ///
    /// - Parameter now: The moment expiry is judged at; the present by default.
    func header(for url: URL, now: Date = Date()) -> String? {
        let matching = cookies(for: url, now: now)
        return matching.isEmpty ? nil : HTTPCookie.requestHeaderFields(with: matching)["Cookie"]
    }

    /// The stored cookies that go with a request for `url`, in the order they are sent.
    ///
    /// FoundationNetworking's `cookies(for:)` matches the host alone; the rest of RFC 6265's
    /// rules are applied here, as Apple's URLSession applies them: a `Secure` cookie goes over
    /// HTTPS only, an expired one not at all, and a cookie goes only to its path and the paths
    /// below it, longer paths first.
    ///
    /// - Parameter now: The moment expiry is judged at; the present by default.
    func cookies(for url: URL, now: Date = Date()) -> [HTTPCookie] {
        guard let stored = storage.cookies(for: url), !stored.isEmpty else { return [] }
        let requestPath = url.path.isEmpty ? "/" : url.path
        let isSecure = url.scheme?.lowercased() == "https"
        let matching = stored.filter { cookie in
            (!cookie.isSecure || isSecure) && (cookie.expiresDate.map { $0 > now } ?? true)
                && Self.path(requestPath, matches: cookie.path)
        }
        return matching.enumerated().sorted { a, b in
            a.element.path.count != b.element.path.count ? a.element.path.count > b.element.path.count : a.offset < b.offset
        }.map(\.element)
    }

    /// RFC 6265's path-match: the same path, or one below it (the cookie's path ends with "/",
    /// or the request's continues with "/" right after it).
    static func path(_ requestPath: String, matches cookiePath: String) -> Bool {
        let cookiePath = cookiePath.isEmpty ? "/" : cookiePath
        if requestPath == cookiePath { return true }
        guard requestPath.hasPrefix(cookiePath) else { return false }
        return cookiePath.hasSuffix("/") || requestPath.dropFirst(cookiePath.count).first == "/"
    }

    /// Stores what the response's `Set-Cookie` lines set, each line read on its own (an
    /// `Expires` date holds a comma, so the lines cannot be joined).
    func store(from head: ResponseHead) {
        guard head.mayHaveSetCookie else { return }
        let lines = head.values(forHeader: "Set-Cookie")
        guard !lines.isEmpty, let url = URL(string: head.url) else { return }
        var cookies: [HTTPCookie] = []
        for line in lines {
            cookies += HTTPCookie.cookies(withResponseHeaderFields: ["Set-Cookie": line], for: url)
        }
        guard !cookies.isEmpty else { return }
        storage.setCookies(cookies, for: url, mainDocumentURL: nil)
    }
}
