import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The proxies a `URLSessionConfiguration.connectionProxyDictionary` names, in libcurl's
/// terms.
///
/// URLSession reads CFNetwork's keys: `HTTPEnable`, `HTTPProxy` and `HTTPPort` for `http`
/// URLs; `HTTPSEnable`, `HTTPSProxy` and `HTTPSPort` for `https` URLs; `SOCKSEnable`,
/// `SOCKSProxy` and `SOCKSPort` for both (where no HTTP proxy is set); `ExceptionsList` for
/// hosts reached directly. A dictionary that enables none of them means no proxy, not the
/// environment's, as an empty dictionary does for URLSession. `TransportConfiguration.proxy`,
/// when set, wins over all of this.
struct ConnectionProxySettings: Equatable, Sendable {
    /// The proxy for `http` URLs, as libcurl's `CURLOPT_PROXY` takes it; "" for none.
    var http: String
    /// The proxy for `https` URLs; "" for none.
    var https: String
    /// Hosts reached without a proxy, as libcurl's `CURLOPT_NOPROXY` takes them; "" for none
    /// (which also keeps libcurl from reading `no_proxy` from the environment).
    var exceptions: String

    /// Reads a dictionary; `nil` when there is none (libcurl then honours the environment's
    /// proxy variables, as FoundationNetworking does).
    init?(_ dictionary: [AnyHashable: Any]?) {
        guard let dictionary else { return nil }
        func value(_ key: String) -> Any? { dictionary[AnyHashable(key)] }
        func proxy(_ prefix: String, scheme: String) -> String? {
            guard Self.flag(value(prefix + "Enable")), let host = value(prefix + "Proxy") as? String, !host.isEmpty else { return nil }
            let bracketed = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
            // Without a port libcurl uses its own default (1080).
            guard let port = Self.port(value(prefix + "Port")) else { return "\(scheme)://\(bracketed)" }
            return "\(scheme)://\(bracketed):\(port)"
        }
        // SOCKS as URLSession speaks it: version 5, names resolved by the proxy.
        let socks = proxy("SOCKS", scheme: "socks5h")
        http = proxy("HTTP", scheme: "http") ?? socks ?? ""
        https = proxy("HTTPS", scheme: "http") ?? socks ?? ""
        let patterns = (value("ExceptionsList") as? [Any] ?? []).compactMap { $0 as? String }.compactMap(Self.noProxyEntry)
        exceptions = patterns.joined(separator: ",")
    }

    /// CFNetwork's flags are numbers or booleans.
    private static func flag(_ value: Any?) -> Bool {
        switch value {
        case let bool as Bool: bool
        case let int as Int: int != 0
        case let number as NSNumber: number.boolValue
        case let string as String: (Int(string) ?? 0) != 0
        default: false
        }
    }

    private static func port(_ value: Any?) -> Int? {
        let port: Int? = switch value {
        case let int as Int: int
        case let number as NSNumber: number.intValue
        case let string as String: Int(string)
        default: nil
        }
        return port.flatMap { (1...65535).contains($0) ? $0 : nil }
    }

    /// `*.example.com` (CFNetwork's wildcard) is `.example.com` to libcurl, which matches
    /// the domain's hosts by suffix; a bare `*` turns the proxy off for every host.
    private static func noProxyEntry(_ pattern: String) -> String? {
        let trimmed = pattern.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { return nil }
        if trimmed.hasPrefix("*.") { return String(trimmed.dropFirst()) }
        return trimmed
    }
}
