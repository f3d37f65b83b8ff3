extension TransferCaseOutcome {
    /// The case's table: one row per client.
    func printTable() {
        let split = transfer.split > 1
        var table = TextTable(["client", "wall s", "±%", "MB/s", "CPU s", "peak MiB", "client MiB", "time / best", "CPU / best"]
                              + (split ? ["× 1 conn"] : []))
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
                       timeRatio(client).map { Format.fixed($0, 2) } ?? "-", cpuRatio(client).map { Format.fixed($0, 2) } ?? "-"]
                      + (split ? [speedUpOverOneConnection(client).map { Format.fixed($0, 1) } ?? "-"] : []))
        }
        let best = bestOutside.map { "best outside client: \($0.rawValue)" } ?? "no outside client ran"
        Console.line("\n\(transfer.name) (\(best))\n" + table.rendered + notes.map { "\n" + $0 }.joined()
                     + (split ? "\n" + splitGoals : "") + likeForLike.map { "\n" + $0 }.joined())
    }

    /// Each `salvo` tool row over the outside rows that guarantee the same, wall and CPU, on
    /// whole files (in the ranges case curl is the one-connection rate, not a peer).
    private var likeForLike: [String] {
        guard transfer.split == 1 else { return [] }
        let pairs: [(TransferClient, TransferClient, String)] = [
            (.salvoTool, .curlChecked, "both verify every sha-256 and flush every file"),
            (.salvoTool, .aria2cChecked, "both verify every sha-256; aria2c does not flush"),
            (.salvoToolNoFsync, .curl, "neither verifies nor flushes"),
        ]
        let lines = pairs.compactMap { mine, theirs, guarantee -> String? in
            guard failures(mine) == 0, failures(theirs) == 0, let wall = seconds(mine), let theirWall = seconds(theirs),
                  let cpu = cpuSeconds(mine), let theirCPU = cpuSeconds(theirs), theirWall.median > 0, theirCPU.median > 0 else { return nil }
            return "  \(mine.rawValue) / \(theirs.rawValue) (\(guarantee)): wall \(Format.fixed(wall.median / theirWall.median, 2))×, "
                + "CPU \(Format.fixed(cpu.median / theirCPU.median, 2))×"
        }
        return lines.isEmpty ? [] : ["like for like:"] + lines
    }

    /// The split case's targets, for each `salvo` tool row: at least six times the
    /// one-connection rate, and no slower than aria2c fetching the same ranges.
    private var splitGoals: String {
        let rows = [TransferClient.salvoTool, .salvoToolNoFsync].compactMap { client -> String? in
            guard let speedUp = speedUpOverOneConnection(client), let mine = seconds(client) else { return nil }
            var line = "  \(client.rawValue): \(Format.fixed(speedUp, 1))× one connection (\(speedUp >= 6 ? "met" : "not met"))"
            if failures(.aria2c) == 0, let theirs = seconds(.aria2c) {
                let ratio = mine.median / theirs.median
                line += ", time / aria2c \(Format.fixed(ratio, 2)) (\(ratio <= 1 ? "met" : "not met"))"
            }
            return line
        }
        guard !rows.isEmpty else { return "goals: not measured (curl or the salvo tool did not run)" }
        return "goals: ≥ 6× one connection, time / aria2c ≤ 1\n" + rows.joined(separator: "\n")
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
            if transfer.split > 1 { figures["split"] = Double(transfer.split) }
            if client.isOurs, let value = timeRatio(client) { figures["timeRatioToBestOutside"] = value }
            if client.isOurs, let value = cpuRatio(client) { figures["cpuRatioToBestOutside"] = value }
            if let value = speedUpOverOneConnection(client) { figures["speedUpOverOneConnection"] = value }
            let note = bestOutside.map { "best outside client: \($0.rawValue)" }
            report.add(suite: .transfers, case: transfer.name, client: client.rawValue, figures: figures, note: errors[client] ?? note)
        }
    }
}
