/// Salvo's own per-host admission: how many transfers run at once for each host and in all,
/// and who waits.
///
/// libcurl can queue transfers itself (`CURLMOPT_MAX_HOST_CONNECTIONS`), but a transfer in
/// its pending queue is already timing, so a burst of requests would time out while merely
/// waiting. Here a waiting transfer has not been handed to libcurl at all.
///
/// A pure value: `admit`, `finish` and `remove` return what to start, and the event loop
/// does it. Tests drive it without sockets.
///
/// HTTP/2 is kept to one connection per host, as URLSession keeps it, with the transfers
/// beyond its streams waiting here. libcurl 7.88 cannot be left to spread them: a transfer
/// that finds the connection full opens a new one, and so does every other such transfer
/// until that one's handshake is done (fixed in libcurl 8.0), so 1,024 requests at once made
/// ~800 connections. So a host that may speak HTTP/2 (HTTPS with ALPN) first gets one
/// transfer, whose answer tells its protocol (`learn`); a host known to multiplex gets a
/// connection's streams, and when asked to (`probesStreamLimits`) each step above the
/// number of streams already seen to work goes out alone as a `streamProbe`, whose
/// `settle` says whether the server's limit stopped it.
package struct HostQueue<Element: HostQueueMember> {
    /// What is known of a host's protocol; kept while the host is idle.
    private struct Knowledge {
        /// The host's protocol is known: an answer said it, or it cannot multiplex.
        var protocolKnown = false
        /// Seen to speak HTTP/2, so one connection carries many transfers.
        var multiplexed = false
        /// Streams one connection carries: Salvo's own limit, or a lower one the server set.
        var streamLimit: Int
        /// The server's limit was seen (`streamLimit` is it).
        var limitKnown = false
        /// The most transfers seen running at once without the server's limit stopping one.
        var provenStreams = 0
    }

    private struct Host {
        package var active = 0
        package var waiting: [Element] = []
        package var head = 0
        package var knowledge: Knowledge
        /// Every transfer must share one connection (h2c with prior knowledge on libcurl < 8:
        /// a second connection would be opened without it, and refused).
        package var singleConnection = false
        /// The host's transfers may speak HTTP/2 after ALPN, so its protocol is found out
        /// with one transfer before the others go.
        package var mayMultiplex = false
        /// A stream probe of this host is out and not yet settled.
        package var probeOutstanding = false
        /// An answer came from the host since it last went idle: libcurl has read the
        /// server's SETTINGS, which come first, so a probe that joins now joined under the
        /// server's stream limit.
        package var answered = false

        package var waitingCount: Int { waiting.count - head }
        package var isIdle: Bool { active == 0 && waitingCount == 0 }

        package mutating func popFirst() -> Element? {
            guard head < waiting.count else { return nil }
            let element = waiting[head]
            head += 1
            if head > 32 && head * 2 > waiting.count {
                waiting.removeFirst(head)
                head = 0
            }
            return element
        }
    }

    private var hosts: [Substring: Host] = [:]
    /// What is known of idle hosts. An idle host's record is dropped, but a burst of requests
    /// after a quiet spell should still go out at once as streams of one connection, or as
    /// one connection each over HTTP/1.1, not wait for a first answer again. Bounded: it
    /// forgets everything when full.
    private var idleHosts: [Substring: Knowledge] = [:]
    private static var idleHostsLimit: Int { 1024 }
    /// The host used last, kept out of `hosts`: a session mostly talks to one host at a
    /// time, and that host's admissions and finishes then hash nothing (hashing the key
    /// cost ~350 instructions per call).
    private var recent: (key: Substring, host: Host)?
    package private(set) var totalActive = 0
    package private(set) var totalWaiting = 0

    /// The limits, fixed at creation.
    private struct Limits {
        /// Transfers per host over HTTP/1.1; 0 means no limit.
        package let connectionsPerHost: Int
        /// Transfers in all; 0 means no limit.
        package let totalLimit: Int
        /// Concurrent streams on one HTTP/2 connection, unless the server allows fewer.
        package let streamsPerConnection: Int
        /// Whether steps above the proven stream count go out alone as stream probes.
        package let probesStreamLimits: Bool
    }

    private let limits: Limits

    /// - Parameter probesStreamLimits: Whether a multiplexed host's transfers beyond the
    ///   streams already seen to work go out one at a time as stream probes (see `settle`).
    package init(connectionsPerHost: Int, totalLimit: Int, streamsPerConnection: Int = 100, probesStreamLimits: Bool = false) {
        limits = Limits(connectionsPerHost: connectionsPerHost, totalLimit: totalLimit,
                        streamsPerConnection: max(1, streamsPerConnection), probesStreamLimits: probesStreamLimits)
    }

    private func freshKnowledge() -> Knowledge {
        Knowledge(streamLimit: limits.streamsPerConnection)
    }

    // Static, taking what they read: they run while `hosts` is being changed in place, when
    // `self` cannot be read.
    private static func hasRoom(_ host: Host, _ limits: Limits, totalActive: Int) -> Bool {
        guard limits.totalLimit == 0 || totalActive < limits.totalLimit else { return false }
        if host.singleConnection { return host.active < limits.streamsPerConnection }
        let knowledge = host.knowledge
        if host.mayMultiplex && !knowledge.protocolKnown { return host.active < 1 }
        if knowledge.multiplexed {
            if host.probeOutstanding { return false }
            return host.active < knowledge.streamLimit
        }
        return limits.connectionsPerHost == 0 || host.active < limits.connectionsPerHost
    }

    /// Marks `element` as the queue starts it: a probe of its host's protocol or stream limit,
    /// or neither.
    private static func start(_ element: Element, _ host: inout Host, _ limits: Limits) {
        host.active += 1
        let knowledge = host.knowledge
        if host.mayMultiplex && !knowledge.protocolKnown && !host.singleConnection {
            element.hostProbe = .protocolProbe
        } else if limits.probesStreamLimits && knowledge.multiplexed && !knowledge.limitKnown && !host.singleConnection
                    && host.active > knowledge.provenStreams {
            element.hostProbe = .streamProbe
            host.probeOutstanding = true
        } else {
            element.hostProbe = .none
        }
    }

    /// Starts `host`'s waiting elements while there is room; returns how many started.
    private static func drain(_ host: inout Host, _ limits: Limits, totalActive: Int, into ready: inout [Element]) -> Int {
        var started = 0
        while host.waitingCount > 0 && hasRoom(host, limits, totalActive: totalActive + started), let next = host.popFirst() {
            start(next, &host, limits)
            started += 1
            ready.append(next)
        }
        return started
    }

    /// Makes `key`'s host the recent one; the one it replaces goes back to `hosts`, unless
    /// it is idle, which forgets it.
    private mutating func focus(_ key: Substring) {
        if recent?.key == key { return }
        if let old = recent.take() {
            if !old.host.isIdle {
                hosts[old.key] = old.host
            } else if old.host.knowledge.protocolKnown {
                if idleHosts.count >= Self.idleHostsLimit { idleHosts.removeAll() }
                idleHosts[old.key] = old.host.knowledge
            } else {
                idleHosts[old.key] = nil
            }
        }
        recent = (key, hosts.removeValue(forKey: key) ?? Host(knowledge: idleHosts[key] ?? freshKnowledge()))
    }

    private func isKnown(_ key: Substring) -> Bool {
        recent?.key == key || hosts.index(forKey: key) != nil
    }

    /// Returns `true` when the element may start now (and counts it as active), `false`
    /// when it was queued.
    ///
    /// - Parameter mayMultiplex: The host may answer over HTTP/2 after ALPN (HTTPS, unless
    ///   the session asks for HTTP/1.1): while its protocol is unknown, one transfer goes.
    package mutating func admit(_ element: Element, host key: Substring, singleConnection: Bool = false, mayMultiplex: Bool = false) -> Bool {
        focus(key)
        let (limits, total) = (self.limits, totalActive)
        let admitted = Self.update(&recent!.host) { host in
            if singleConnection { host.singleConnection = true }
            if mayMultiplex { host.mayMultiplex = true }
            if host.waitingCount == 0 && Self.hasRoom(host, limits, totalActive: total) {
                Self.start(element, &host, limits)
                return true
            }
            host.waiting.append(element)
            return false
        }
        if admitted { totalActive += 1 } else { totalWaiting += 1 }
        return admitted
    }

    private static func update<Result>(_ host: inout Host, _ body: (inout Host) -> Result) -> Result { body(&host) }

    /// Marks an active element of `key` finished and returns those that may start now.
    ///
    /// - Parameter multiplexed: Whether its answer came over HTTP/2; `nil` when it had none.
    package mutating func finish(host key: Substring, multiplexed: Bool? = nil) -> [Element] {
        guard isKnown(key) else { return [] }
        totalActive -= 1
        let limits = self.limits
        return update(host: key) { host in
            host.active -= 1
            if let multiplexed {
                host.answered = true
                Self.record(multiplexed: multiplexed, in: &host, limits)
            } else if host.mayMultiplex && !host.knowledge.protocolKnown {
                // The protocol probe ended without an answer (refused, timed out, cancelled):
                // the others go at once, as many as the host's connections allow, rather than
                // one probe after another, each waiting out a connect timeout of its own.
                host.mayMultiplex = false
            }
        }
    }

    /// A transfer of `key` learned the host's protocol before it finished (its answer's
    /// head came): returns those that may start now.
    package mutating func learn(host key: Substring, multiplexed: Bool) -> [Element] {
        guard isKnown(key) else { return [] }
        let limits = self.limits
        return update(host: key) { host in Self.record(multiplexed: multiplexed, in: &host, limits) }
    }

    /// What a stream probe found.
    package enum StreamProbeResult: Equatable, Sendable {
        /// It joined the host's connection after an answer came from the host (its own, or
        /// another's): the server's limit, which its SETTINGS give before any answer, did not
        /// stop it.
        case joined
        /// The server's stream limit kept it off the host's full connection (libcurl opened
        /// another one for it).
        case limited(Int)
        /// It ended before either could be told: nothing is learnt, the next step probes again.
        case inconclusive
    }

    /// A stream probe of `key` is settled. Returns those that may start now.
    package mutating func settle(host key: Substring, _ result: StreamProbeResult) -> [Element] {
        guard isKnown(key) else { return [] }
        return update(host: key) { host in
            guard host.probeOutstanding else { return }
            host.probeOutstanding = false
            switch result {
            case let .limited(serverLimit):
                host.knowledge.streamLimit = max(1, min(serverLimit, host.knowledge.streamLimit))
                host.knowledge.limitKnown = true
            case .joined:
                host.answered = true
                host.knowledge.provenStreams = max(host.knowledge.provenStreams, host.active)
                // Salvo's own limit reached with the server's never in the way: nothing more
                // to find out.
                if host.knowledge.provenStreams >= host.knowledge.streamLimit { host.knowledge.limitKnown = true }
            case .inconclusive:
                break
            }
        }
    }

    /// Whether an answer came from `key`'s host since it last went idle (`Host.answered`).
    package func hasAnswered(_ key: Substring) -> Bool {
        if let recent, recent.key == key { return recent.host.answered }
        return hosts[key]?.answered ?? false
    }

    private static func record(multiplexed: Bool, in host: inout Host, _ limits: Limits) {
        if multiplexed != host.knowledge.multiplexed {
            // Another server behind the name, or a fallback: what was known of the old one no
            // longer holds.
            host.knowledge = Knowledge(streamLimit: limits.streamsPerConnection)
            host.knowledge.multiplexed = multiplexed
        }
        host.knowledge.protocolKnown = true
    }

    /// Changes `key`'s host, then starts what may start now, on that host and, when the total
    /// limit held them back, on others.
    private mutating func update(host key: Substring, _ change: (inout Host) -> Void) -> [Element] {
        focus(key)
        var ready: [Element] = []
        let (limits, active) = (self.limits, totalActive)
        let started = Self.update(&recent!.host) { host -> Int in
            change(&host)
            let started = Self.drain(&host, limits, totalActive: active, into: &ready)
            // An idle host's record is dropped (its queue's storage freed), as one swapped out
            // of `recent` is, but not what is known of it.
            if host.isIdle { host = Host(knowledge: host.knowledge) }
            return started
        }
        totalActive += started
        totalWaiting -= started
        if totalWaiting > 0 && (limits.totalLimit == 0 || totalActive < limits.totalLimit) {
            // The total limit may have held back other hosts' transfers.
            for otherKey in hosts.keys where otherKey != key {
                guard var other = hosts[otherKey], other.waitingCount > 0 else { continue }
                let started = Self.drain(&other, limits, totalActive: totalActive, into: &ready)
                totalActive += started
                totalWaiting -= started
                hosts[otherKey] = other
                if limits.totalLimit != 0 && totalActive >= limits.totalLimit { break }
            }
        }
        return ready
    }

    /// Removes a waiting element (a cancellation); returns whether it was waiting.
    package mutating func remove(_ element: Element, host key: Substring) -> Bool {
        guard isKnown(key) else { return false }
        focus(key)
        let removed = Self.update(&recent!.host) { host -> Bool in
            guard let index = host.waiting[host.head...].firstIndex(where: { $0 === element }) else { return false }
            host.waiting.remove(at: index)
            if host.isIdle { host = Host(knowledge: host.knowledge) }
            return true
        }
        if removed { totalWaiting -= 1 }
        return removed
    }

    /// Empties the queue, returning every waiting element.
    package mutating func removeAllWaiting() -> [Element] {
        var all: [Element] = []
        if recent != nil {
            while let element = recent!.host.popFirst() { all.append(element) }
        }
        for key in hosts.keys {
            while let element = hosts[key]!.popFirst() { all.append(element) }
        }
        totalWaiting = 0
        return all
    }
}

/// What a host queue tells an element it starts.
package enum HostProbe: Sendable {
    case none
    /// The first transfer to a host that may speak HTTP/2: its answer tells the protocol.
    case protocolProbe
    /// A transfer that takes a multiplexed host above the streams already seen to work: the
    /// loop finds out whether the server's stream limit stopped it.
    case streamProbe
}

/// An element of a `HostQueue`.
package protocol HostQueueMember: AnyObject {
    /// Set by the queue as it starts the element.
    var hostProbe: HostProbe { get set }
}
