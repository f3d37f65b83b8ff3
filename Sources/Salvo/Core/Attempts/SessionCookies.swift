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

    /// The `Cookie` header value the storage holds for `url`, `nil` for none.
    func header(for url: URL) -> String? {
        guard let cookies = storage.cookies(for: url), !cookies.isEmpty else { return nil }
        return HTTPCookie.requestHeaderFields(with: cookies)["Cookie"]
    }

    /// Stores what the response's `Set-Cookie` lines set, each line read on its own (an
    /// `Expires` date holds a comma, so the lines cannot be joined).
    func store(from head: ResponseHead) {
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
