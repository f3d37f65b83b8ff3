import Foundation
import Synchronization

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
    public var httpVersion: String? {
        get { Self.versionText(versionCode) }
        set { versionCode = Self.versionCode(newValue) }
    }
    /// `httpVersion` as a number, so the metrics hold no reference: every response, context
    /// and monitor event copies them, and a struct without references copies as plain bytes
    /// (~650 instructions a request less than with the `String`).
    private var versionCode: UInt16 = 0
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
        self.versionCode = 0
        self.connectionReused = connectionReused
        self.redirectCount = redirectCount
        self.httpVersion = httpVersion
    }

    /// Whether the attempt spoke HTTP/2.
    package var isHTTP2: Bool { versionCode == 3 }

    /// Sets `httpVersion` from a version libcurl reports, without comparing texts.
    package mutating func setHTTPVersion(_ version: KnownVersion?) {
        versionCode = version?.rawValue ?? 0
    }

    /// The versions libcurl reports, numbered as `versionCode` numbers them.
    package enum KnownVersion: UInt16 {
        case http1_0 = 1, http1_1, http2, http3

        /// `httpVersion`'s text for it.
        package var text: String { TransferMetrics.versionText(rawValue) ?? "1.1" }
    }

    /// The codes past the known versions' number the version texts only a caller can set, in
    /// the order first seen, so equal texts get equal codes.
    private static let otherVersions = Mutex<[String]>([])
    private static let firstOtherCode: UInt16 = 5

    private static func versionCode(_ text: String?) -> UInt16 {
        switch text {
        case nil: return 0
        case "1.0": return 1
        case "1.1": return 2
        case "2": return 3
        case "3": return 4
        case let text?:
            let index = otherVersions.withLock { others -> Int in
                if let found = others.firstIndex(of: text) { return found }
                others.append(text)
                return others.count - 1
            }
            return firstOtherCode + UInt16(truncatingIfNeeded: index)
        }
    }

    private static func versionText(_ code: UInt16) -> String? {
        switch code {
        case 0: return nil
        case 1: return "1.0"
        case 2: return "1.1"
        case 3: return "2"
        case 4: return "3"
        default: return otherVersions.withLock { $0[Int(code - firstOtherCode)] }
        }
    }
}
