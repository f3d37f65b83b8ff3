/// Salvo's own per-host admission: how many transfers run at once for each host and in all,
/// and who waits.
///
/// libcurl can queue transfers itself (`CURLMOPT_MAX_HOST_CONNECTIONS`), but a transfer in
/// its pending queue is already timing, so a burst of requests would time out while merely
/// waiting. Here a waiting transfer has not been handed to libcurl at all.
///
/// A pure value: `admit`, `finish` and `remove` return what to start, and the event loop
/// does it. Tests drive it without sockets.
package struct HostQueue<Element: AnyObject> {
    private struct Host {
        package var active = 0
        package var waiting: [Element] = []
        package var head = 0
        /// Seen to speak HTTP/2, so one connection carries many transfers.
        package var multiplexed = false
        /// Every transfer must share one connection (h2c with prior knowledge on libcurl < 8:
        /// a second connection would be opened without it, and refused).
        package var singleConnection = false

        /// A record for a host with nothing active or waiting, keeping what is known of its
        /// protocol.
        package static func fresh(multiplexed: Bool) -> Host {
            var host = Host()
            host.multiplexed = multiplexed
            return host
        }

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
    /// Idle hosts last seen to speak HTTP/2. An idle host's record is dropped, but a burst of
    /// requests after a quiet spell should still go out as streams of one connection, not be
    /// held to the per-host connection limit until the first answer says HTTP/2 again.
    /// Bounded: it forgets everything when full.
    private var multiplexedIdleHosts: Set<Substring> = []
    private static var multiplexedIdleHostsLimit: Int { 1024 }
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
        /// Transfers per host once the host is known to multiplex over HTTP/2.
        package let streamsPerHost: Int
        /// Concurrent streams on one HTTP/2 connection.
        package let streamsPerConnection: Int
    }

    private let limits: Limits

    package init(connectionsPerHost: Int, totalLimit: Int, streamsPerConnection: Int = 100) {
        limits = Limits(connectionsPerHost: connectionsPerHost, totalLimit: totalLimit,
                        streamsPerHost: connectionsPerHost > 0 ? connectionsPerHost * streamsPerConnection : 0,
                        streamsPerConnection: streamsPerConnection)
    }

    // Static, taking what they read: they run while `hosts` is being changed in place, when
    // `self` cannot be read.
    private static func hasRoom(_ host: Host, _ limits: Limits, totalActive: Int) -> Bool {
        let limit = host.singleConnection ? limits.streamsPerConnection
            : host.multiplexed ? limits.streamsPerHost : limits.connectionsPerHost
        return (limit == 0 || host.active < limit) && (limits.totalLimit == 0 || totalActive < limits.totalLimit)
    }

    /// Starts `host`'s waiting elements while there is room; returns how many started.
    private static func drain(_ host: inout Host, _ limits: Limits, totalActive: Int, into ready: inout [Element]) -> Int {
        var started = 0
        while host.waitingCount > 0 && hasRoom(host, limits, totalActive: totalActive + started), let next = host.popFirst() {
            host.active += 1
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
            } else if old.host.multiplexed {
                if multiplexedIdleHosts.count >= Self.multiplexedIdleHostsLimit { multiplexedIdleHosts.removeAll() }
                multiplexedIdleHosts.insert(old.key)
            } else {
                multiplexedIdleHosts.remove(old.key)
            }
        }
        recent = (key, hosts.removeValue(forKey: key) ?? Host.fresh(multiplexed: multiplexedIdleHosts.contains(key)))
    }

    private func isKnown(_ key: Substring) -> Bool {
        recent?.key == key || hosts.index(forKey: key) != nil
    }

    /// Returns `true` when the element may start now (and counts it as active), `false`
    /// when it was queued.
    package mutating func admit(_ element: Element, host key: Substring, singleConnection: Bool = false) -> Bool {
        focus(key)
        let (limits, total) = (self.limits, totalActive)
        let admitted = Self.update(&recent!.host) { host in
            if singleConnection { host.singleConnection = true }
            if host.waitingCount == 0 && Self.hasRoom(host, limits, totalActive: total) {
                host.active += 1
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
    package mutating func finish(host key: Substring, multiplexed: Bool? = nil) -> [Element] {
        guard isKnown(key) else { return [] }
        focus(key)
        totalActive -= 1
        var ready: [Element] = []
        let (limits, active) = (self.limits, totalActive)
        let started = Self.update(&recent!.host) { host -> Int in
            host.active -= 1
            if let multiplexed { host.multiplexed = multiplexed }
            let started = Self.drain(&host, limits, totalActive: active, into: &ready)
            // An idle host's record is dropped (its queue's storage freed), as one swapped out
            // of `recent` is, but not what is known of its protocol.
            if host.isIdle { host = .fresh(multiplexed: host.multiplexed) }
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
            if host.isIdle { host = .fresh(multiplexed: host.multiplexed) }
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
