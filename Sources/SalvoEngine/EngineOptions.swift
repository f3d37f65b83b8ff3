import Foundation

/// Session-wide settings the engine applies to every transfer: the part of
/// `Session.Configuration` that libcurl needs to know.
package struct EngineOptions: Sendable {
    /// libcurl's and Salvo's defaults; `TransportConfiguration.engineOptions` sets the rest.
    package init() {}

    package var httpVersion: HTTPVersionPolicy = .automatic
    package var connectTimeout: TimeInterval = 60
    package var resourceTimeout: TimeInterval = 604_800
    package var maximumConnectionsPerHost = 6
    package var maximumConnections = 0
    package var maximumStreamsPerConnection = 100
    /// libcurl's `CURLOPT_PROXY` for every transfer ("" for none; `nil` leaves libcurl to
    /// read the environment).
    package var proxy: String?
    /// For `https` URLs, a proxy other than `proxy` (a `connectionProxyDictionary` may name
    /// one per scheme); such a session's handles are reset before each transfer.
    package var httpsProxy: String?
    /// libcurl's `CURLOPT_NOPROXY`: hosts reached without the proxy.
    package var noProxy: String?
    package var caBundlePath: String?
    /// A hashed CA directory trusted beside `caBundlePath` (libcurl's `CURLOPT_CAPATH`): the
    /// system's, for a bundle that adds to the system's anchors rather than replacing them.
    package var caDirectoryPath: String?
    /// A client certificate in PEM (`CURLOPT_SSLCERT`), shown to servers that ask for one.
    package var clientCertificatePath: String?
    /// The client certificate's private key in PEM (`CURLOPT_SSLKEY`); `nil` when the
    /// certificate's file holds it.
    package var clientKeyPath: String?
    package var validatesCertificates = true
    package var decompressesResponses = true
    package var receiveBufferSize = 0
    /// libcurl's `CURLOPT_MAX_RECV_SPEED_LARGE` for every transfer, in bytes per second; 0
    /// for no limit. Set in full after every reset, so a handle on the fast path (which skips
    /// the reset) keeps the value it was given, which is the same for every handle of a loop.
    package var maximumReceiveRate: Int64 = 0
    /// The most decoded bytes a response body collected in memory may have; 0 for no limit.
    package var maximumResponseBodySize = 256 << 20
    /// The most bytes a stream may hand its consumer; 0 for no limit.
    package var maximumStreamedBodySize = 0
    /// Keeps a cookie jar for the session (URLSessionConfiguration's `httpShouldSetCookies`).
    package var cookies = true
    package var verboseLogger: (@Sendable (String) -> Void)?

    /// Whether the proxy variables libcurl honours are set in this process's environment.
    /// When none is, a client sets `proxy` to "", which spares libcurl reading them on every
    /// transfer.
    package static func environmentNamesAProxy() -> Bool {
        let names = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]
        return names.contains { ProcessInfo.processInfo.environment[$0]?.isEmpty == false }
    }
}
