/// The dispatch suite's closing tables, the ones a README quotes: every client's median
/// requests per second per case, then each Salvo row's CPU per request and requests per
/// second over the C poll driver, decoding's cost, and the headline goal.
struct DispatchSummary {
    private let clients: [DispatchClient]
    private let salvoClients: [DispatchClient]
    private var rates: TextTable
    private var ratios: TextTable
    private var outcomes: [DispatchCaseOutcome] = []

    init(clients: [DispatchClient]) {
        self.clients = clients
        salvoClients = DispatchCaseOutcome.salvoClients.filter(clients.contains)
        rates = TextTable(["case"] + clients.map { "\($0.rawValue) req/s" })
        ratios = TextTable(["case", "\(DispatchCaseOutcome.ratioBaseline.rawValue) µs/req"] + salvoClients.map(\.rawValue)
                           + ["decodable +µs over salvo", "JSONDecoder alone µs", "salvo req/s / URLSession"])
    }

    mutating func add(_ outcome: DispatchCaseOutcome) {
        outcomes.append(outcome)
        let baseline = DispatchCaseOutcome.ratioBaseline
        rates.add([outcome.name] + clients.map { client in
            (outcome.requestsPerSecond(client).map { Format.fixed($0.median, 0) } ?? "-") + (outcome.lostRequests(client) ? " !" : "")
        })
        let cells = salvoClients.map { client in
            let cpu = outcome.cpuRatio(client, to: baseline).map { Format.fixed($0, 2) } ?? "-"
            let rate = outcome.ratio(client, to: baseline).map { Format.fixed($0, 2) } ?? "-"
            return "\(cpu) / \(rate)" + (outcome.lostRequests(client) ? " !" : "")
        }
        let baseCPU = outcome.cpuPerRequest(baseline).map { Format.fixed($0.median, 1) } ?? "-"
        let decodingExtra = outcome.extraCPU(.salvoDecodable, over: .salvo).map { Format.signed($0, 1) } ?? "-"
        let decoder = outcome.decodeMicroseconds(.salvoDecodable).map { Format.fixed($0.median, 1) } ?? "-"
        let toURLSession = outcome.ratio(.salvo, to: .urlSession).map { Format.fixed($0, 1) + "×" } ?? "-"
        ratios.add([outcome.name, baseCPU] + cells + [decodingExtra, decoder, toURLSession])
    }

    var rendered: String {
        "\ndispatch summary: requests per second (! = requests failed, not comparable)\n" + rates.rendered
            + "\n\neach Salvo row over the C poll driver (\(DispatchCaseOutcome.ratioBaseline.rawValue)) in the same case: "
            + "CPU per request × / requests per second ×; salvo and salvo-async are the realistic (headline) rows\n"
            + ratios.rendered + "\n\n" + DispatchGoal.summaryLines(outcomes).joined(separator: "\n")
    }
}
