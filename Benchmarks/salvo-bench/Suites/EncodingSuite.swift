/// The encoding suite: ns per operation and operations per second of Salvo's encoders,
/// next to Foundation doing the same job in the same process.
struct EncodingSuite {
    let quick: Bool

    /// Runs every case; returns `false` when one threw.
    func run(into report: inout BenchReport) -> Bool {
        let rounds = quick ? 1 : 7
        let batchSeconds = quick ? 0.002 : 0.04
        Console.line("\n== encoding: \(rounds) round(s) of ~\(Int(batchSeconds * 1000)) ms per case, medians ==")
        let cases: [EncodingCase]
        do {
            cases = try EncodingCases.all()
        } catch {
            Console.line("encoding: the floors could not be precomputed: \(error)")
            return false
        }
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

        var table = TextTable(["case", "ns/op", "ops/s", "spread", "vs Foundation", "× floor", "Alamofire µs (ref)", "vs Alamofire"])
        var goalLines: [String] = []
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
            var overFloor = ""
            if let floor = item.floor, let base = medians[floor] {
                let ratio = stats.median / base.median
                figures["ratioToFloor"] = ratio
                overFloor = Format.fixed(ratio, 2) + "×"
                // JSONParameterEncoder's floor is JSONEncoder and URLRequest alone, the least
                // Alamofire's encoder does too: at its floor, it is no slower than Alamofire's.
                if floor == EncodingCases.foundationJSONEncoder {
                    goalLines.append("  \(item.name): \(Format.fixed(ratio, 2))× JSONEncoder + URLRequest alone (goal ≤ 1.05×: "
                                     + (ratio <= 1.05 ? "met" : "not met") + ")")
                }
            }
            var reference = "", versusAlamofire = ""
            if let alamofire = item.alamofireMicroseconds {
                figures["speedupOverAlamofireReference"] = alamofire * 1000 / stats.median
                reference = Format.fixed(alamofire, 0)
                let speedup = alamofire * 1000 / stats.median
                versusAlamofire = Format.fixed(speedup, 1) + "×"
                if item.floor != EncodingCases.foundationJSONEncoder {
                    let wanted = item.name.hasPrefix("APIRouter") ? 2.0 : 4.0
                    goalLines.append("  \(item.name): \(Format.fixed(speedup, 1))× faster than Alamofire's (goal ≥ \(Format.fixed(wanted, 0))×: "
                                     + (speedup >= wanted ? "met" : "not met") + ")")
                }
            }
            table.add([item.name, Format.fixed(stats.median, 0), Format.fixed(1e9 / stats.median, 0),
                       "±" + Format.fixed(stats.spreadPercent / 2, 1) + "%", versusFoundation, overFloor, reference, versusAlamofire])
            report.add(suite: .encoding, case: item.name, client: client(item), figures: figures)
        }
        Console.line(table.rendered)
        Console.line("  vs Foundation: the Foundation case's ns/op over this one's (above 1: Salvo is faster).")
        Console.line("  × floor: this case's ns/op over its floor's (the same URLRequest built by hand from output computed once).")
        Console.line("  Alamofire µs: Alamofire 5.12 measured earlier on this machine, not in this run (a slower or busier day")
        Console.line("  lowers every \"vs Alamofire\" figure).")
        Console.line("goals: the encoders ≥ 4× faster than Alamofire's, the router ≥ 2×; JSONParameterEncoder no slower than")
        Console.line("Alamofire's, judged against the work both must do (JSONEncoder + URLRequest, measured in this run):")
        for line in goalLines { Console.line(line) }
        return healthy
    }

    private func client(_ item: EncodingCase) -> String {
        item.isFoundation ? "foundation" : "salvo"
    }
}
