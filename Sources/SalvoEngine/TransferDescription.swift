import Foundation

/// What the request layer asks of one transfer: filled in before the transfer exists, then
/// handed over whole to `Transfer.init`, after which nothing changes it and only the engine (the
/// loop thread, then the delivery queue) changes the transfer.
///
/// A class, so the hand-over passes one reference: as a struct of this size it was copied whole
/// three times per request (~750 instructions). No runtime exclusivity check is needed: it is
/// written by one thread, then only read.
package final class TransferDescription: @unchecked Sendable { // filled in by the thread sending the attempt, handed to the loop with its Transfer through the EventLoop inbox Mutex, never written after

    @exclusivity(unchecked) package var url: String
    /// `scheme://authority`, a slice of `url` (no copy).
    @exclusivity(unchecked) package var hostKey: Substring
    @exclusivity(unchecked) package var method: String
    @exclusivity(unchecked) package var headers: CurlHeaderList
    @exclusivity(unchecked) package var body: Data?
    /// URLSession's `timeoutInterval`: the longest stretch with no bytes moving.
    @exclusivity(unchecked) package var idleTimeout: TimeInterval
    /// The session's curl verbose logger, or `nil` (the usual case).
    @exclusivity(unchecked) package var verboseLogger: (@Sendable (String) -> Void)?
    /// Asks for HTTP/2 over cleartext with prior knowledge (h2c).
    @exclusivity(unchecked) package var priorKnowledge: Bool
    /// Told, on the delivery queue, when a final response's headers are complete, with the
    /// transfer they belong to; set only when someone listens, so the common path pays nothing.
    @exclusivity(unchecked) package var headHandler: (@Sendable (ResponseHead, Transfer) -> Void)?
    /// Whether the transfer pauses once `headHandler` is told, until the request layer
    /// releases it (`EventLoop.Command.release`): `onHTTPResponse` handlers see the response
    /// before any body byte arrives.
    @exclusivity(unchecked) package var holdsForResponse = false
    /// HTTP authentication, offered when the server challenges.
    @exclusivity(unchecked) package var credential: (user: String, password: String)?
    /// Whether the session's cookie jar (if it has one) takes part in this transfer.
    @exclusivity(unchecked) package var usesCookies = true
    /// The caller's own `Cookie` header when the jar takes part: libcurl puts it on the jar's
    /// `Cookie` line (`CURLOPT_COOKIE`), so the request carries one line, as RFC 6265 asks,
    /// instead of the caller's and the jar's.
    @exclusivity(unchecked) package var cookieHeader: String?
    /// For a redirect hop, what is left of the session's resource timeout; `nil` for all of it.
    @exclusivity(unchecked) package var resourceTimeout: TimeInterval?
    /// Makes where the body goes instead of memory (a download's file, a stream's consumer),
    /// given the transfer being made, which the sink may refer to weakly to wake it.
    @exclusivity(unchecked) package var makeSink: ((Transfer) -> ResponseSink)?
    /// The owner's `transferDidFinish` runs on the loop thread as the loop hands out the
    /// turn's finished transfers, not on `deliveryQueue`: for an owner that only passes the
    /// outcome on (resumes a waiting task) and never blocks, which then costs no hop to a
    /// queue that would only make the next one.
    @exclusivity(unchecked) package var deliversOnLoopThread = false
    /// An upload's body, read by libcurl in pieces; `nil` for `body` or no body.
    @exclusivity(unchecked) package var bodySource: BodySource?
    /// Progress reporting, set only when someone listens.
    @exclusivity(unchecked) package var progress: TransferProgress?
    /// Certificate checks other than the session's, from server trust evaluation.
    @exclusivity(unchecked) package var trust: TLSTrust?
    /// This transfer's `CURLOPT_PROXY` over the session's ("" for none); `nil` keeps the session's.
    @exclusivity(unchecked) package var proxy: String?
    /// This transfer's `CURLOPT_NOPROXY` over the session's; `nil` keeps the session's.
    @exclusivity(unchecked) package var noProxy: String?

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
