import Foundation

/// Timings and counts of one transfer attempt, read from libcurl.
///
/// Salvo's stand-in for `URLSessionTaskMetrics`, which cannot be built outside URLSession.
/// Times are seconds from the start of the attempt, as libcurl measures them.
public struct TransferMetrics: Sendable, Equatable {
    /// Time until the name was resolved.
    public var nameLookup: TimeInterval
    /// Time until the TCP connection was made.
    public var connect: TimeInterval
    /// Time until the TLS handshake finished (0 without TLS).
    public var secureConnect: TimeInterval
    /// Time until the request was about to be sent.
    public var preTransfer: TimeInterval
    /// Time until the first response byte arrived.
    public var firstByte: TimeInterval
    /// Time until the transfer finished.
    public var total: TimeInterval
    /// Body bytes received.
    public var bytesReceived: Int64
    /// Body bytes sent.
    public var bytesSent: Int64
    /// The HTTP version used: `"1.0"`, `"1.1"`, `"2"`, `"3"`, or `nil` when none was spoken.
    public var httpVersion: String?
    /// Whether the attempt reused an open connection.
    public var connectionReused: Bool
    /// The number of redirects libcurl followed itself (Salvo follows them at the request
    /// level, so this is normally 0).
    public var redirectCount: Int

    /// Creates metrics.
    public init(nameLookup: TimeInterval = 0, connect: TimeInterval = 0, secureConnect: TimeInterval = 0,
                preTransfer: TimeInterval = 0, firstByte: TimeInterval = 0, total: TimeInterval = 0,
                bytesReceived: Int64 = 0, bytesSent: Int64 = 0, httpVersion: String? = nil,
                connectionReused: Bool = false, redirectCount: Int = 0) {
        self.nameLookup = nameLookup
        self.connect = connect
        self.secureConnect = secureConnect
        self.preTransfer = preTransfer
        self.firstByte = firstByte
        self.total = total
        self.bytesReceived = bytesReceived
        self.bytesSent = bytesSent
        self.httpVersion = httpVersion
        self.connectionReused = connectionReused
        self.redirectCount = redirectCount
    }
}
