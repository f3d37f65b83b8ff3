/// What every client measured in one tls-connect case (one CA bundle), over all rounds.
struct TLSConnectCaseOutcome {
    let bundle: TLSConnectBundle
    let connections: Int
    let clients: [TLSConnectClient]
    var samples: [TLSConnectClient: [TLSConnectMeasurement]] = [:]
    var errors: [TLSConnectClient: String] = [:]
    var unavailable: [TLSConnectClient: String] = [:]

    init(bundle: TLSConnectBundle, connections: Int, clients: [TLSConnectClient]) {
        self.bundle = bundle
        self.connections = connections
        self.clients = clients
    }

    var name: String { "\(connections) fresh connections, \(bundle.rawValue) CA" }

    /// No client failed, no request was lost.
    var healthy: Bool {
        errors.isEmpty && clients.allSatisfy { failures($0) == 0 }
    }

    /// Every run of every round.
    func runs(_ client: TLSConnectClient) -> [TLSConnectMeasurement.Run] {
        samples[client]?.flatMap(\.runs) ?? []
    }

    /// The runs that opened fewer connections than they had requests: some requests waited
    /// for another's connection and went over it, so the run measured less than its share
    /// of handshakes and cannot say what one costs.
    func shortRuns(_ client: TLSConnectClient) -> [TLSConnectMeasurement.Run] {
        runs(client).filter { ($0.connectionsOpened ?? connections) < connections }
    }

    /// The runs the CPU and time figures come from: those that opened a connection per
    /// request, or every run when none did.
    func measuredRuns(_ client: TLSConnectClient) -> [TLSConnectMeasurement.Run] {
        let full = runs(client).filter { ($0.connectionsOpened ?? connections) >= connections }
        return full.isEmpty ? runs(client) : full
    }

    /// CPU microseconds per connection: a run's CPU over the connections nginx accepted
    /// from it (over its requests where the child could not tell).
    func cpuPerConnection(_ client: TLSConnectClient) -> Statistics? {
        statistics(measuredRuns(client).map { $0.cpuSeconds * 1e6 / Double(max($0.connectionsOpened ?? connections, 1)) })
    }

    /// CPU milliseconds of a whole run.
    func cpuPerRun(_ client: TLSConnectClient) -> Statistics? {
        statistics(measuredRuns(client).map { $0.cpuSeconds * 1e3 })
    }

    /// Milliseconds from the first request to the last response.
    func wallMilliseconds(_ client: TLSConnectClient) -> Statistics? {
        statistics(measuredRuns(client).map { $0.seconds * 1e3 })
    }

    /// Connections nginx accepted in a run, over every run; `nil` when a run could not tell.
    func connectionsOpened(_ client: TLSConnectClient) -> Statistics? {
        let all = runs(client)
        let values = all.compactMap(\.connectionsOpened).map(Double.init)
        return values.count != all.count ? nil : statistics(values)
    }

    /// CPU milliseconds of each child's first connection, one-time set-up included.
    func firstConnectionMilliseconds(_ client: TLSConnectClient) -> Statistics? {
        statistics((samples[client] ?? []).map { $0.firstConnectionCPUSeconds * 1e3 })
    }

    func failures(_ client: TLSConnectClient) -> Int {
        (samples[client] ?? []).reduce(0) { $0 + $1.firstConnectionFailures + $1.runs.reduce(0) { $0 + $1.failures } }
    }

    /// Median CPU per connection of `client` over `baseline`'s.
    func cpuRatio(_ client: TLSConnectClient, to baseline: TLSConnectClient) -> Double? {
        guard let mine = cpuPerConnection(client)?.median, let theirs = cpuPerConnection(baseline)?.median, theirs > 0 else { return nil }
        return mine / theirs
    }

    private func statistics(_ values: [Double]) -> Statistics? {
        values.isEmpty ? nil : Statistics(values)
    }
}
