/// The dispatch suite's headline goal: the realistic Salvo rows (`salvo`, `salvo-async`)
/// spend at most 2.4× the CPU per request of the C poll driver (`curl-poll`, the loop
/// Salvo's engine uses) at 16 and 128 in flight, over HTTP/1.1 and over h2c. (The floor is
/// about 1.5×: the C driver's work plus Foundation's `HTTPURLResponse` initializer, which
/// reading `response.response` costs.)
enum DispatchGoal {
    static let maximumCPURatio = 2.4
    static let inflights = [16, 128]
    static let protocols: [BenchProtocol] = [.h1, .h2c]
    static let clients: [DispatchClient] = [.salvo, .salvoAsync]
    static let baseline = DispatchClient.curlPoll

    static let statement = "goal: realistic rows' CPU per request ≤ \(Format.fixed(maximumCPURatio, 1))× the C poll "
        + "driver's (\(baseline.rawValue)) at \(inflights.map(String.init).joined(separator: " and ")) in flight, "
        + "HTTP/1.1 and h2c"

    static func covers(_ outcome: DispatchCaseOutcome) -> Bool {
        inflights.contains(outcome.inflight) && protocols.contains(outcome.protocol)
    }

    /// `client`'s CPU ratio in `outcome`, or `nil` when it was not measured or lost requests
    /// (its figures are then not comparable).
    static func ratio(_ client: DispatchClient, in outcome: DispatchCaseOutcome) -> Double? {
        guard !outcome.lostRequests(client), !outcome.lostRequests(baseline) else { return nil }
        return outcome.cpuRatio(client, to: baseline)
    }

    static func verdict(_ ratio: Double) -> String {
        ratio <= maximumCPURatio ? "met" : "not met"
    }

    /// The line under one case's table, or `nil` when the goal does not cover the case.
    static func caseLine(_ outcome: DispatchCaseOutcome) -> String? {
        guard covers(outcome) else { return nil }
        let parts = clients.filter(outcome.clients.contains).map { client in
            guard let ratio = ratio(client, in: outcome) else { return "\(client.rawValue) not measured" }
            return "\(client.rawValue) \(Format.fixed(ratio, 2))× (\(verdict(ratio)))"
        }
        guard !parts.isEmpty else { return nil }
        return "goal, CPU/req ≤ \(Format.fixed(maximumCPURatio, 1))× \(baseline.rawValue): " + parts.joined(separator: ", ")
    }

    /// One line per realistic row over every case the goal covers: met only when every
    /// such case was measured and each is within the goal.
    static func summaryLines(_ outcomes: [DispatchCaseOutcome]) -> [String] {
        let covered = outcomes.filter(covers)
        let expected = inflights.count * protocols.count
        var lines = [statement]
        for client in clients where outcomes.contains(where: { $0.clients.contains(client) }) {
            let figures = covered.map { outcome in (outcome.name, ratio(client, in: outcome)) }
            let cells = figures.map { name, ratio in "\(name): " + (ratio.map { Format.fixed($0, 2) + "×" } ?? "-") }
            let measured = figures.compactMap(\.1)
            let result = measured.count < expected ? "not measured in every case"
                : measured.allSatisfy { $0 <= maximumCPURatio } ? "met" : "not met"
            lines.append("  \(client.rawValue): " + cells.joined(separator: "; ") + " → \(result)")
        }
        return lines
    }
}
