import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What every attempt of a session's requests starts from, worked out once from the
/// session's configuration: its header lines, its timeout, and why its headers cannot be
/// sent, if they cannot. A class, so an attempt reads it through one reference.
final class AttemptDefaults {
    /// The session's headers as ready-made `Name: value` lines.
    let headerLines: [(name: String, line: String)]
    /// `headerLines` as a curl list; libcurl never changes a list it is given.
    let sharedHeaderList: CurlHeaderList
    /// The session's own `Cookie` header when the session keeps a jar: it joins the jar's
    /// `Cookie` line (see `Transfer.cookieHeader`), so it is not among `headerLines`.
    let sessionCookie: String?
    /// The configuration's `timeoutIntervalForRequest`.
    let timeout: TimeInterval
    /// Why the configuration's own headers cannot be sent (see `WireCheck`), checked once;
    /// every request of such a session fails with it.
    let headerFailure: AFError?
    /// The origin key of the session's last request, reused while the origin stays the same.
    let originKeys = OriginKeyCache()

    init(configuration: URLSessionConfiguration) {
        let headers = configuration.headers
        headerFailure = WireCheck.headerFailure(headers)
        // Accept-Encoding stays a header line of ours even with decoding on, so the bytes
        // sent are the session's. (libcurl 7.88 formats its own option and custom lines alike,
        // character by character on every request, ~100 instructions a byte: neither is cheaper.)
        let sessionCookie = configuration.httpShouldSetCookies ? headers.value(for: "Cookie") : nil
        self.sessionCookie = sessionCookie
        let lines = headers.filter { header in
            sessionCookie == nil || !HTTPHeaders.equalIgnoringASCIICase(header.name, "Cookie")
        }.map { ($0.name, "\($0.name): \($0.value)") }
        headerLines = lines
        let shared = CurlHeaderList()
        for (_, line) in lines { shared.append(line) }
        sharedHeaderList = shared
        timeout = configuration.timeoutIntervalForRequest
    }
}
