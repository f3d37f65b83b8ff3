import Foundation

/// Salvo's libcurl settings for a `Session`: what `URLSessionConfiguration` has no words for.
public struct TransportConfiguration: Sendable {
    /// Which HTTP versions to speak. `.automatic` by default.
    public var httpVersion: HTTPVersionPolicy
    /// Transfers at once across all hosts; 0 (the default) for no limit.
    public var maximumConnections: Int
    /// Concurrent HTTP/2 streams Salvo opens on one connection; 100 by default, the least
    /// RFC 9113 asks servers to allow, or fewer when the server allows fewer (Salvo finds
    /// its limit out).
    ///
    /// A host that speaks HTTP/2 gets one connection, as URLSession gives it: at most this
    /// many of its requests run at once, and the rest wait their turn in Salvo's queue,
    /// where their timeouts do not run. Over HTTPS the first request to a host finds out
    /// whether ALPN chooses HTTP/2 before the others go, so a burst never opens a connection
    /// per request.
    public var maximumStreamsPerConnection: Int
    /// Seconds to wait for a connection. 60 by default.
    public var connectTimeout: TimeInterval
    /// A proxy URL such as `http://proxy:3128` or `socks5h://host:1080`; `nil` uses none
    /// (libcurl still honours the `http_proxy` family of environment variables).
    public var proxy: String?
    /// A PEM file of CA certificates to trust instead of the system's (its certificates
    /// alone: the system's bundle and directory are not searched either).
    ///
    /// Whichever anchors a session trusts, this file or the system's, are parsed once per
    /// process and shared by every connection that verifies against them; they are read
    /// again when the file changes (looked at every few seconds) and at least hourly.
    public var caBundlePath: String?
    /// Whether TLS certificates and host names are verified. `true` by default.
    public var validatesCertificates: Bool
    /// Whether compressed responses (gzip, deflate, br, zstd) are decoded. `true` by default.
    public var decompressesResponses: Bool
    /// libcurl's receive buffer in bytes; 0 keeps libcurl's default (16 KiB).
    public var receiveBufferSize: Int
    /// Receives libcurl's verbose log lines, on a private serial queue; `nil` (the default)
    /// logs nothing.
    public var verboseLogger: (@Sendable (String) -> Void)?
    /// The most bytes a response body held in memory may have once decoded (data and upload
    /// requests); a larger one fails with `URLError.dataLengthExceedsMaximum` as soon as it
    /// passes the limit, so a hostile server cannot exhaust memory with an endless body or a
    /// small gzip body that inflates to gigabytes. 256 MiB by default
    /// (`defaultMaximumResponseBodySize`); 0 for no limit. Downloads write to a file and
    /// streams hand their chunks on, so neither is limited.
    public var maximumResponseBodySize: Int

    /// The most bytes a `DataStreamRequest` hands its consumer before it fails with
    /// `URLError.dataLengthExceedsMaximum`; 0 (the default) for no limit. A stream's memory
    /// stays bounded whatever its length (the transfer pauses while the consumer lags), so
    /// this is for consumers that keep what they are given.
    public var maximumStreamedBodySize: Int

    /// The most bytes per second each transfer of the session receives (libcurl's
    /// `CURLOPT_MAX_RECV_SPEED_LARGE`); 0 (the default) for no limit.
    ///
    /// The limit holds for every transfer on its own: ten transfers at once may together
    /// receive ten times as much. libcurl keeps to it by reading from the socket more slowly,
    /// averaged over the transfer, so a short burst may go faster.
    public var maximumReceiveRate: Int64

    /// 256 MiB: far above any API response, far below what hurts a server.
    public static let defaultMaximumResponseBodySize = 256 << 20

    /// Creates a configuration.
    ///
    /// Every parameter sets the property of the same name; `maximumReceiveRate` (0 by
    /// default, no limit) is taken as 0 when negative.
    public init(httpVersion: HTTPVersionPolicy = .automatic, maximumConnections: Int = 0,
                maximumStreamsPerConnection: Int = 100, connectTimeout: TimeInterval = 60,
                proxy: String? = nil, caBundlePath: String? = nil, validatesCertificates: Bool = true,
                decompressesResponses: Bool = true, receiveBufferSize: Int = 0,
                verboseLogger: (@Sendable (String) -> Void)? = nil,
                maximumResponseBodySize: Int = TransportConfiguration.defaultMaximumResponseBodySize,
                maximumStreamedBodySize: Int = 0, maximumReceiveRate: Int64 = 0) {
        self.httpVersion = httpVersion
        self.maximumConnections = maximumConnections
        self.maximumStreamsPerConnection = max(1, maximumStreamsPerConnection)
        self.connectTimeout = connectTimeout
        self.proxy = proxy
        self.caBundlePath = caBundlePath
        self.validatesCertificates = validatesCertificates
        self.decompressesResponses = decompressesResponses
        self.receiveBufferSize = receiveBufferSize
        self.verboseLogger = verboseLogger
        self.maximumResponseBodySize = max(0, maximumResponseBodySize)
        self.maximumStreamedBodySize = max(0, maximumStreamedBodySize)
        self.maximumReceiveRate = max(0, maximumReceiveRate)
    }

    var engineOptions: EngineOptions {
        var options = EngineOptions()
        options.httpVersion = httpVersion
        options.maximumConnections = maximumConnections
        options.maximumStreamsPerConnection = maximumStreamsPerConnection
        options.connectTimeout = connectTimeout
        options.proxy = proxy
        options.caBundlePath = caBundlePath
        options.validatesCertificates = validatesCertificates
        options.decompressesResponses = decompressesResponses
        options.receiveBufferSize = receiveBufferSize
        options.verboseLogger = verboseLogger
        options.maximumResponseBodySize = maximumResponseBodySize
        options.maximumStreamedBodySize = maximumStreamedBodySize
        options.maximumReceiveRate = maximumReceiveRate
        return options
    }
}
