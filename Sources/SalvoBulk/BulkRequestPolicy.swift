import Foundation
import Salvo

/// What one file's requests carry besides its headers, decided again for each URL a fetch
/// sends, redirects included: the login, the cookies and the proxy that belong to that URL.
///
/// A login given for the entry (`--http-user`, `http-user=`) belongs to the origins of the
/// entry's own URIs; a netrc login to its host; a cookie to the domain and path its file
/// gives. So a redirect to another host carries none of what was meant for the first.
struct BulkRequestPolicy: Sendable {
    /// The entry's login and the origins (`scheme://host:port`) it is sent to.
    let login: BulkLogin?
    let loginOrigins: Set<String>
    let netrc: BulkNetrc?
    let cookies: BulkCookieFile?
    /// The options' proxies with the entry's over them; then the environment's, when the
    /// run resolves proxies itself (`proxyEnvironment`).
    let proxies: BulkProxySettings
    let proxyEnvironment: BulkProxySettings?

    /// What a request for one URL adds.
    struct Additions {
        var authorization: String?
        var cookie: String?
        /// `CURLOPT_PROXY` and `CURLOPT_NOPROXY`, when the run resolves proxies itself.
        var proxy: String?
        var noProxy: String?
    }

    /// The policy of `entry` under `options`, or `nil` when it adds nothing to any request
    /// (the common case, which then costs nothing per request).
    static func make(options: BulkDownloader.Options, entry: BulkEntry) -> BulkRequestPolicy? {
        let user = entry.httpUser ?? options.httpUser
        let login = user.flatMap { $0.isEmpty ? nil : BulkLogin(user: $0, password: entry.httpPassword ?? options.httpPassword ?? "") }
        let netrc = (entry.usesNetrc ?? true) ? options.netrc : nil
        let proxies = options.proxies.overridden(by: entry.proxies)
        guard login != nil || netrc != nil || options.cookies != nil || !proxies.isEmpty || options.proxyEnvironment != nil else {
            return nil
        }
        let origins = login == nil ? [] : Set(entry.uris.compactMap { WireCheck.webOriginKey(of: $0.absoluteString).map(String.init) })
        return BulkRequestPolicy(login: login, loginOrigins: origins, netrc: netrc, cookies: options.cookies,
                                 proxies: proxies, proxyEnvironment: options.proxyEnvironment)
    }

    /// What a request for `url`, of origin `hostKey`, adds; `hasAuthorization` says that its
    /// headers name their own `Authorization`, which then stands.
    func additions(for url: String, hostKey: Substring, hasAuthorization: Bool) -> Additions {
        var additions = Additions()
        let parsed = URL(string: url)
        if !hasAuthorization, parsed?.user == nil {
            if let login, loginOrigins.contains(String(hostKey)) {
                additions.authorization = login.authorization
            } else if let netrc, let host = parsed?.host, let found = netrc.login(forHost: host) {
                additions.authorization = found.authorization
            }
        }
        if let cookies, let parsed { additions.cookie = cookies.header(for: parsed) }
        if !proxies.isEmpty || proxyEnvironment != nil {
            let scheme = hostKey.hasPrefix("https:") ? "https" : "http"
            // An option's proxy, even "", wins over every variable: `--all-proxy` over
            // `http_proxy` too.
            additions.proxy = proxies.proxy(forScheme: scheme) ?? proxyEnvironment?.proxy(forScheme: scheme) ?? ""
            additions.noProxy = proxies.noProxy ?? proxyEnvironment?.noProxy ?? ""
        }
        return additions
    }
}
