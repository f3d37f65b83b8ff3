/// What every client measured in one transfers case, over all rounds.
struct TransferCaseOutcome {
    let transfer: TransferCase
    let clients: [TransferClient]
    var samples: [TransferClient: [ClientMeasurement]] = [:]
    var errors: [TransferClient: String] = [:]
    var unavailable: [TransferClient: String] = [:]

    init(transfer: TransferCase, clients: [TransferClient]) {
        self.transfer = transfer
        self.clients = clients
    }

    var healthy: Bool {
        errors.isEmpty && samples.values.allSatisfy { $0.allSatisfy { $0.failures == 0 } }
    }

    func seconds(_ client: TransferClient) -> Statistics? {
        samples[client].map { Statistics($0.map(\.seconds)) }
    }

    func cpuSeconds(_ client: TransferClient) -> Statistics? {
        samples[client].map { Statistics($0.map(\.cpuSeconds)) }
    }

    func peakRSSMiB(_ client: TransferClient) -> Statistics? {
        samples[client].map { Statistics($0.map(\.peakRSSMiB)) }
    }

    func clientRSSMiB(_ client: TransferClient) -> Statistics? {
        samples[client].map { Statistics($0.map(\.rssGrowthMiB)) }
    }

    func failures(_ client: TransferClient) -> Int {
        samples[client]?.reduce(0) { $0 + $1.failures } ?? 0
    }

    /// The outside client with the lowest median wall time, among those without failures.
    var bestOutside: TransferClient? {
        clients.filter { !$0.isOurs && failures($0) == 0 }
            .compactMap { client in seconds(client).map { (client, $0.median) } }
            .min { $0.1 < $1.1 }?.0
    }

    /// `client`'s median wall time over the best outside client's (below 1: faster).
    func timeRatio(_ client: TransferClient) -> Double? {
        guard let best = bestOutside, let mine = seconds(client), let theirs = seconds(best) else { return nil }
        return mine.median / theirs.median
    }

    /// `client`'s median CPU time over the best outside client's.
    func cpuRatio(_ client: TransferClient) -> Double? {
        guard let best = bestOutside, let mine = cpuSeconds(client), let theirs = cpuSeconds(best), theirs.median > 0 else { return nil }
        return mine.median / theirs.median
    }

    /// On a split case, curl's median wall time over `client`'s: how many times the
    /// one-connection rate the client reached by fetching ranges side by side.
    func speedUpOverOneConnection(_ client: TransferClient) -> Double? {
        guard transfer.split > 1, failures(.curl) == 0, let one = seconds(.curl), let mine = seconds(client) else { return nil }
        return one.median / mine.median
    }

    /// Megabytes (10⁶ bytes) per second at the median wall time.
    func throughput(_ client: TransferClient) -> Double? {
        seconds(client).map { Double(transfer.count * transfer.size) / $0.median / 1e6 }
    }
}
