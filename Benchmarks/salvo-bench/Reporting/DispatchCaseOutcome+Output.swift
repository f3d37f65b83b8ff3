/// The terminal table and the JSON records of one dispatch case.
extension DispatchCaseOutcome {
    func printTable() {
        let baseline = Self.ratioBaseline
        var table = TextTable(["\(`protocol`.title), \(inflight) in flight", "requests", "req/s", "spread",
                               "CPU µs/req", "CPU × C poll", "time µs p50", "p99", "time × C poll", "ctx sw/req (vol.)",
                               "req/s × C poll", "conns (meas.)", "peak RSS MiB", "client MiB", "failures"])
        var notes: [String] = []
        for client in clients {
            if let reason = unavailable[client] {
                table.add([client.title, "n/a"])
                notes.append("\(client.title): \(reason)")
            } else if let runs = samples[client], let rate = requestsPerSecond(client),
                      let cpu = cpuPerRequest(client), let rss = peakRSS(client), let growth = rssGrowth(client) {
                let failures = runs.reduce(0) { $0 + $1.failures }
                let cpuRatio = client == baseline ? "1" : self.cpuRatio(client, to: baseline).map { Format.fixed($0, 2) } ?? "-"
                let rateRatio = client == baseline ? "1" : ratio(client, to: baseline).map { Format.fixed($0, 2) } ?? "-"
                table.add([client.title, Format.grouped(runs[0].requests), Format.fixed(rate.median, 0),
                           "±" + Format.fixed(rate.spreadPercent / 2, 1) + "%", Format.fixed(cpu.median, 1),
                           cpuRatio] + timeCells(client) + [switchesCell(client), rateRatio, connectionsCell(client),
                           Format.fixed(rss.median, 1), Format.fixed(growth.median, 1),
                           failures == 0 ? "0" : "\(failures) !"])
                if let error = errors[client] { notes.append("\(client.title): FAILED in a later round: \(error)") }
            } else {
                table.add([client.title, "FAILED"])
                notes.append("\(client.title): FAILED: \(errors[client] ?? "no result")")
            }
        }
        Console.line("\n" + table.rendered)
        let goal = DispatchGoal.caseLine(self).map { [$0] } ?? []
        for line in notes + ratioLines + decodingLines + responseObjectLines + goal { Console.line("  " + line) }
    }

    /// The time per request's median, its 99th percentile, and the median over the C poll driver's.
    private func timeCells(_ client: DispatchClient) -> [String] {
        guard let time = requestTime(client) else { return ["-", "-", "-"] }
        let ratio = client == Self.ratioBaseline ? "1" : timeRatio(client, to: Self.ratioBaseline).map { Format.fixed($0, 2) } ?? "-"
        return [Format.fixed(time.medianMicroseconds, 1), Format.fixed(time.p99Microseconds, 1), ratio]
    }

    /// All context switches per request, then the voluntary ones: "0.72 (0.31)".
    private func switchesCell(_ client: DispatchClient) -> String {
        guard let all = contextSwitches(client) else { return "-" }
        let voluntary = voluntaryContextSwitches(client).map { " (\(Format.fixed($0.median, 2)))" } ?? ""
        return Format.fixed(all.median, 2) + voluntary
    }

    /// Connections opened by the child, then in brackets during the measured requests: "16 (0)".
    private func connectionsCell(_ client: DispatchClient) -> String {
        guard let all = connectionsOpened(client) else { return "-" }
        let measured = connectionsOpenedMeasured(client).map { " (\(Format.count($0.median)))" } ?? ""
        return Format.count(all.median) + measured
    }

    private var ratioLines: [String] {
        var lines: [String] = []
        if let ratio = ratio(.curlPoll, to: .curlEpoll) {
            lines.append("libcurl poll / epoll, req/s: \(Format.fixed(ratio, 2))")
        }
        for client in Self.salvoClients {
            var parts: [String] = []
            if let extra = extraCPU(client, over: Self.ratioBaseline) {
                parts.append("\(Format.signed(extra, 1)) µs CPU/req over \(Self.ratioBaseline.rawValue)")
            }
            if let same = client.sameBytesDriver, let ratio = ratio(client, to: same) {
                let extra = extraCPU(client, over: same).map { ", \(Format.signed($0, 1)) µs CPU/req" } ?? ""
                parts.append("req/s / libcurl sending the same bytes (\(same.rawValue)) \(Format.fixed(ratio, 2))\(extra)")
            }
            if let ratio = ratio(client, to: .urlSession) {
                parts.append("req/s / URLSession \(Format.fixed(ratio, 2))×")
            }
            if lostRequests(client) { parts.append("NOT COMPARABLE: requests failed") }
            if !parts.isEmpty { lines.append("\(client.rawValue): " + parts.joined(separator: "; ")) }
        }
        return lines
    }

