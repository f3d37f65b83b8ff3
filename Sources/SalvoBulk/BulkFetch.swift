import Foundation
import Synchronization
import Salvo
import SalvoEngine

/// One GET of a bulk file sent straight to the engine, with the redirects it follows, until
/// it ends once: answered, refused, failed or cancelled.
///
/// The body goes to the sink `makeSink` makes for each transfer (a `PacedBodySink`: written
/// on the loop thread as it arrives); the end is judged on the loop thread too, from the
/// transfer's head and error alone, with no hop to a queue. Redirects are followed as
/// URLSession follows them (301, 302, 303, 307 and 308 with a `Location`, at most
/// `maximumRedirects`), only to `http` and `https` URLs, and credentials and cookies set for
/// one origin never go to another.
final class BulkFetch: TransferOwner, Sendable {
    /// How a fetch ended.
    enum Ending: Sendable {
        /// A 2xx answer, its body delivered to the sink to its end.
        case answered(ResponseHead)
        /// A final answer outside 2xx; its body was dropped.
        case refused(ResponseHead)
        /// No final answer: the connection, TLS, a timeout, the sink or a redirect failed.
        case failed(BulkAttemptFailure)
        /// `cancel()` was called first.
        case cancelled
    }

    /// Makes the sink of one transfer, given what continues the transfer once the sink has
    /// paused it (`EventLoop.Command.drained`).
    typealias SinkMaker = @Sendable (_ wake: @escaping @Sendable () -> Void) -> ResponseSink

    /// The redirects followed for one fetch, as URLSession's limit.
    static let maximumRedirects = 16

    private struct State {
        var transfer: Transfer?
        var cancelled = false
        var finished = false
        var redirects = 0
        var headers: HTTPHeaders
        var hostKey: Substring = ""
    }

    private let transport: BulkTransport
    private let policy: BulkRequestPolicy?
    private let makeSink: SinkMaker
    private let completion: @Sendable (Ending) -> Void
    private let state: Mutex<State>

    /// A fetch with `headers` (the `User-Agent` is added unless they name one), calling
    /// `completion` once: on the loop thread (on the transport's delivery queue if the loop
    /// was shutting down), or on the thread that cancels the fetch before it starts. The
    /// completion must not block: it holds every other transfer of the run.
    /// `policy`, when given, adds the login, cookies and proxy of each URL sent.
    init(transport: BulkTransport, headers: HTTPHeaders, policy: BulkRequestPolicy? = nil, makeSink: @escaping SinkMaker,
         completion: @escaping @Sendable (Ending) -> Void) {
        self.transport = transport
        self.policy = policy
        self.makeSink = makeSink
        self.completion = completion
        state = Mutex(State(headers: headers))
    }

    /// Sends the request for `url`, unless a header could not be sent as it is (a name that is
    /// not a token, a value with CR, LF or NUL, which would end the line early and let what
    /// follows pass for more headers): the fetch then fails at once, for good.
    func start(_ url: URL) {
        let headers = state.withLock { $0.headers }
        if let bad = headers.first(where: { !WireCheck.isToken($0.name) || !WireCheck.isFieldValue($0.value) }) {
            end(.failed(BulkAttemptFailure(reason: "the header \"\(bad.name)\" cannot be sent: a name must be a token, and a value "
                                               + "holds no CR, LF or NUL", isRetryable: false)))
            return
        }
        send(url.absoluteString)
    }

    /// Ends the fetch: its transfer is cancelled, a redirect not yet sent is not sent, and
    /// it ends `.cancelled` (unless it ended already).
    func cancel() {
        let transfer = state.withLock { state -> Transfer? in
            state.cancelled = true
            return state.transfer
        }
        if let transfer { transport.loop.send(.cancel(transfer)) }
    }

    private func send(_ url: String) {
        guard let hostKey = WireCheck.webOriginKey(of: url) else {
            end(.failed(BulkAttemptFailure(reason: "only http and https URLs are fetched, not \(url)", isRetryable: false)))
            return
        }
        let headers = state.withLock { state -> HTTPHeaders in
            if !state.hostKey.isEmpty && state.hostKey != hostKey {
                // Another origin: what was meant for the first one stays behind.
                for name in ["Authorization", "Proxy-Authorization", "Cookie"] { state.headers.remove(name: name) }
            }
            state.hostKey = hostKey
            return state.headers
        }
        // The caller's Cookie joins the cookie jar's on one line (CURLOPT_COOKIE), as RFC 6265
        // asks: as a header line of its own, libcurl would send the jar's beside it.
        var listed = headers
        var cookie = headers.value(for: "Cookie")
        if cookie != nil { listed.remove(name: "Cookie") }
        let additions = policy?.additions(for: url, hostKey: hostKey, hasAuthorization: headers.value(for: "Authorization") != nil)
        if let authorization = additions?.authorization { listed.update(name: "Authorization", value: authorization) }
        if let fromFile = additions?.cookie { cookie = cookie.map { $0 + "; " + fromFile } ?? fromFile }
        let description = TransferDescription(url: url, hostKey: hostKey, method: "GET",
                                              headers: transport.headerList(listed), body: nil,
                                              idleTimeout: transport.idleTimeout, verboseLogger: nil, priorKnowledge: false)
        if let cookie { description.cookieHeader = cookie }
        description.proxy = additions?.proxy
        description.noProxy = additions?.noProxy
        let makeSink = makeSink
        let loop = transport.loop
        description.makeSink = { transfer in
            // Weak: the transfer owns its sink, which must not keep the transfer alive.
            makeSink { [weak transfer] in
                guard let transfer else { return }
                loop.send(.drained(transfer))
            }
        }
        // The end is judged on the loop thread: it takes a lock, reads the head and resumes
        // the file's task (or queues a redirect's transfer), and never blocks.
        description.deliversOnLoopThread = true
        let transfer = Transfer(description, deliveryQueue: transport.deliveryQueue, owner: self)
        let cancelled = state.withLock { state -> Bool in
            if !state.cancelled { state.transfer = transfer }
            return state.cancelled
        }
        guard !cancelled else {
            end(.cancelled)
            return
        }
        loop.send(.add(transfer))
    }

    /// The engine's news that the current transfer ended (loop thread).
    func transferDidFinish(_ transfer: Transfer, outcome: TransferOutcome) {
        let cancelled = state.withLock { state -> Bool in
            state.transfer = nil
            return state.cancelled
        }
        if cancelled {
            end(.cancelled)
            return
        }
        if let error = outcome.error {
            end(.failed(BulkRetryRule.failure(for: error)))
            return
        }
        guard let head = outcome.head else {
            end(.failed(BulkAttemptFailure(reason: "the server sent no response", isRetryable: true)))
            return
        }
        if ResponseHead.isFollowedRedirect(status: head.statusCode), let target = head.redirectURL {
            let tooMany = state.withLock { state -> Bool in
                state.redirects += 1
                return state.redirects > Self.maximumRedirects
            }
            guard !tooMany else {
                end(.failed(BulkAttemptFailure(reason: "more than \(Self.maximumRedirects) redirects", isRetryable: false)))
                return
            }
            send(target)
            return
        }
        end((200..<300).contains(head.statusCode) ? .answered(head) : .refused(head))
    }

    /// Calls the completion, once.
    private func end(_ ending: Ending) {
        let first = state.withLock { state -> Bool in
            defer { state.finished = true }
            return !state.finished
        }
        if first { completion(ending) }
    }
}
