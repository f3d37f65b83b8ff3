import Foundation
internal import CCurl
internal import CSalvoHeaders

/// The status line and headers of a response, kept as raw bytes until someone asks for
/// them: building Foundation's header dictionary costs more than the transfer itself.
package struct ResponseHead: Sendable {
    /// The HTTP status code.
    package var statusCode: Int
    /// `"1.1"`, `"2"`, ... as read from libcurl.
    package var httpVersion: String
    /// The final URL of the transfer.
    package var url: String
    /// libcurl's parse of `Content-Type`, or `nil`.
    package var contentType: String?
    /// The absolute target of a `Location` header on a redirect status, or `nil`.
    package var redirectURL: String?
    /// The header lines of the last response as received (status line included).
    package var rawHeaders: [UInt8]
    /// `false` when no line of `rawHeaders` can be a `Set-Cookie` line, as the engine saw
    /// while collecting them: the cookie store then skips reading the lines again.
    package var mayHaveSetCookie: Bool

    /// A head from its parts, as the engine reads them from libcurl (and as tests and the
    /// fuzzer make them).
    package init(statusCode: Int, httpVersion: String, url: String, contentType: String?, redirectURL: String?,
                 rawHeaders: [UInt8], mayHaveSetCookie: Bool = true) {
        self.statusCode = statusCode
        self.httpVersion = httpVersion
        self.url = url
        self.contentType = contentType
        self.redirectURL = redirectURL
        self.rawHeaders = rawHeaders
        self.mayHaveSetCookie = mayHaveSetCookie
    }

    /// The statuses whose `Location` the request layer follows, as URLSession does.
    package static func isFollowedRedirect(status: Int) -> Bool {
        switch status {
        case 301, 302, 303, 307, 308: return true
        default: return false
        }
    }
}

/// What a finished transfer hands back to the request layer.
package struct TransferOutcome: Sendable {
    package var head: ResponseHead?
    package var body: Data
    package var error: CurlError?
    package var metrics: TransferMetrics

    /// An outcome from its parts: the engine's, or the request layer's for an attempt its
    /// cache answered without a transfer.
    package init(head: ResponseHead?, body: Data, error: CurlError?, metrics: TransferMetrics) {
        self.head = head
        self.body = body
        self.error = error
        self.metrics = metrics
    }
}

/// Whoever waits for a transfer's outcome: the request layer, named only through this
/// protocol so the engine knows nothing of requests.
package protocol TransferOwner: AnyObject, Sendable {
    /// Runs once: on the transfer's `deliveryQueue`, or on the loop thread for a transfer
    /// that `deliversOnLoopThread`.
    func transferDidFinish(_ transfer: Transfer, outcome: TransferOutcome)
}

