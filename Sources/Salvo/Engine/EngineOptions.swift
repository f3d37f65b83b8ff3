import Foundation

/// Session-wide settings the engine applies to every transfer: the part of
/// `Session.Configuration` that libcurl needs to know.
struct EngineOptions: Sendable {
    var httpVersion: HTTPVersionPolicy = .automatic
    var connectTimeout: TimeInterval = 60
    var resourceTimeout: TimeInterval = 604_800
    var maximumConnectionsPerHost = 6
    var maximumConnections = 0
    var maximumStreamsPerConnection = 100
    /// libcurl's `CURLOPT_PROXY` for every transfer ("" for none; `nil` leaves libcurl to
    /// read the environment).
    var proxy: String?
    /// For `https` URLs, a proxy other than `proxy` (a `connectionProxyDictionary` may name
    /// one per scheme); such a session's handles are reset before each transfer.
    var httpsProxy: String?
    /// libcurl's `CURLOPT_NOPROXY`: hosts reached without the proxy.
    var noProxy: String?
    var caBundlePath: String?
    var validatesCertificates = true
    var decompressesResponses = true
    var receiveBufferSize = 0
    /// libcurl's `CURLOPT_MAX_RECV_SPEED_LARGE` for every transfer, in bytes per second; 0
    /// for no limit. Set in full after every reset, so a handle on the fast path (which skips
    /// the reset) keeps the value it was given, which is the same for every handle of a loop.
    var maximumReceiveRate: Int64 = 0
    /// The most decoded bytes a response body collected in memory may have; 0 for no limit.
    var maximumResponseBodySize = TransportConfiguration.defaultMaximumResponseBodySize
    /// The most bytes a stream may hand its consumer; 0 for no limit.
    var maximumStreamedBodySize = 0
    /// Keeps a cookie jar for the session (URLSessionConfiguration's `httpShouldSetCookies`).
    var cookies = true
    var verboseLogger: (@Sendable (String) -> Void)?
}
