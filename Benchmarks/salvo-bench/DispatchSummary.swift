/// One line per dispatch case: every client's median requests per second and Salvo's
/// ratios, the table a README quotes.
struct DispatchSummary {
    private var table: TextTable

    init(clients: [DispatchClient]) {
        table = TextTable(["case"] + clients.map { "\($0.rawValue) req/s" }
                          + ["Salvo/libcurl", "Salvo/faster C", "Salvo +CPU µs", "Salvo/same headers", "bare/libcurl",
                             "bare/same bytes", "Salvo/URLSession"])
        self.clients = clients
    }

    private let clients: [DispatchClient]

    mutating func add(_ outcome: DispatchCaseOutcome) {
        let rates = clients.map { client in
            (outcome.requestsPerSecond(client).map { Format.fixed($0.median, 0) } ?? "-") + (outcome.lostRequests(client) ? " !" : "")
        }
        let toCurl = outcome.ratio(.salvo, to: .curlEpoll).map { Format.fixed($0, 2) } ?? "-"
        let toURLSession = outcome.ratio(.salvo, to: .urlSession).map { Format.fixed($0, 1) + "×" } ?? "-"
        let extra = outcome.extraCPU(.salvo, over: .curlEpoll).map { Format.fixed($0, 1) } ?? "-"
        let toSameHeaders = outcome.ratio(.salvo, to: .curlHeaders).map { Format.fixed($0, 2) } ?? "-"
        let toFaster = outcome.fastestRawDriver.flatMap { outcome.ratio(.salvo, to: $0) }.map { Format.fixed($0, 2) } ?? "-"
        let bareToCurl = outcome.ratio(.salvoBare, to: .curlEpoll).map { Format.fixed($0, 2) } ?? "-"
        let bareToSameBytes = outcome.ratio(.salvoBare, to: .curlPoll).map { Format.fixed($0, 2) } ?? "-"
        table.add([outcome.name] + rates + [toCurl, toFaster, extra, toSameHeaders, bareToCurl, bareToSameBytes, toURLSession])
    }

    var rendered: String {
        "\ndispatch summary (Salvo = completion handlers; libcurl = the C driver over epoll + socket_action; "
            + "faster C = the faster of the epoll and poll C drivers in that case; "
            + "same headers = the poll C driver sending Salvo's default request headers; "
            + "bare = Salvo without default headers, sending what the C drivers send; same bytes = over the poll C driver; "
            + "! = requests failed, not comparable)\n" + table.rendered
    }
}
