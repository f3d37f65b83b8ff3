internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// Process-wide libcurl set-up, done once before any handle is made.
///
/// `curl_global_init` is not thread-safe on every libcurl build, so it runs inside a
/// `static let` initializer, which Swift runs exactly once. SIGPIPE is ignored because a
/// peer that closes a socket mid-write would otherwise kill the process; libcurl's own
/// guard (`CURLOPT_NOSIGNAL` off) would install signal handlers instead, which a server
/// process must not have changed under it.
package enum CurlGlobal {
    private static let initialized: Bool = {
        signal(SIGPIPE, SIG_IGN)
        return curl_global_init(Int(CURL_GLOBAL_ALL)) == CURLE_OK
    }()

    /// Runs the one-time set-up if it has not run yet.
    ///
    /// - Returns: Whether `curl_global_init` succeeded.
    @discardableResult
    package static func ensureInitialized() -> Bool { initialized }
}
