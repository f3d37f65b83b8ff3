/// What every client measured in one dispatch case (protocol and in-flight count).
struct DispatchCaseOutcome {
    let `protocol`: BenchProtocol
    let inflight: Int
    let clients: [DispatchClient]
    var samples: [DispatchClient: [ClientMeasurement]] = [:]
    var errors: [DispatchClient: String] = [:]
    var unavailable: [DispatchClient: String] = [:]

    init(protocol: BenchProtocol, inflight: Int, clients: [DispatchClient]) {
        self.protocol = `protocol`
        self.inflight = inflight
        self.clients = clients
    }

    var name: String { "\(`protocol`.rawValue), \(inflight) in flight" }

    /// No client failed, no request was lost.
    var healthy: Bool {
        errors.isEmpty && samples.values.allSatisfy { $0.allSatisfy { $0.failures == 0 } }
    }

    func requestsPerSecond(_ client: DispatchClient) -> Statistics? {
        samples[client].map { Statistics($0.map(\.requestsPerSecond)) }
    }

    func cpuPerRequest(_ client: DispatchClient) -> Statistics? {
        samples[client].map { Statistics($0.map(\.cpuMicrosecondsPerRequest)) }
    }

    /// Context switches per request, every thread of the child (`getrusage`).
    func contextSwitches(_ client: DispatchClient) -> Statistics? {
        perRequest(client, \.contextSwitchesPerRequest)
    }

    /// The voluntary part of `contextSwitches` (a thread went to sleep).
    func voluntaryContextSwitches(_ client: DispatchClient) -> Statistics? {
        perRequest(client, \.voluntaryContextSwitchesPerRequest)
    }

    /// A figure every round of `client` recorded; `nil` if one did not (an outside tool's, or
    /// a count the child could not read).
    private func perRequest(_ client: DispatchClient, _ figure: KeyPath<ClientMeasurement, Double?>) -> Statistics? {
        guard let runs = samples[client] else { return nil }
        let values = runs.compactMap { $0[keyPath: figure] }
        return values.count == runs.count ? Statistics(values) : nil
    }

    /// Connections nginx accepted from `client`'s child, warm-up included (`stub_status`).
    func connectionsOpened(_ client: DispatchClient) -> Statistics? {
        perRequest(client, \.connectionsOpenedFigure)
    }

    /// The part of `connectionsOpened` during the measured requests.
    func connectionsOpenedMeasured(_ client: DispatchClient) -> Statistics? {
        perRequest(client, \.connectionsOpenedMeasuredFigure)
    }

    /// The time per request of `client`, every round's measured requests merged; `nil` if a
    /// round timed none.
    func requestTime(_ client: DispatchClient) -> RequestTimePercentiles? {
        guard let runs = samples[client] else { return nil }
        let rounds = runs.compactMap(\.requestNanoseconds)
        return rounds.count == runs.count ? RequestTimePercentiles(nanoseconds: rounds.flatMap { $0 }) : nil
    }

    func peakRSS(_ client: DispatchClient) -> Statistics? {
        samples[client].map { Statistics($0.map(\.peakRSSMiB)) }
    }

    func rssGrowth(_ client: DispatchClient) -> Statistics? {
        samples[client].map { Statistics($0.map(\.rssGrowthMiB)) }
    }

    /// Whether `client` lost requests in any round: its rate is then not comparable.
    func lostRequests(_ client: DispatchClient) -> Bool {
        samples[client]?.contains { $0.failures > 0 } ?? false
    }

    /// CPU microseconds per `JSONDecoder().decode` alone, measured by `client`'s children.
    func decodeMicroseconds(_ client: DispatchClient) -> Statistics? {
        let figures = samples[client]?.compactMap(\.decodeMicroseconds) ?? []
        return figures.isEmpty ? nil : Statistics(figures)
    }

    /// CPU microseconds per Foundation `HTTPURLResponse` alone, measured by `client`'s children.
    func responseObjectMicroseconds(_ client: DispatchClient) -> Statistics? {
        let figures = samples[client]?.compactMap(\.responseObjectMicroseconds) ?? []
        return figures.isEmpty ? nil : Statistics(figures)
    }

    /// Median CPU per request of `client` over `baseline`'s.
    func cpuRatio(_ client: DispatchClient, to baseline: DispatchClient) -> Double? {
        guard let mine = cpuPerRequest(client)?.median, let theirs = cpuPerRequest(baseline)?.median, theirs > 0 else { return nil }
        return mine / theirs
    }

    /// Median time per request (p50) of `client` over `baseline`'s.
    func timeRatio(_ client: DispatchClient, to baseline: DispatchClient) -> Double? {
        guard let mine = requestTime(client)?.medianMicroseconds, let theirs = requestTime(baseline)?.medianMicroseconds,
              theirs > 0 else { return nil }
        return mine / theirs
    }

    /// Median requests per second of `client` over `baseline`'s.
    func ratio(_ client: DispatchClient, to baseline: DispatchClient) -> Double? {
        guard let mine = requestsPerSecond(client)?.median, let theirs = requestsPerSecond(baseline)?.median, theirs > 0 else { return nil }
        return mine / theirs
    }

    /// Median CPU per request of `client` minus `baseline`'s, in microseconds.
    func extraCPU(_ client: DispatchClient, over baseline: DispatchClient) -> Double? {
        guard let mine = cpuPerRequest(client)?.median, let theirs = cpuPerRequest(baseline)?.median else { return nil }
        return mine - theirs
    }

    /// The faster of the two raw C drivers in this case, the strictest baseline.
    var fastestRawDriver: DispatchClient? {
        let rates = [DispatchClient.curlEpoll, .curlPoll].compactMap { client in
            requestsPerSecond(client).map { (client, $0.median) }
        }
        return rates.max { $0.1 < $1.1 }?.0
    }

    /// The Salvo clients, for ratio lines: the headline rows first.
    static let salvoClients: [DispatchClient] = [.salvo, .salvoAsync, .salvoDecodable, .salvoNoRead, .salvoAsyncNoRead, .salvoBare]

    /// The C driver every Salvo row's ratios are taken over: the loop Salvo's engine uses.
    static let ratioBaseline = DispatchClient.curlPoll
}
