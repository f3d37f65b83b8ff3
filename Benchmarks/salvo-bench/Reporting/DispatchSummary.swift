/// The dispatch suite's closing tables, the ones a README quotes: every client's median
/// requests per second per case, every client's time per request (median and 99th
/// percentile), then each Salvo row's CPU per request, requests per second and median time
/// per request over the C poll driver, decoding's cost, and the headline goal.
struct DispatchSummary {
    private let clients: [DispatchClient]
    private let salvoClients: [DispatchClient]
    private var rates: TextTable
    private var times: TextTable
    private var ratios: TextTable
    private var outcomes: [DispatchCaseOutcome] = []

    init(clients: [DispatchClient]) {
        self.clients = clients
        salvoClients = DispatchCaseOutcome.salvoClients.filter(clients.contains)
        rates = TextTable(["case"] + clients.map { "\($0.rawValue) req/s" })
        times = TextTable(["case"] + clients.map(\.rawValue))
        ratios = TextTable(["case", "\(DispatchCaseOutcome.ratioBaseline.rawValue) µs/req",
                            "\(DispatchCaseOutcome.ratioBaseline.rawValue) time µs p50"] + salvoClients.map(\.rawValue)
                           + ["decodable +µs over salvo", "JSONDecoder alone µs", "salvo req/s / URLSession"])
    }

    mutating func add(_ outcome: DispatchCaseOutcome) {
        outcomes.append(outcome)
        let baseline = DispatchCaseOutcome.ratioBaseline
        rates.add([outcome.name] + clients.map { client in
            (outcome.requestsPerSecond(client).map { Format.fixed($0.median, 0) } ?? "-") + (outcome.lostRequests(client) ? " !" : "")
        })
        times.add([outcome.name] + clients.map { client in
            (outcome.requestTime(client).map { "\(Format.fixed($0.medianMicroseconds, 0)) / \(Format.fixed($0.p99Microseconds, 0))" }
                ?? "-") + (outcome.lostRequests(client) ? " !" : "")
        })
        // The time ratio goes last, so that the first two figures mean what they always have.
        let cells = salvoClients.map { client in
            let cpu = outcome.cpuRatio(client, to: baseline).map { Format.fixed($0, 2) } ?? "-"
            let rate = outcome.ratio(client, to: baseline).map { Format.fixed($0, 2) } ?? "-"
            let time = outcome.timeRatio(client, to: baseline).map { Format.fixed($0, 2) } ?? "-"
            return "\(cpu) / \(rate) / \(time)" + (outcome.lostRequests(client) ? " !" : "")
        }
        let baseCPU = outcome.cpuPerRequest(baseline).map { Format.fixed($0.median, 1) } ?? "-"
        let baseTime = outcome.requestTime(baseline).map { Format.fixed($0.medianMicroseconds, 1) } ?? "-"
        let decodingExtra = outcome.extraCPU(.salvoDecodable, over: .salvo).map { Format.signed($0, 1) } ?? "-"
        let decoder = outcome.decodeMicroseconds(.salvoDecodable).map { Format.fixed($0.median, 1) } ?? "-"
        let toURLSession = outcome.ratio(.salvo, to: .urlSession).map { Format.fixed($0, 1) + "×" } ?? "-"
        ratios.add([outcome.name, baseCPU, baseTime] + cells + [decodingExtra, decoder, toURLSession])
    }

    var rendered: String {
        "\ndispatch summary: requests per second (! = requests failed, not comparable)\n" + rates.rendered
            + "\n\ntime per request, issue to completion seen, µs: median / 99th percentile of every round's requests\n"
            + times.rendered
            + "\n\neach Salvo row over the C poll driver (\(DispatchCaseOutcome.ratioBaseline.rawValue)) in the same case: "
            + "CPU per request × / requests per second × / median time per request ×; salvo and salvo-async are the "
            + "realistic (headline) rows\n"
            + ratios.rendered + "\n\n" + DispatchGoal.summaryLines(outcomes).joined(separator: "\n")
    }
}
