import Foundation

/// What the request layer asks of one transfer: built before the transfer exists, then handed
/// over whole to `Transfer.init`, which keeps it in constants. After that only the engine (the
/// loop thread, then the delivery queue) changes the transfer.
///
/// `@unchecked Sendable`: its class references (the header list, the sink maker's sink, the
/// body source, the progress reporter) are made for this one transfer and handed on with the
/// description; nothing else touches them until the transfer does, one thread at a time.
package struct TransferDescription: @unchecked Sendable {
    package var url: String
    /// `scheme://authority`, a slice of `url` (no copy).
    package var hostKey: Substring
    package var method: String
    package var headers: CurlHeaderList
    package var body: Data?
    /// URLSession's `timeoutInterval`: the longest stretch with no bytes moving.
    package var idleTimeout: TimeInterval
    /// The session's curl verbose logger, or `nil` (the usual case).
    package var verboseLogger: (@Sendable (String) -> Void)?
    /// Asks for HTTP/2 over cleartext with prior knowledge (h2c).
    package var priorKnowledge: Bool
    /// Told, on the delivery queue, when a final response's headers are complete, with the
    /// transfer they belong to; set only when someone listens, so the common path pays nothing.
    package var headHandler: (@Sendable (ResponseHead, Transfer) -> Void)?
    /// Whether the transfer pauses once `headHandler` is told, until the request layer
    /// releases it (`EventLoop.Command.release`): `onHTTPResponse` handlers see the response
    /// before any body byte arrives.
    package var holdsForResponse = false
    /// HTTP authentication, offered when the server challenges.
    package var credential: (user: String, password: String)?
    /// Whether the session's cookie jar (if it has one) takes part in this transfer.
    package var usesCookies = true
    /// The caller's own `Cookie` header when the jar takes part: libcurl puts it on the jar's
    /// `Cookie` line (`CURLOPT_COOKIE`), so the request carries one line, as RFC 6265 asks,
    /// instead of the caller's and the jar's.
    package var cookieHeader: String?
    /// For a redirect hop, what is left of the session's resource timeout; `nil` for all of it.
    package var resourceTimeout: TimeInterval?
    /// Makes where the body goes instead of memory (a download's file, a stream's consumer),
    /// given the transfer being made, which the sink may refer to weakly to wake it.
    package var makeSink: ((Transfer) -> ResponseSink)?
    /// An upload's body, read by libcurl in pieces; `nil` for `body` or no body.
    package var bodySource: BodySource?
    /// Progress reporting, set only when someone listens.
    package var progress: TransferProgress?

    package init(url: String, hostKey: Substring, method: String, headers: CurlHeaderList, body: Data?,
                 idleTimeout: TimeInterval, verboseLogger: (@Sendable (String) -> Void)?, priorKnowledge: Bool) {
        self.url = url
        self.hostKey = hostKey
        self.method = method
        self.headers = headers
        self.body = body
        self.idleTimeout = idleTimeout
        self.verboseLogger = verboseLogger
        self.priorKnowledge = priorKnowledge
    }
}
