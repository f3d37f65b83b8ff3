import Foundation
import Synchronization
internal import CCurl
#if canImport(Glibc)
import Glibc
#endif

/// A thread that owns one libcurl multi handle and runs every transfer given to it.
///
/// Other threads never touch a curl handle: they post commands, and the loop is woken
/// (`curl_multi_wakeup`) only when it sleeps and its command list goes from empty to
/// non-empty, so a busy loop costs submitters a lock and an append. Finished transfers are
/// handed to their delivery queues in batches, one `async` per queue per loop turn.
///
/// A `Session` uses one loop today; the type keeps no global state, so a session could
/// later spread hosts over several loops on machines with many cores.
package final class EventLoop: @unchecked Sendable { // `inbox` is a Mutex; everything else is loop-thread only
    // `@unchecked Sendable`: `inbox` is behind its Mutex; every other stored property is
    // touched only on the loop thread (`run()` and what it calls), except `thread`, which
    // is written before the loop thread starts and read by `shutdown` after that.

    package enum Command {
        case add(Transfer)
        case cancel(Transfer)
        case pause(Transfer)
        case resume(Transfer)
        /// A stream's consumer caught up, or an upload's stream has bytes again: continue a
        /// transfer its sink or its body source paused, unless the user suspended it.
        case drained(Transfer)
        /// The request's `onHTTPResponse` handlers have all seen the response and allowed it:
        /// continue a transfer held for them, unless the user suspended it.
        case release(Transfer)
        case shutdown(CurlError)
    }

    private struct Inbox {
        package var commands: [Command] = []
        package var sleeping = false
        package var wakeSent = false
        package var closed = false
    }

    private let inbox = Mutex(Inbox())
    private let multi: UnsafeMutableRawPointer
    private var thread: pthread_t?
    package let options: EngineOptions
    /// Transfers that began with a reset and a full configuration of their handle (the rest
    /// took the plain-GET fast path); read by tests.
    package let fullConfigurations = Atomic<Int>(0)

    // Loop-thread state: one thread, no overlapping accesses, so no runtime exclusivity
    // checks (`@exclusivity(unchecked)`), which cost ~80 instructions per access.
    @exclusivity(unchecked) private var pool: [CurlEasy] = []
    @exclusivity(unchecked) private var hostQueue: HostQueue<Transfer>
    /// The running transfers, each knowing its slot (`Transfer.activeSlot`), so adding and
    /// removing one hashes nothing.
    @exclusivity(unchecked) private var active: [Transfer] = []
    /// For each h2c host, the number of the prior-knowledge connection its transfers multiplex
    /// onto (libcurl < 8; see `begin`): opened, or being opened, by one transfer. Numbered so
    /// that news of a lost connection forgets only that one, never a newer one opened since.
    @exclusivity(unchecked) private var priorKnowledgeOpenings: [Substring: UInt64] = [:]
    /// The entry of `priorKnowledgeOpenings` asked about last: an h2c session talking to one
    /// host compares its key instead of hashing it for every request.
    @exclusivity(unchecked) private var lastPriorKnowledgeOpening: (host: Substring, number: UInt64)?
    @exclusivity(unchecked) private var priorKnowledgeOpeningsCounted: UInt64 = 0
    /// Running transfers the host queue sent first to hosts whose protocol is unknown: the
    /// version of their answer, once it starts, lets the host's other transfers go.
    @exclusivity(unchecked) private var protocolProbes: [Transfer] = []
    /// Transfers the host queue sent to see whether the server's stream limit stops them
    /// (`HostQueue.settle`); settled after the next `curl_multi_perform`, which tries to
    /// attach them to a connection.
    @exclusivity(unchecked) private var streamProbes: [Transfer] = []
    @exclusivity(unchecked) private var deliveries: [(queue: DispatchQueue, transfers: [Transfer])] = []
    /// Finished transfers whose owners are told on this thread (`deliversOnLoopThread`).
    @exclusivity(unchecked) private var loopDeliveries: [Transfer] = []
    @exclusivity(unchecked) private var shutdownError: CurlError?
    /// When (uptime, ns) the loop next looks for quiet transfers (`nudgeQuietTransfers`).
    @exclusivity(unchecked) private var nextWatch: UInt64 = 0
    /// Until when (uptime, ns) the loop polls briefly after an unpause; 0 when it does not.
    @exclusivity(unchecked) private var briskUntil: UInt64 = 0
    @exclusivity(unchecked) private var multiFailures = MultiCallFailures()
    /// Hand-outs left after which the loop sleeps without lingering (`lingerBeforeSleeping`).
    @exclusivity(unchecked) private var lingerSkipsLeft: UInt32 = 0
    /// How many hand-outs the last linger that missed made the loop skip; 0 after a hit.
    @exclusivity(unchecked) private var lingerMisses: UInt32 = 0
    private let curl = CurlVersion.current
    /// The session's cookie jar and TLS sessions, for transfers that use cookies. Only the
    /// loop thread uses it, so it needs no lock callbacks.
    private let cookieShare: UnsafeMutableRawPointer?
    /// The session's TLS sessions, for transfers that must not see the cookie jar: a new
    /// connection to a server this session spoke to resumes the TLS session instead of a
    /// full handshake.
    private let sessionShare: UnsafeMutableRawPointer?
    /// The CA store the session's verified HTTPS transfers use (`TLSTrustStore`), with a
    /// reference of the loop's own, and when it was last asked for (uptime, ns).
    @exclusivity(unchecked) private var trustStore: (store: UnsafeMutableRawPointer?, askedAt: UInt64)?
    private let trustSource: TLSTrustStore.Source?

    package static let cancelledError = CurlError(code: Int(CURLE_ABORTED_BY_CALLBACK.rawValue), message: "cancelled")

    package init(options: EngineOptions) {
        CurlGlobal.ensureInitialized()
        self.options = options
        guard let multi = curl_multi_init() else { fatalError("Salvo: curl_multi_init failed (out of memory)") }
        self.multi = multi
        hostQueue = HostQueue(connectionsPerHost: options.maximumConnectionsPerHost,
                              totalLimit: options.maximumConnections,
                              streamsPerConnection: options.maximumStreamsPerConnection, probesStreamLimits: true)
        cookieShare = options.cookies ? Self.makeShare(cookies: true) : nil
        sessionShare = Self.makeShare(cookies: false)
        if options.validatesCertificates {
            trustSource = options.caBundlePath.map { TLSTrustStore.Source(file: $0, directory: options.caDirectoryPath) } ?? TLSTrustStore.libcurlDefaults
        } else {
            trustSource = nil
        }
        CurlCheck.multi(salvo_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX)), CURLMOPT_PIPELINING.rawValue)
        CurlCheck.multi(salvo_multi_setopt_long(multi, CURLMOPT_MAXCONNECTS, Self.connectionCacheSize(options)), CURLMOPT_MAXCONNECTS.rawValue)
        CurlCheck.multi(salvo_multi_setopt_long(multi, CURLMOPT_MAX_CONCURRENT_STREAMS, options.maximumStreamsPerConnection),
                        CURLMOPT_MAX_CONCURRENT_STREAMS.rawValue)
        start()
    }

    deinit {
        curl_multi_cleanup(multi)
        if let cookieShare { curl_share_cleanup(cookieShare) }
        if let sessionShare { curl_share_cleanup(sessionShare) }
        if let store = trustStore?.store { TLSTrustStore.release(store) }
    }

    /// A share of TLS sessions, and of cookies when asked; `nil` when libcurl cannot make one.
    private static func makeShare(cookies: Bool) -> UnsafeMutableRawPointer? {
        guard let share = curl_share_init() else { return nil }
        if cookies {
            CurlCheck.share(salvo_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_COOKIE.rawValue)), CURLSHOPT_SHARE.rawValue)
        }
        CurlCheck.share(salvo_share_setopt_long(share, CURLSHOPT_SHARE, Int(CURL_LOCK_DATA_SSL_SESSION.rawValue)), CURLSHOPT_SHARE.rawValue)
        return share
    }

    /// How many idle connections libcurl keeps for reuse (`CURLMOPT_MAXCONNECTS`).
    ///
    /// libcurl's default is four times the transfers *currently added* to the multi handle.
    /// A transfer's handle is removed as soon as it ends and the next one is added only
    /// after its owner has been told, so that count dips between requests and libcurl
    /// closed idle connections it needed a moment later (over TLS each one a new
    /// handshake). The cache instead holds every connection the session's limits let it
    /// open at once: the total limit when there is one, else the per-host limit for up to
    /// `connectionCacheHosts` hosts, else `connectionCacheUnlimited`. libcurl still closes
    /// a connection idle for 118 s, or one the server closed.
    package static func connectionCacheSize(_ options: EngineOptions) -> Int {
        if options.maximumConnections > 0 { return options.maximumConnections }
        if options.maximumConnectionsPerHost > 0 {
            return min(options.maximumConnectionsPerHost * connectionCacheHosts, connectionCacheCeiling)
        }
        return connectionCacheUnlimited
    }

    /// Hosts whose connections the cache keeps when only the per-host limit is set.
    package static let connectionCacheHosts = 32
    /// The cache's size when the session sets no limit at all.
    package static let connectionCacheUnlimited = 1024
    /// The most connections the cache keeps, whatever the limits (each is a descriptor).
    package static let connectionCacheCeiling = 16384

    /// The CA store for a verified HTTPS transfer, asked of `TLSTrustStore` at most once a
    /// second (which looks at the files at most every few seconds); `nil` when libcurl loads
    /// the certificates itself.
    private func currentTrustStore(now: UInt64) -> UnsafeMutableRawPointer? {
        guard let trustSource else { return nil }
        if let trustStore, now &- trustStore.askedAt < 1_000_000_000 { return trustStore.store }
        let store = TLSTrustStore.shared.retainedStore(for: trustSource, now: now)
        if let old = trustStore?.store { TLSTrustStore.release(old) }
        trustStore = (store, now)
        return store
    }

    /// The store `transfer` verifies its server against, if it is a verified HTTPS transfer
    /// that trusts the session's anchors.
    private func trustStore(for transfer: Transfer, now: UInt64) -> UnsafeMutableRawPointer? {
        guard transfer.isHTTPS else { return nil }
        if let trust = transfer.trust, !trust.verifiesChain || trust.anchorsPEM != nil { return nil }
        return currentTrustStore(now: now)
    }

    private func start() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { context in
            let loop = Unmanaged<EventLoop>.fromOpaque(context!).takeRetainedValue()
            loop.run()
            return nil
        }, context)
        precondition(status == 0, "Salvo could not start its event loop thread (\(status))")
        self.thread = thread
    }

    // MARK: Commands (any thread)

    /// Posts a command. After shutdown, an `add` fails at once with the shutdown error.
    package func send(_ command: Command) {
        let (wake, rejected) = inbox.withLock { inbox -> (Bool, Bool) in
            if inbox.closed { return (false, true) }
            inbox.commands.append(command)
            if inbox.sleeping && !inbox.wakeSent {
                inbox.wakeSent = true
                return (true, false)
            }
            return (false, false)
        }
        if wake { curl_multi_wakeup(multi) }
        if rejected, case let .add(transfer) = command {
            transfer.outcome = TransferOutcome(head: nil, body: Data(), error: Self.cancelledError, metrics: TransferMetrics())
            transfer.deliveryQueue.async { transfer.deliver() }
        }
    }

    /// Fails every transfer with `error`, stops the thread and waits for it. Called on the
    /// loop thread (an owner told there dropped the last reference to what owns the loop), it
    /// cannot wait for itself: the thread is detached instead, and its resources go when it
    /// ends, after this turn.
    package func shutdown(error: CurlError) {
        send(.shutdown(error))
        guard let thread else { return }
        if pthread_equal(thread, pthread_self()) == 0 {
            pthread_join(thread, nil)
        } else {
            pthread_detach(thread)
        }
    }

    // MARK: The loop (loop thread)

    private func run() {
        var stillRunning: Int32 = 0
        var messagesLeft: Int32 = 0
        // Two lists swapped under the lock, so neither is ever copied or reallocated.
        var commands: [Command] = []
        commands.reserveCapacity(64)
        while true {
            inbox.withLock { swap(&$0.commands, &commands) }
            for command in commands { handle(command) }
            commands.removeAll(keepingCapacity: true)
            if let shutdownError {
                failEverything(with: shutdownError)
                flushDeliveries()
                break
            }

            let performed = curl_multi_perform(multi, &stillRunning)
            if performed != CURLM_OK { report("curl_multi_perform", performed) }
            while let message = curl_multi_info_read(multi, &messagesLeft) {
                guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle else { continue }
                finish(handle: handle, code: message.pointee.data.result)
            }
            if !protocolProbes.isEmpty || !streamProbes.isEmpty { settleProbes() }
            if !active.isEmpty {
                let now = DispatchTime.now().uptimeNanoseconds
                if now >= nextWatch { nextWatch = watch(now: now) }
            }
            // After the watch: a transfer it ended is handed over in this turn, not after the
            // next poll (up to a second later when it was the last one running).
            if flushDeliveries() && lingerBeforeSleeping() { continue }

            let maySleep = inbox.withLock { inbox -> Bool in
                guard inbox.commands.isEmpty else { return false }
                inbox.sleeping = true
                return true
            }
            if maySleep {
                var descriptors: Int32 = 0
                let polled = curl_multi_poll(multi, nil, 0, pollTimeout(), &descriptors)
                if polled != CURLM_OK {
                    report("curl_multi_poll", polled)
                    // It returned without waiting: without a pause the loop would spin.
                    usleep(10_000)
                }
                inbox.withLock { inbox in
                    inbox.sleeping = false
                    inbox.wakeSent = false
                }
            }
        }
        pool.removeAll()
    }

    /// Writes a failed multi call's first failure to the session's verbose logger, or else to
    /// standard error: nothing else would ever say why the loop misbehaves.
    private func report(_ call: String, _ code: CURLMcode) {
        guard let line = multiFailures.record(call, code: Int32(code.rawValue)) else { return }
        if let logger = options.verboseLogger {
            logger(line)
        } else {
            let text = line + "\n"
            _ = text.withCString { write(STDERR_FILENO, $0, strlen($0)) }
        }
    }

    private func handle(_ command: Command) {
        switch command {
        case let .add(transfer):
            guard transfer.phase == .created else { return }
            // On libcurl < 8 an h2c host must be served by the one prior-knowledge connection.
            let single = transfer.priorKnowledge && !curl.reusesPriorKnowledgeConnections
            // Over HTTPS, ALPN may choose HTTP/2, unless the session speaks HTTP/1.1 only.
            let mayMultiplex = transfer.isHTTPS && options.httpVersion != .http1_1
            if hostQueue.admit(transfer, host: transfer.hostKey, singleConnection: single, mayMultiplex: mayMultiplex) {
                begin(transfer)
            } else {
                transfer.phase = .waiting
            }
        case let .cancel(transfer):
            switch transfer.phase {
            case .created:
                transfer.phase = .done
                transfer.outcome = TransferOutcome(head: nil, body: Data(), error: Self.cancelledError, metrics: TransferMetrics())
                enqueueDelivery(transfer)
            case .waiting:
                _ = hostQueue.remove(transfer, host: transfer.hostKey)
                transfer.phase = .done
                transfer.outcome = TransferOutcome(head: nil, body: Data(), error: Self.cancelledError, metrics: TransferMetrics())
                enqueueDelivery(transfer)
            case .active:
                if let easy = transfer.easy { finish(handle: easy.handle, code: CURLE_ABORTED_BY_CALLBACK, error: Self.cancelledError) }
            case .done:
                break
            }
        case let .pause(transfer):
            transfer.holds.insert(.suspended)
            if transfer.phase == .active, let easy = transfer.easy { easy.pause() }
        case let .resume(transfer):
            transfer.holds.remove(.suspended)
            continueUnlessHeld(transfer)
        case let .drained(transfer):
            continueUnlessHeld(transfer)
        case let .release(transfer):
            guard transfer.holds.remove(.response) != nil else { return }
            continueUnlessHeld(transfer)
        case let .shutdown(error):
            shutdownError = error
            inbox.withLock { $0.closed = true }
        }
    }

    /// Continues a running transfer that the client no longer holds. A sink's own pause is
    /// not asked about: the sink wakes the transfer (`.drained`) once it can take more, and a
    /// sink that still cannot refuses the next chunk, which pauses the transfer again.
    private func continueUnlessHeld(_ transfer: Transfer) {
        if transfer.phase == .active, transfer.holds.isEmpty, let easy = transfer.easy { unpause(easy) }
    }

    /// Continues a paused transfer. libcurl 7.88 may hold an unpaused HTTP/2 stream's data
    /// (already read from the socket) without setting a timer, so nothing wakes the loop until
    /// its poll times out: for a short while after an unpause the loop polls briefly instead
    /// (measured: suspended and resumed h2c requests took ~1 s longer without it).
    private func unpause(_ easy: CurlEasy) {
        curl_easy_pause(easy.handle, SALVO_PAUSE_CONT)
        briskUntil = DispatchTime.now().uptimeNanoseconds + 200_000_000
    }

    /// The poll's timeout: 1 s with nothing running; while transfers run, until the next
    /// watch (at most 100 ms, `watchInterval`, and sooner when an idle timeout falls due);
    /// 5 ms shortly after an unpause.
    private func pollTimeout() -> Int32 {
        var idle: Int32 = 1000
        if !active.isEmpty {
            let now = DispatchTime.now().uptimeNanoseconds
            let left = nextWatch > now ? nextWatch - now : 0
            idle = Int32(min(Self.watchInterval, left + 999_999) / 1_000_000)
        }
        guard briskUntil != 0 else { return idle }
        if DispatchTime.now().uptimeNanoseconds < briskUntil { return 5 }
        briskUntil = 0
        return idle
    }

    /// How often the loop looks at quiet transfers (ns): the idle timeout fires at most this
    /// late.
    private static let watchInterval: UInt64 = 100_000_000
    /// How long a transfer must be quiet before its first nudge (ns).
    private static let firstNudge: UInt64 = 250_000_000
    static let idleTimeoutCode = CURLE_OPERATION_TIMEDOUT

    /// Ends transfers that moved no byte for their idle timeout, and nudges the others that
    /// were quiet for a while, at 0.25, 0.5, 1, 2 ... s of quiet.
    ///
    /// The idle timeout is URLSession's: no byte in either direction (header bytes count)
    /// for `timeoutInterval`, measured here rather than by libcurl's low-speed check, which
    /// averages over whole seconds. A transfer the client holds (suspended, held for
    /// `onHTTPResponse` handlers, a stream consumer that lags) is not the server's silence,
    /// and starts a new quiet stretch when let go. An upload stream with nothing to send
    /// does count, as a stalled body stream does with URLSession.
    ///
    /// Returns when to watch next: in `watchInterval`, or when the first idle timeout of a
    /// quiet transfer falls due, if sooner.
    ///
    /// Nudges: libcurl 7.88 can keep input it already read for an HTTP/2 connection without
    /// handing it to the streams it is for: when streams on the connection are paused and
    /// cancelled (measured: h2c requests suspended, then resumed or cancelled), the last
    /// resumed streams got their headers but not their bodies, with nothing left in the
    /// socket, so no socket event ever came. libcurl makes a transfer read only when its
    /// socket is readable or it is told to; an unpause tells it to. A nudge is a pause and an
    /// unpause in one loop turn. Only HTTP/2 transfers (prior knowledge, or a version libcurl
    /// reports) get them: an unpause makes libcurl 7.88 try to send whether or not the socket
    /// can take bytes, and each nudge of an HTTP/1.1 upload to a server that stopped reading
    /// pushed more of the body into the socket's buffer, which counted as bytes moved and put
    /// the idle timeout off (measured: 12 s instead of 2).
    private func watch(now: UInt64) -> UInt64 {
        var next = now &+ Self.watchInterval
        var expired: [Transfer] = []
        for transfer in active {
            guard let easy = transfer.easy else { continue }
            let moved = easy.getOffset(CURLINFO_SIZE_DOWNLOAD_T) &+ easy.getOffset(CURLINFO_SIZE_UPLOAD_T)
                &+ Int64(easy.headerBlock.pointee.bytes_seen)
            if moved != transfer.watchedBytes || transfer.isHeld {
                transfer.watchedBytes = moved
                transfer.quietSince = now
                transfer.nudgeAfter = Self.firstNudge
                if transfer.idleTimeoutNanoseconds > 0 { next = min(next, now &+ transfer.idleTimeoutNanoseconds) }
                continue
            }
            let quiet = now &- transfer.quietSince
            if transfer.idleTimeoutNanoseconds > 0 && quiet >= transfer.idleTimeoutNanoseconds {
                expired.append(transfer)
                continue
            }
            if transfer.idleTimeoutNanoseconds > 0 { next = min(next, transfer.quietSince &+ transfer.idleTimeoutNanoseconds) }
            if quiet >= transfer.nudgeAfter {
                transfer.nudgeAfter &*= 2
                // libcurl reports a version only once a response began. A stream stalled before
                // its headers came is nudged when it asked for prior knowledge and has no body
                // to push (through a proxy, or after a fallback, it may be HTTP/1.1); once a
                // version is reported, only HTTP/2 is.
                let version = easy.getLong(CURLINFO_HTTP_VERSION)
                if version == Int(CURL_HTTP_VERSION_2_0)
                    || version == 0 && transfer.priorKnowledge && transfer.body == nil && transfer.bodySource == nil {
                    easy.pause()
                    curl_easy_pause(easy.handle, SALVO_PAUSE_CONT)
                }
            }
        }
        for transfer in expired {
            guard let easy = transfer.easy else { continue }
            let error = CurlError(code: Int(Self.idleTimeoutCode.rawValue),
                                  message: "no bytes moved for \(transfer.idleTimeout) s (the request's timeoutInterval)")
            finish(handle: easy.handle, code: Self.idleTimeoutCode, error: error)
        }
        return next
    }

    private func begin(_ transfer: Transfer) {
        let easy = pool.popLast() ?? CurlEasy()
        guard let easy else {
            fail(transfer, CurlError(code: Int(CURLE_OUT_OF_MEMORY.rawValue), message: "could not create a curl handle"))
            return
        }
        var usePriorKnowledge = transfer.priorKnowledge
        if usePriorKnowledge && !curl.reusesPriorKnowledgeConnections {
            // Only the transfer that opens the h2c connection may ask for prior knowledge on
            // libcurl < 8.0; the rest ask for HTTP/2 and wait to multiplex onto it. A second
            // prior-knowledge transfer while the connection exists gets no stream at all and
            // later fails with "Error in the HTTP2 framing layer" (measured with 7.88).
            usePriorKnowledge = false
            if let last = lastPriorKnowledgeOpening, last.host == transfer.hostKey {
                transfer.priorKnowledgeOpening = last.number
            } else if let number = priorKnowledgeOpenings[transfer.hostKey] {
                transfer.priorKnowledgeOpening = number
                lastPriorKnowledgeOpening = (transfer.hostKey, number)
            } else {
                priorKnowledgeOpeningsCounted &+= 1
                let number = priorKnowledgeOpeningsCounted
                priorKnowledgeOpenings[transfer.hostKey] = number
                lastPriorKnowledgeOpening = (transfer.hostKey, number)
                transfer.priorKnowledgeOpening = number
                transfer.opensPriorKnowledgeConnection = true
                usePriorKnowledge = true
            }
        }
        transfer.easy = easy
        transfer.phase = .active
        if transfer.sink == nil {
            if options.maximumResponseBodySize > 0 { transfer.bodyLimit = options.maximumResponseBodySize }
        } else if options.maximumStreamedBodySize > 0 && transfer.sink is ResponseStreamSink {
            transfer.bodyLimit = options.maximumStreamedBodySize
        }
        // The idle timeout counts from here: time spent waiting in the host queue is not the
        // server's silence.
        transfer.watchedBytes = 0
        transfer.quietSince = DispatchTime.now().uptimeNanoseconds
        transfer.nudgeAfter = Self.firstNudge
        if let pump = transfer.bodySource?.streamPump {
            pump.setOnReadable { [weak self, weak transfer] in
                guard let self, let transfer else { return }
                self.send(.drained(transfer))
            }
            pump.start()
        }
        let context = Unmanaged.passRetained(transfer).toOpaque()
        let share = transfer.usesCookies ? cookieShare ?? sessionShare : sessionShare
        let store = trustStore(for: transfer, now: transfer.quietSince)
        if easy.configure(for: transfer, options: options, context: context, priorKnowledge: usePriorKnowledge,
                          share: share, shareHasCookies: share != nil && share == cookieShare, trustStore: store) {
            fullConfigurations.add(1, ordering: .relaxed)
        }
        transfer.activeSlot = active.count
        active.append(transfer)
        switch transfer.hostProbe {
        case .none: break
        case .protocolProbe: protocolProbes.append(transfer)
        case .streamProbe: streamProbes.append(transfer)
        }
        let status = curl_multi_add_handle(multi, easy.handle)
        if status != CURLM_OK {
            finish(handle: easy.handle, code: CURLE_FAILED_INIT,
                   error: CurlError(code: Int(CURLE_FAILED_INIT.rawValue), message: String(cString: curl_multi_strerror(status))))
        } else if !transfer.holds.isEmpty {
            easy.pause()
        }
    }

    /// Tells the host queue what the probes found: the protocol of a host, as its first
    /// handshake's ALPN (or else its first answer) told it, and whether a stream probe joined
    /// its host's connection or met the server's stream limit (libcurl names the limit in the
    /// text it logs as it opens another connection; 7.88 offers no other way to read it).
    /// Starts what may start now.
    ///
    /// A probe that joined counts only once an answer came from its host (its own or
    /// another's). Until libcurl has read the server's SETTINGS, which come before any
    /// answer, it takes the connection to allow 100 streams: probes settled as they joined
    /// could prove, one loop turn each, more streams than the server allows, and the transfers
    /// let go on that proof then found the connection full and opened connections of their
    /// own (9 to 14 against a 4-stream server, in about one run of ten).
    private func settleProbes() {
        var ready: [Transfer] = []
        if !streamProbes.isEmpty {
            var index = 0
            while index < streamProbes.count {
                let probe = streamProbes[index]
                let result: HostQueue<Transfer>.StreamProbeResult
                if let limit = probe.observedStreamLimit {
                    result = .limited(limit)
                } else if probe.sawStatusLine || hostQueue.hasAnswered(probe.hostKey) {
                    result = .joined
                } else if probe.phase != .active {
                    result = .inconclusive
                } else {
                    index += 1
                    continue
                }
                streamProbes.remove(at: index)
                ready += hostQueue.settle(host: probe.hostKey, result)
            }
        }
        var index = 0
        while index < protocolProbes.count {
            let probe = protocolProbes[index]
            guard probe.phase == .active, let easy = probe.easy else {
                // Finished: `finish` told the queue what its answer said.
                protocolProbes.remove(at: index)
                continue
            }
            // ALPN's choice, logged right after the handshake; else the answer's version.
            var multiplexed = probe.observedHTTP2
            if multiplexed == nil {
                let version = easy.getLong(CURLINFO_HTTP_VERSION)
                if version != 0 { multiplexed = version == Int(CURL_HTTP_VERSION_2_0) }
            }
            guard let multiplexed else {
                index += 1
                continue
            }
            protocolProbes.remove(at: index)
            ready += hostQueue.learn(host: probe.hostKey, multiplexed: multiplexed)
        }
        for next in ready { begin(next) }
    }

    private func finish(handle: UnsafeMutableRawPointer, code: CURLcode, error: CurlError? = nil) {
        var contextPointer: UnsafeMutableRawPointer?
        CurlCheck.easy(salvo_easy_getinfo_ptr(handle, CURLINFO_PRIVATE, &contextPointer), "curl_easy_getinfo", CURLINFO_PRIVATE.rawValue)
        guard let contextPointer else { return }
        let transfer = Unmanaged<Transfer>.fromOpaque(contextPointer).takeRetainedValue()
        guard let easy = transfer.easy else { return }
        if error == nil, code == CURLE_UNSUPPORTED_PROTOCOL, sendsAgainWithPriorKnowledge(transfer, easy) { return }

        let outcome = easy.outcome(of: transfer, code: code, error: error)
        if code == CURLE_OK && error == nil && transfer.progress != nil { easy.reportFinalProgress(of: transfer) }
        if error != nil {
            // Ended here (a cancel) while libcurl may hold body bytes it buffered for a paused
            // transfer: libcurl 7.88 frees them only when the connection is not shared, so on
            // HTTP/2 they stayed with the handle and the next transfer's unpause delivered them
            // as its own body. Unpausing now hands them to this transfer, which drops them.
            transfer.discardsInput = true
            curl_easy_pause(handle, SALVO_PAUSE_CONT)
        }
        curl_multi_remove_handle(multi, handle)
        transfer.easy = nil
        transfer.phase = .done
        // After a failure, a transfer that opened a connection or one whose request libcurl
        // sent again (a reused connection found dead), the handle starts its next transfer
        // from a reset: libcurl counts those re-sends in a per-handle counter that only
        // curl_easy_reset clears, and fails the transfer on the sixth.
        if code != CURLE_OK || !outcome.metrics.connectionReused || easy.requestWasResent { easy.plainProfile = nil }
        removeFromActive(transfer)
        pool.append(easy)

        let multiplexed = outcome.metrics.isHTTP2
        let answered = outcome.head != nil
        // The transfer that was to open the host's h2c connection ended (cancelled or timed
        // out) before its request went out: the connection may never have come up, so the
        // next transfer opens one. Once the request went out the connection speaks HTTP/2 and
        // outlives this stream, carrying the others (libcurl keeps a multiplexed connection
        // when one of its transfers ends early); opening a second one would break them.
        let lostConnection = transfer.priorKnowledge && !multiplexed && Self.lostPriorKnowledgeConnection(outcome)
            || transfer.opensPriorKnowledgeConnection && !answered && outcome.metrics.preTransfer == 0
        // Moved, not copied: the outcome holds a dozen references.
        transfer.outcome = consume outcome
        if lostConnection {
            // The h2c connection is gone (or never came up): the next transfer opens one with
            // prior knowledge. Otherwise a cancelled or timed-out stream says nothing about the
            // connection, which may still carry others, so it leaves the host as it is.
            forgetPriorKnowledgeConnection(of: transfer)
        }
        enqueueDelivery(transfer)
        for next in hostQueue.finish(host: transfer.hostKey, multiplexed: answered ? multiplexed : nil) {
            begin(next)
        }
    }

    /// Takes a transfer out of the running list: the last one moves into its slot.
    private func removeFromActive(_ transfer: Transfer) {
        let last = active.removeLast()
        if last !== transfer {
            active[transfer.activeSlot] = last
            last.activeSlot = transfer.activeSlot
        }
    }

    /// An h2c transfer that asked for HTTP/2 without prior knowledge (libcurl < 8: all but the
    /// one opening the host's connection) found no connection to multiplex onto, when the one
    /// it waited for was cancelled or closed: libcurl then spoke HTTP/1.1 to a server that
    /// speaks only h2c, and read its answer as "HTTP/0.9". The server took no request, so the
    /// transfer goes again: it opens a connection with prior knowledge, or, when another
    /// transfer has opened one since, waits to multiplex onto that. A few times at most, each
    /// for a connection that vanished. Returns whether it did.
    private func sendsAgainWithPriorKnowledge(_ transfer: Transfer, _ easy: CurlEasy) -> Bool {
        // A body source is read again from its start, if it can be (a stream cannot).
        // An opener is not sent again: the server does not speak h2c.
        guard transfer.priorKnowledge, !transfer.opensPriorKnowledgeConnection,
              transfer.priorKnowledgeResends < Self.maximumPriorKnowledgeResends,
              easy.getLong(CURLINFO_RESPONSE_CODE) == 0, transfer.bodySource?.rewind() ?? true else { return false }
        transfer.priorKnowledgeResends += 1
        curl_multi_remove_handle(multi, easy.handle)
        easy.plainProfile = nil
        transfer.easy = nil
        removeFromActive(transfer)
        pool.append(easy)
        forgetPriorKnowledgeConnection(of: transfer)
        begin(transfer)
        return true
    }

    private static let maximumPriorKnowledgeResends = 3

    /// The h2c connection `transfer` opened or waited for is gone: unless another has been
    /// opened since, the host's next transfer opens one.
    private func forgetPriorKnowledgeConnection(of transfer: Transfer) {
        guard priorKnowledgeOpenings[transfer.hostKey] == transfer.priorKnowledgeOpening else { return }
        priorKnowledgeOpenings[transfer.hostKey] = nil
        if lastPriorKnowledgeOpening?.host == transfer.hostKey { lastPriorKnowledgeOpening = nil }
    }

    /// Whether an h2c transfer's end shows its host has no usable prior-knowledge connection:
    /// it was answered without HTTP/2, or it failed in a way that ends a connection.
    private static func lostPriorKnowledgeConnection(_ outcome: TransferOutcome) -> Bool {
        if outcome.head != nil { return true }
        guard let code = outcome.error?.code else { return false }
        let connectionLevel: [CURLcode] = [
            CURLE_HTTP2, CURLE_GOT_NOTHING, CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_WEIRD_SERVER_REPLY,
            CURLE_UNSUPPORTED_PROTOCOL, CURLE_COULDNT_CONNECT, CURLE_PARTIAL_FILE,
        ]
        return connectionLevel.contains { Int($0.rawValue) == code }
    }

    private func fail(_ transfer: Transfer, _ error: CurlError) {
        transfer.phase = .done
        transfer.outcome = TransferOutcome(head: nil, body: Data(), error: error, metrics: TransferMetrics())
        enqueueDelivery(transfer)
        for next in hostQueue.finish(host: transfer.hostKey) { begin(next) }
    }

    private func failEverything(with error: CurlError) {
        for transfer in hostQueue.removeAllWaiting() {
            transfer.phase = .done
            transfer.outcome = TransferOutcome(head: nil, body: Data(), error: error, metrics: TransferMetrics())
            enqueueDelivery(transfer)
        }
        for transfer in active {
            if let easy = transfer.easy { finish(handle: easy.handle, code: CURLE_ABORTED_BY_CALLBACK, error: error) }
        }
        let late = inbox.withLock { inbox -> [Command] in
            defer { inbox.commands.removeAll() }
            return inbox.commands
        }
        for case let .add(transfer) in late where transfer.phase == .created {
            transfer.phase = .done
            transfer.outcome = TransferOutcome(head: nil, body: Data(), error: error, metrics: TransferMetrics())
            enqueueDelivery(transfer)
        }
    }

    // MARK: Delivery

    private func enqueueDelivery(_ transfer: Transfer) {
        if transfer.deliversOnLoopThread {
            loopDeliveries.append(transfer)
            return
        }
        let queue = transfer.deliveryQueue
        for index in deliveries.indices where deliveries[index].queue === queue {
            deliveries[index].transfers.append(transfer)
            return
        }
        deliveries.append((queue, [transfer]))
    }

    /// Hands the finished transfers to their queues; whether there were any.
    @discardableResult
    private func flushDeliveries() -> Bool {
        guard !deliveries.isEmpty || !loopDeliveries.isEmpty else { return false }
        // An owner told here may start its next transfer (a redirect), which only queues a
        // command for the next turn.
        for transfer in loopDeliveries { transfer.deliver() }
        loopDeliveries.removeAll(keepingCapacity: true)
        for (queue, transfers) in deliveries {
            if transfers.count == 1 {
                let transfer = transfers[0]
                queue.async { transfer.deliver() }
            } else {
                queue.async { for transfer in transfers { transfer.deliver() } }
            }
        }
        deliveries.removeAll(keepingCapacity: true)
        return true
    }

    /// How long the loop stays awake after handing out finished transfers (ns).
    private static let lingerTime: UInt64 = 50_000
    /// The most hand-outs the loop goes straight to sleep after, once lingering kept missing.
    private static let maximumLingerSkips: UInt32 = 256

    /// Stays awake a little after handing out finished transfers, polling without waiting:
    /// their handlers often send the next requests within microseconds, and responses to the
    /// others arrive meanwhile. Sleeping at once would cost a context switch to go to sleep
    /// and a wake-up (`curl_multi_wakeup`) soon after. Returns true as soon as a command or a
    /// socket is ready.
    ///
    /// Only while it pays: with one request at a time the next one comes only after its
    /// handler has built the response, usually later than the linger lasts, and every spin
    /// would be CPU spent for nothing. A linger that ends empty-handed makes the loop sleep
    /// at once after the next 1, 2, 4 ... 256 hand-outs before it tries again; one that
    /// catches something makes it linger every time again.
    private func lingerBeforeSleeping() -> Bool {
        if lingerSkipsLeft > 0 {
            lingerSkipsLeft -= 1
            return false
        }
        let deadline = DispatchTime.now().uptimeNanoseconds + Self.lingerTime
        repeat {
            if inbox.withLock({ !$0.commands.isEmpty }) || pollsReady() {
                lingerMisses = 0
                return true
            }
        } while DispatchTime.now().uptimeNanoseconds < deadline
        lingerSkipsLeft = lingerMisses == 0 ? 1 : min(Self.maximumLingerSkips, lingerMisses &* 2)
        lingerMisses = lingerSkipsLeft
        return false
    }

    private func pollsReady() -> Bool {
        var descriptors: Int32 = 0
        return curl_multi_poll(multi, nil, 0, 0, &descriptors) == CURLM_OK && descriptors > 0
    }
}