/// One attempt: what libcurl must send, where the received bytes go, and whom to tell when
/// it ends.
///
/// Built on the caller's thread; once submitted to an `EventLoop`, its mutable state is
/// touched only on that loop's thread, and the outcome is published to `deliveryQueue`
/// through `DispatchQueue.async`, which orders the loop's writes before the reader's reads.
/// That hand-off is what makes the `@unchecked Sendable` true.
///
/// The stored `var`s are marked `@exclusivity(unchecked)`: each is touched by one thread at a
/// time (the builder, then the loop, then the delivery queue) and never through overlapping
/// accesses, and the runtime's exclusivity check cost ~80 instructions per access, about
/// 1,000 per request in the header callback alone.
package final class Transfer: HostQueueMember, @unchecked Sendable { // one thread at a time: handed on by the inbox Mutex, then deliveryQueue.async
    package enum Phase { case created, waiting, active, done }

    /// What the request layer asked for, kept whole (one reference); the properties below
    /// read it.
    private let given: TransferDescription
    // The fields the loop reads on every request are kept as constants of their own: read
    // through a computed property, each read of a string would cost a retain and a release.
    package let url: String
    /// `scheme://authority`, a slice of `url` (no copy).
    package let hostKey: Substring
    package let method: String
    package let headers: CurlHeaderList
    package let body: Data?
    /// URLSession's `timeoutInterval`: the longest stretch with no bytes moving.
    package var idleTimeout: TimeInterval { given.idleTimeout }
    /// `idleTimeout` in nanoseconds, as the loop enforces it; 0 for none.
    package let idleTimeoutNanoseconds: UInt64
    /// Whether the URL is `https`.
    package let isHTTPS: Bool
    /// The session's curl verbose logger, or `nil` (the usual case).
    package var verboseLogger: (@Sendable (String) -> Void)? { given.verboseLogger }
    /// Asks for HTTP/2 over cleartext with prior knowledge (h2c).
    package var priorKnowledge: Bool { given.priorKnowledge }
    package let deliveryQueue: DispatchQueue
    /// See `TransferDescription.deliversOnLoopThread`.
    package var deliversOnLoopThread: Bool { given.deliversOnLoopThread }
    /// Held strongly until the outcome is delivered, then dropped, which breaks the
    /// request-transfer cycle.
    @exclusivity(unchecked) private var owner: (any TransferOwner)?
    /// See `TransferDescription` for these.
    package var headHandler: (@Sendable (ResponseHead, Transfer) -> Void)? { given.headHandler }
    package var holdsForResponse: Bool { given.holdsForResponse }
    package var credential: (user: String, password: String)? { given.credential }
    package var usesCookies: Bool { given.usesCookies }
    package var cookieHeader: String? { given.cookieHeader }
    package var resourceTimeout: TimeInterval? { given.resourceTimeout }
    package var trust: TLSTrust? { given.trust }
    package var proxy: String? { given.proxy }
    package var noProxy: String? { given.noProxy }
    package var bodySource: BodySource? { given.bodySource }
    package var progress: TransferProgress? { given.progress }
    /// A download's file or a stream's consumer: when set, the body goes there instead of
    /// `received`. Made by the description's `makeSink` as the transfer is made.
    @exclusivity(unchecked) package private(set) var sink: ResponseSink?
    /// `sink` when it is a download's file.
    package var fileSink: ResponseFileSink? { sink as? ResponseFileSink }
    /// `headHandler` was told of a final response (loop thread; read on `deliveryQueue` once
    /// the outcome is delivered). When it was not, the request layer announces the final head
    /// itself: a redirect it does not follow, or a 401/407 that had no body.
    @exclusivity(unchecked) package internal(set) var headAnnounced = false
    /// Set as the loop ends the transfer itself (a cancel): whatever libcurl still hands over
    /// is dropped (see `EventLoop.finish`).
    @exclusivity(unchecked) package internal(set) var discardsInput = false
    /// A 401/407 head was seen with credentials set; see `headerEvent`.
    @exclusivity(unchecked) package internal(set) var challengePending = false
    /// How often the transfer was sent again after the h2c connection it waited for vanished
    /// (see `EventLoop.sendsAgainWithPriorKnowledge`).
    @exclusivity(unchecked) package internal(set) var priorKnowledgeResends = 0

    // Loop-thread state.
    @exclusivity(unchecked) package internal(set) var phase = Phase.created
    /// Set by the host queue as it starts the transfer.
    @exclusivity(unchecked) package var hostProbe = HostProbe.none
    /// The server's HTTP/2 stream limit, when libcurl said that it kept this stream probe off
    /// the host's full connection.
    @exclusivity(unchecked) package internal(set) var observedStreamLimit: Int?
    /// Whether ALPN chose HTTP/2, once libcurl said so for this protocol probe.
    @exclusivity(unchecked) package internal(set) var observedHTTP2: Bool?
    /// A response's status line came (the loop settles a stream probe by it).
    @exclusivity(unchecked) package internal(set) var sawStatusLine = false
    @exclusivity(unchecked) package internal(set) var easy: CurlEasy?
    /// Where the loop's list of running transfers keeps this one.
    @exclusivity(unchecked) package internal(set) var activeSlot = 0
    /// Why the client holds the transfer paused (loop thread, but for `startsSuspended()`).
    @exclusivity(unchecked) package internal(set) var holds: Holds = []
    /// This transfer asked for prior knowledge to open its host's h2c connection, which the
    /// host's other transfers wait to multiplex onto (libcurl < 8; see `EventLoop.begin`).
    @exclusivity(unchecked) package internal(set) var opensPriorKnowledgeConnection = false
    /// Which of its host's h2c connections the transfer opened or waited for (see
    /// `EventLoop.priorKnowledgeOpenings`).
    @exclusivity(unchecked) package internal(set) var priorKnowledgeOpening: UInt64 = 0
    /// Bytes moved (down, up and header bytes) when the loop last looked, since when none
    /// moved (uptime, ns), and how long that quiet must last before the loop nudges the
    /// transfer (see `EventLoop.watch`).
    @exclusivity(unchecked) package internal(set) var watchedBytes: Int64 = -1
    @exclusivity(unchecked) package internal(set) var quietSince: UInt64 = 0
    @exclusivity(unchecked) package internal(set) var nudgeAfter: UInt64 = 0
    @exclusivity(unchecked) package internal(set) var received = ByteBuffer()
    /// The most bytes `received` may hold (`TransportConfiguration.maximumResponseBodySize`),
    /// or a stream's sink may take (`maximumStreamedBodySize`), set by the loop as the
    /// transfer begins.
    @exclusivity(unchecked) package internal(set) var bodyLimit = Int.max
    /// Bytes a limited sink has taken.
    @exclusivity(unchecked) package internal(set) var sinkBytes = 0
    /// The body passed `bodyLimit`, which ended the transfer.
    @exclusivity(unchecked) package internal(set) var bodyLimitExceeded = false
    @exclusivity(unchecked) package internal(set) var outcome: TransferOutcome?

    /// Makes the transfer `description` describes; the description is not changed afterwards.
    package init(_ description: TransferDescription, deliveryQueue: DispatchQueue, owner: any TransferOwner) {
        let idleTimeout = description.idleTimeout
        // Past ~30 years, or not a number: no idle timeout.
        idleTimeoutNanoseconds = idleTimeout > 0 && idleTimeout < 1e9 ? UInt64(idleTimeout * 1e9) : 0
        // "https:" against "http:": the fifth byte of the (lowercased) key.
        isHTTPS = description.hostKey.utf8.withContiguousStorageIfAvailable { $0.count > 5 && $0[4] == UInt8(ascii: "s") }
            ?? description.hostKey.hasPrefix("https:")
        // The sink maker is used here and not kept: it may hold what holds the request.
        let makeSink = description.makeSink.take()
        given = description
        url = description.url
        hostKey = description.hostKey
        method = description.method
        headers = description.headers
        body = description.body
        self.deliveryQueue = deliveryQueue
        self.owner = owner
        if let makeSink { sink = makeSink(self) }
    }

    /// Marks a transfer whose request is suspended, so that it starts paused. Called by the
    /// request layer before it hands the transfer to the loop, under the request's lock, so a
    /// resume that follows finds the mark (as a `.resume` command could arrive before the
    /// `.add`); never after.
    package func startsSuspended() {
        holds.insert(.suspended)
    }

    /// Runs on `deliveryQueue` (or the loop thread, see `deliversOnLoopThread`), once.
    package func deliver() {
        guard let owner, let outcome = outcome.take() else { return }
        self.owner = nil
        owner.transferDidFinish(self, outcome: outcome)
    }

    // MARK: libcurl callbacks (loop thread)

    @inline(__always)
    package func receiveBody(_ bytes: UnsafeRawPointer, _ count: Int) -> Int {
        if discardsInput { return count }
        if challengePending, let easy {
            // Body bytes after a 401/407: it was the final response after all.
            challengePending = false
            headersComplete(easy, pausing: false)
        }
        if !holds.isEmpty {
            // Held for its response (headers ended inside this write: a 401 that was final),
            // or suspended: libcurl 7.88 forgets a pause made before the transfer reaches its
            // transfer phase (measured: a request suspended as it started ran to its end).
            // libcurl keeps these bytes and hands them over again once the transfer is let go.
            return SALVO_WRITEFUNC_PAUSE
        }
        if let sink {
            guard bodyLimit != .max else { return sink.write(bytes, count) }
            if sinkBytes &+ count > bodyLimit {
                bodyLimitExceeded = true
                return 0
            }
            // A refused (paused) chunk comes again: count what the sink takes.
            let taken = sink.write(bytes, count)
            if taken == count { sinkBytes &+= count }
            return taken
        }
        if received.count &+ count > bodyLimit {
            bodyLimitExceeded = true
            return 0
        }
        received.append(bytes, count)
        return count
    }

    /// A status line (a new response begins) or the blank line ending a header block; the
    /// lines themselves are in `easy.headerBlock`.
    package func headerEvent(statusLine: Bool, _ length: Int) -> Int {
        if discardsInput { return length }
        if statusLine {
            sawStatusLine = true
            challengePending = false
            return length
        }
        guard let easy else { return length }
        if credential != nil {
            let status = easy.getLong(CURLINFO_RESPONSE_CODE)
            if status == 401 || status == 407 {
                // Most likely a challenge libcurl answers on this handle, whose body it
                // skips: decide when the next status line or the first body byte comes.
                challengePending = true
                return length
            }
        }
        headersComplete(easy, pausing: true)
        return length
    }

    /// The end of a final response's header block. `pausing`: a hold pauses the handle here
    /// (from the header callback); from the write callback, the write answers "pause" instead.
    private func headersComplete(_ easy: CurlEasy, pausing: Bool) {
        if let sink {
            let status = easy.getLong(CURLINFO_RESPONSE_CODE)
            let isRedirect = Self.isRedirect(status: status, easy)
            sink.headersEnded(status: status, isRedirect: isRedirect, rangeStart: status == 206 ? Self.contentRangeStart(easy) : nil)
            if sink.wantsHead && status >= 200 && !isRedirect { sink.headReceived(makeHead(easy, status: status)) }
        } else {
            // Reserve the body once when its length is known.
            let length = easy.getOffset(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)
            if length > 0 && length < 64 << 20 { received.reserve(Int(length)) }
        }
        guard let headHandler, announceHead(easy, headHandler) else { return }
        headAnnounced = true
        if holdsForResponse {
            holds.insert(.response)
            // From the write callback, the write's answer pauses the handle.
            if pausing { easy.pause() } else { easy.forgetPlainProfile() }
        }
    }

    /// Whether the response whose headers just ended is a redirect the request layer follows
    /// (`AttemptPipeline.followRedirect`): a redirect status with a `Location`. Read from the header
    /// lines, since libcurl 7.88 fills in `CURLINFO_REDIRECT_URL` only when the transfer ends.
    package static func isRedirect(status: Int, _ easy: CurlEasy) -> Bool {
        ResponseHead.isFollowedRedirect(status: status) && salvo_header_block_has(easy.headerBlock, "location") != 0
    }

    /// `N` of a `Content-Range: bytes N-M/T` line, or `nil`.
    package static func contentRangeStart(_ easy: CurlEasy) -> Int64? {
        var length = 0
        guard let value = salvo_header_block_value(easy.headerBlock, "content-range", &length) else { return nil }
        let text = String(decoding: UnsafeRawBufferPointer(start: value, count: length), as: UTF8.self)
        guard text.hasPrefix("bytes "), let dash = text.firstIndex(of: "-") else { return nil }
        return Int64(text[text.index(text.startIndex, offsetBy: 6)..<dash].trimmingCharacters(in: .whitespaces))
    }

    /// Hands a final response's head to `handler`; returns whether it did.
    private func announceHead(_ easy: CurlEasy, _ handler: @escaping @Sendable (ResponseHead, Transfer) -> Void) -> Bool {
        let status = easy.getLong(CURLINFO_RESPONSE_CODE)
        guard status >= 200 else { return false }
        // A redirect that will be followed is not the response the caller waits for.
        guard !Self.isRedirect(status: status, easy) else { return false }
        let head = makeHead(easy, status: status)
        deliveryQueue.async { handler(head, self) }
        return true
    }

    /// The head of the response whose headers just ended.
    private func makeHead(_ easy: CurlEasy, status: Int) -> ResponseHead {
        ResponseHead(statusCode: status, httpVersion: CurlEasy.version(easy.getLong(CURLINFO_HTTP_VERSION))?.text ?? "1.1",
                     url: easy.getString(CURLINFO_EFFECTIVE_URL) ?? url,
                     contentType: easy.getString(CURLINFO_CONTENT_TYPE), redirectURL: nil, rawHeaders: easy.headerBytes())
    }
}

extension Transfer {
    /// The client's reasons for holding a transfer paused: the loop unpauses a transfer only
    /// while it has none. A sink or body source that paused the transfer itself wakes it
    /// (`EventLoop.Command.drained`) when it can go on.
    package struct Holds: OptionSet, Sendable {
        package let rawValue: UInt8
        package init(rawValue: UInt8) { self.rawValue = rawValue }
        /// The request was suspended.
        package static let suspended = Holds(rawValue: 1 << 0)
        /// `onHTTPResponse` handlers have the head and have not released the body
        /// (`holdsForResponse`).
        package static let response = Holds(rawValue: 1 << 1)
    }

    /// Whether the client holds the transfer paused: suspended, held for `onHTTPResponse`
    /// handlers, or by its sink (a stream consumer that lags, a rate limit) (loop thread). A
    /// held transfer is not the server's silence for the idle timeout. An upload source with
    /// nothing to send pauses the transfer without holding it: a stalled body stream counts as
    /// silence, as it does with URLSession.
    package var isHeld: Bool { !holds.isEmpty || sink?.holdsTransfer == true }
}