    /// What decoding adds to the realistic handlers row, beside what `JSONDecoder` alone costs.
    private var decodingLines: [String] {
        guard let decode = decodeMicroseconds(.salvoDecodable) else { return [] }
        let extra = extraCPU(.salvoDecodable, over: .salvo).map { "\(Format.signed($0, 1)) µs CPU/req over salvo" }
            ?? "salvo not measured"
        return ["salvo-decodable: \(extra); JSONDecoder().decode(Small.self) alone \(Format.fixed(decode.median, 1)) µs CPU"]
    }

    /// What Foundation's own `HTTPURLResponse` costs on the served headers, beside each row
    /// that reads `response.response`: the part of its CPU no Salvo change can remove.
    private var responseObjectLines: [String] {
        DispatchClient.allCases.filter(\.readsResponseObject).compactMap { client in
            guard let object = responseObjectMicroseconds(client)?.median else { return nil }
            var line = "\(client.rawValue): Foundation's HTTPURLResponse init alone on these headers \(Format.fixed(object, 1)) µs CPU"
            if let mine = cpuPerRequest(client)?.median, let base = cpuPerRequest(Self.ratioBaseline)?.median, base > 0 {
                line += "; without it, CPU × C poll \(Format.fixed((mine - object) / base, 2))"
            }
            return line
        }
    }

    func record(into report: inout BenchReport) {
        for client in clients {
            if let reason = unavailable[client] {
                report.add(suite: .dispatch, case: name, client: client.rawValue, figures: [:], note: reason)
                continue
            }
            guard let runs = samples[client], let rate = requestsPerSecond(client), let cpu = cpuPerRequest(client),
                  let rss = peakRSS(client), let growth = rssGrowth(client) else {
                report.add(suite: .dispatch, case: name, client: client.rawValue, figures: [:],
                           note: "failed: \(errors[client] ?? "no result")")
                continue
            }
            var figures: [String: Double] = [
                "requests": Double(runs[0].requests), "rounds": Double(runs.count),
                "requestsPerSecond": rate.median, "requestsPerSecondMin": rate.minimum, "requestsPerSecondMax": rate.maximum,
                "cpuMicrosecondsPerRequest": cpu.median, "peakRSSMiB": rss.median, "clientRSSMiB": growth.median,
                "failures": Double(runs.reduce(0) { $0 + $1.failures }),
            ]
            if let time = requestTime(client) {
                figures["timeMicrosecondsPerRequestP50"] = time.medianMicroseconds
                figures["timeMicrosecondsPerRequestP99"] = time.p99Microseconds
                figures["timedRequests"] = Double(time.requests)
            }
            if let switches = contextSwitches(client) { figures["contextSwitchesPerRequest"] = switches.median }
            if let switches = voluntaryContextSwitches(client) { figures["voluntaryContextSwitchesPerRequest"] = switches.median }
            if let opened = connectionsOpened(client) { figures["connectionsOpened"] = opened.median }
            if let opened = connectionsOpenedMeasured(client) { figures["connectionsOpenedMeasured"] = opened.median }
            if client != Self.ratioBaseline {
                if let ratio = cpuRatio(client, to: Self.ratioBaseline) { figures["cpuRatioToCurlPoll"] = ratio }
                if let ratio = timeRatio(client, to: Self.ratioBaseline) { figures["timeP50RatioToCurlPoll"] = ratio }
                if let ratio = ratio(client, to: Self.ratioBaseline) { figures["ratioToCurlPoll"] = ratio }
            }
            if client != .curlEpoll, let ratio = ratio(client, to: .curlEpoll) { figures["ratioToRawLibcurl"] = ratio }
            if let same = client.sameBytesDriver, let ratio = ratio(client, to: same) { figures["ratioToLibcurlSameBytes"] = ratio }
            if let fastest = fastestRawDriver, client != fastest, let ratio = ratio(client, to: fastest) {
                figures["ratioToFasterRawLibcurl"] = ratio
            }
            if client != .urlSession, let ratio = ratio(client, to: .urlSession) { figures["ratioToURLSession"] = ratio }
            if let decode = decodeMicroseconds(client) { figures["jsonDecoderMicrosecondsPerDecode"] = decode.median }
            if let object = responseObjectMicroseconds(client) {
                figures["httpURLResponseInitMicroseconds"] = object.median
            }
            if client == .salvoDecodable, let extra = extraCPU(client, over: .salvo) {
                figures["extraCPUMicrosecondsOverSalvo"] = extra
            }
            report.add(suite: .dispatch, case: name, client: client.rawValue, figures: figures, note: errors[client])
        }
    }
}
