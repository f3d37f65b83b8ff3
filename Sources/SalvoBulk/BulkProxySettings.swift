import Foundation
import Salvo

/// The proxies of a run or of one entry, with aria2's option names: `--all-proxy`,
/// `--http-proxy`, `--https-proxy` and `--no-proxy`.
///
/// Each value is `[SCHEME://][USER:PASSWORD@]HOST[:PORT]` as libcurl takes it (SCHEME is
/// `http` when none is given; `https`, `socks4`, `socks4a`, `socks5` and `socks5h` are
/// libcurl's others), or `""` for no proxy, which overrides a proxy set elsewhere. HTTPS goes
/// through an HTTP proxy as a `CONNECT` tunnel; plain HTTP as a request for the full URL.
public struct BulkProxySettings: Hashable, Sendable {
    /// The proxy for every scheme without one of its own (`--all-proxy`).
    public var allProxy: String?
    /// The proxy for `http` URLs (`--http-proxy`).
    public var httpProxy: String?
    /// The proxy for `https` URLs (`--https-proxy`).
    public var httpsProxy: String?
    /// Hosts, domains and addresses (with an optional `/bits` mask) reached without a proxy,
    /// comma-separated, or `*` for every host (`--no-proxy`).
    public var noProxy: String?

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - allProxy: The proxy for every scheme. `nil` by default.
    ///   - httpProxy: The proxy for `http`. `nil` by default.
    ///   - httpsProxy: The proxy for `https`. `nil` by default.
    ///   - noProxy: The hosts reached directly. `nil` by default.
    public init(allProxy: String? = nil, httpProxy: String? = nil, httpsProxy: String? = nil, noProxy: String? = nil) {
        self.allProxy = allProxy
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
    }

    /// Whether nothing is set.
    public var isEmpty: Bool { allProxy == nil && httpProxy == nil && httpsProxy == nil && noProxy == nil }

    /// The variables curl and aria2 read: `http_proxy` (lower case only: a CGI program gets
    /// the request's `Proxy:` header as `HTTP_PROXY`), `https_proxy`, `all_proxy` and
    /// `no_proxy`, each also in upper case but for the first, the lower case winning.
    ///
    /// - Parameter environment: The process's environment.
    /// - Returns: The settings they name; empty values count as unset.
    public static func environment(_ environment: [String: String]) -> BulkProxySettings {
        func value(_ names: String...) -> String? {
            names.lazy.compactMap { environment[$0] }.first { !$0.isEmpty }
        }
        return BulkProxySettings(allProxy: value("all_proxy", "ALL_PROXY"), httpProxy: value("http_proxy"),
                                 httpsProxy: value("https_proxy", "HTTPS_PROXY"), noProxy: value("no_proxy", "NO_PROXY"))
    }

    /// These settings with each value `other` sets in place of this one's, as an entry's
    /// option line replaces the command line's option of the same name.
    public func overridden(by other: BulkProxySettings) -> BulkProxySettings {
        BulkProxySettings(allProxy: other.allProxy ?? allProxy, httpProxy: other.httpProxy ?? httpProxy,
                          httpsProxy: other.httpsProxy ?? httpsProxy, noProxy: other.noProxy ?? noProxy)
    }

    /// The proxy these settings name for `scheme` (`http` or `https`): its own, else the
    /// one for all; `nil` when neither is set.
    public func proxy(forScheme scheme: String) -> String? {
        (scheme == "https" ? httpsProxy : httpProxy) ?? allProxy
    }

    /// Checks a proxy value: `""`, or `[SCHEME://][USER:PASSWORD@]HOST[:PORT][/]`.
    ///
    /// The message names the option but not the value, which may hold a password.
    ///
    /// - Parameters:
    ///   - value: The value given.
    ///   - spelling: The option's name in messages, `--all-proxy` or `all-proxy`.
    /// - Throws: `BulkValueError` for another scheme, a missing host, a bad port, or a
    ///   space or control character.
    public static func validate(_ value: String, for spelling: String) throws(BulkValueError) {
        guard !value.isEmpty else { return }
        let problem = "option '\(spelling)' needs [http://][USER:PASSWORD@]HOST[:PORT] or \"\" for no proxy"
        guard !value.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) else {
            throw BulkValueError("\(problem); the value holds a space or control character")
        }
        var rest = Substring(value)
        if let range = rest.range(of: "://") {
            let scheme = rest[..<range.lowerBound].lowercased()
            guard ["http", "https", "socks4", "socks4a", "socks5", "socks5h"].contains(scheme) else {
                throw BulkValueError("\(problem); the scheme '\(scheme)' is not http, https, socks4, socks4a, socks5 or socks5h")
            }
            rest = rest[range.upperBound...]
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        if let at = rest.lastIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        var host = rest
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            // An IPv6 address: its colons are not the port's.
            host = rest[...close]
            rest = rest[rest.index(after: close)...]
            guard rest.isEmpty || rest.hasPrefix(":") else { throw BulkValueError("\(problem); the host is malformed") }
            if !rest.isEmpty { try checkPort(rest.dropFirst(), problem: problem) }
        } else if let colon = rest.lastIndex(of: ":") {
            host = rest[..<colon]
            try checkPort(rest[rest.index(after: colon)...], problem: problem)
        }
        guard !host.isEmpty, !host.contains("/") else { throw BulkValueError("\(problem); the host is missing") }
    }

    private static func checkPort(_ text: Substring, problem: String) throws(BulkValueError) {
        guard !text.isEmpty, text.count <= 5, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let port = Int(text), (1...65535).contains(port) else {
            throw BulkValueError("\(problem); the port is not a number from 1 to 65535")
        }
    }
}
