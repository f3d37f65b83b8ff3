/// The encoding suite: ns per operation and operations per second of Salvo's encoders,
/// next to Foundation doing the same job in the same process.
struct EncodingSuite {
    let quick: Bool

    /// Runs every case; returns `false` when one threw.
    func run(into report: inout BenchReport) -> Bool {
        let rounds = quick ? 1 : 7
        let batchSeconds = quick ? 0.002 : 0.04
        Console.line("\n== encoding: \(rounds) round(s) of ~\(Int(batchSeconds * 1000)) ms per case, medians ==")
        let cases = EncodingCases.all()
        var medians: [String: Statistics] = [:]
        var healthy = true
        var failures: [String: String] = [:]
        for item in cases {
            do {
                medians[item.name] = Statistics(try EncodingTimer.measure(item.body, batchSeconds: batchSeconds, rounds: rounds))
            } catch {
                failures[item.name] = "\(error)"
                healthy = false
            }
        }

        var table = TextTable(["case", "ns/op", "ops/s", "spread", "vs Foundation", "Alamofire µs (ref)", "vs Alamofire"])
        for item in cases {
            guard let stats = medians[item.name] else {
                table.add([item.name, "FAILED: \(failures[item.name] ?? "")"])
                report.add(suite: .encoding, case: item.name, client: client(item), figures: [:], note: failures[item.name])
                continue
            }
            var figures = ["nanosecondsPerOperation": stats.median, "operationsPerSecond": 1e9 / stats.median]
            var versusFoundation = ""
            if let baseline = item.baseline, let base = medians[baseline] {
                figures["speedupOverFoundation"] = base.median / stats.median
                versusFoundation = Format.fixed(base.median / stats.median, 2) + "×"
            }
            var reference = "", versusAlamofire = ""
            if let alamofire = item.alamofireMicroseconds {
                figures["speedupOverAlamofireReference"] = alamofire * 1000 / stats.median
                reference = Format.fixed(alamofire, 0)
                versusAlamofire = Format.fixed(alamofire * 1000 / stats.median, 1) + "×"
            }
            table.add([item.name, Format.fixed(stats.median, 0), Format.fixed(1e9 / stats.median, 0),
                       "±" + Format.fixed(stats.spreadPercent / 2, 1) + "%", versusFoundation, reference, versusAlamofire])
            report.add(suite: .encoding, case: item.name, client: client(item), figures: figures)
        }
        Console.line(table.rendered)
        Console.line("  vs Foundation: the Foundation case's ns/op over this one's (above 1: Salvo is faster).")
        Console.line("  Alamofire µs: Alamofire 5.12 measured earlier on the reference machine (issue 5), not in this run;")
        Console.line("  the goal is every Salvo case at 10× or more.")
        return healthy
    }

    private func client(_ item: EncodingCase) -> String {
        item.isFoundation ? "foundation" : "salvo"
    }
}
