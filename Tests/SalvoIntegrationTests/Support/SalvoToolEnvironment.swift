import Foundation

/// The environment the tool's tests run `salvo` in: this process's, less the proxy
/// variables, with `HOME` at a directory of the test's own, so neither the machine's proxies
/// nor its `~/.netrc` take part unless a test puts them there.
enum SalvoToolEnvironment {
    static let proxyVariables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY",
                                 "no_proxy", "NO_PROXY"]

    /// The environment, with `home` as `HOME` and `extra` over the rest.
    static func make(home: URL, _ extra: [String: String] = [:]) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        for name in proxyVariables { environment[name] = nil }
        environment["HOME"] = home.path
        environment.merge(extra) { $1 }
        return environment
    }
}
