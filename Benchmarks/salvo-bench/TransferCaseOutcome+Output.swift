extension TransferCaseOutcome {
    /// The case's table: one row per client.
    func printTable() {
        var table = TextTable(["client", "wall s", "±%", "MB/s", "CPU s", "peak MiB", "client MiB", "time / best", "CPU / best"])
        var notes: [String] = []
        for client in clients {
            if let reason = unavailable[client] {
                notes.append("\(client.rawValue): not run: \(reason)")
                continue
            }
            guard let wall = seconds(client), let cpu = cpuSeconds(client), let peak = peakRSSMiB(client),
                  let growth = clientRSSMiB(client) else {
                notes.append("\(client.rawValue): failed: \(errors[client] ?? "no result")")
                continue
            }
            let lost = failures(client)
            table.add([client.rawValue + (lost > 0 ? " (\(lost) failed!)" : ""), Format.fixed(wall.median, 3),
                       Format.fixed(wall.spreadPercent / 2, 0), throughput(client).map { Format.fixed($0, 0) } ?? "-",
                       Format.fixed(cpu.median, 3), Format.fixed(peak.median, 1), Format.fixed(growth.median, 1),
                       timeRatio(client).map { Format.fixed($0, 2) } ?? "-", cpuRatio(client).map { Format.fixed($0, 2) } ?? "-"])
        }
        let best = bestOutside.map { "best outside client: \($0.rawValue)" } ?? "no outside client ran"
        Console.line("\n\(transfer.name) (\(best))\n" + table.rendered + notes.map { "\n" + $0 }.joined())
    }

    /// Adds every client's figures to the JSON report.
    func record(into report: inout BenchReport) {
        for client in clients {
            if let reason = unavailable[client] {
                report.add(suite: .transfers, case: transfer.name, client: client.rawValue, figures: [:], note: "not run: \(reason)")
                continue
            }
            guard let runs = samples[client], let wall = seconds(client), let cpu = cpuSeconds(client),
                  let peak = peakRSSMiB(client), let growth = clientRSSMiB(client) else {
                report.add(suite: .transfers, case: transfer.name, client: client.rawValue, figures: [:],
                           note: "failed: \(errors[client] ?? "no result")")
                continue
            }
            var figures: [String: Double] = [
                "files": Double(transfer.count), "bytesPerFile": Double(transfer.size), "parallel": Double(transfer.parallel),
                "rounds": Double(runs.count), "seconds": wall.median, "secondsMin": wall.minimum, "secondsMax": wall.maximum,
                "cpuSeconds": cpu.median, "peakRSSMiB": peak.median, "clientRSSMiB": growth.median,
                "failures": Double(failures(client)),
            ]
            if let value = throughput(client) { figures["megabytesPerSecond"] = value }
            if client.isSalvo, let value = timeRatio(client) { figures["timeRatioToBestOutside"] = value }
            if client.isSalvo, let value = cpuRatio(client) { figures["cpuRatioToBestOutside"] = value }
            let note = bestOutside.map { "best outside client: \($0.rawValue)" }
            report.add(suite: .transfers, case: transfer.name, client: client.rawValue, figures: figures, note: errors[client] ?? note)
        }
    }
}
