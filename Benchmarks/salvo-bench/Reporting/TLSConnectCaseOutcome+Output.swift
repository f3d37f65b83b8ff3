/// The terminal table and the JSON records of one tls-connect case.
extension TLSConnectCaseOutcome {
    func printTable() {
        var table = TextTable(["\(connections) at once, \(bundle.rawValue) CA", "runs", "short runs", "CPU µs/conn", "spread",
                               "CPU × C", "CPU ms/run", "wall ms/run", "conns opened", "first conn CPU ms", "failures"])
        var notes: [String] = []
        for client in clients {
            if let reason = unavailable[client] {
                table.add([client.title, "not run"])
                notes.append("\(client.rawValue): not run: \(reason)")
            } else if let cpu = cpuPerConnection(client), let total = cpuPerRun(client), let wall = wallMilliseconds(client),
                      let first = firstConnectionMilliseconds(client) {
                let lost = failures(client)
                // Short runs alone say little about one handshake: their figure stays in brackets, unrated.
                let allShort = shortRuns(client).count == runs(client).count
                let perConnection = Format.fixed(cpu.median, 0)
                let ratio = client == .curl ? "1" : cpuRatio(client, to: .curl).map { Format.fixed($0, 2) } ?? "-"
                table.add([client.title, String(runs(client).count), String(shortRuns(client).count),
                           allShort ? "(\(perConnection))" : perConnection, "±" + Format.fixed(cpu.spreadPercent / 2, 1) + "%",
                           allShort ? "-" : ratio,
                           Format.fixed(total.median, 1), Format.fixed(wall.median, 1), connectionsCell(client),
                           Format.fixed(first.median, 1), lost == 0 ? "0" : "\(lost) !"])
                if let note = shortRunsNote(client) { notes.append(note) }
                if let error = errors[client] { notes.append("\(client.rawValue): FAILED in a later round: \(error)") }
            } else {
                table.add([client.title, "FAILED"])
                notes.append("\(client.rawValue): FAILED: \(errors[client] ?? "no result")")
            }
        }
        Console.line("\n\(name): verifying against \(bundle.title)\n" + table.rendered)
        for line in notes { Console.line("  " + line) }
    }

    /// The median, then the range when the runs differed: "64", "64 (1-64)".
    private func connectionsCell(_ client: TLSConnectClient) -> String {
        guard let opened = connectionsOpened(client) else { return "-" }
        let range = opened.minimum == opened.maximum ? "" : " (\(Format.count(opened.minimum))-\(Format.count(opened.maximum)))"
        return Format.count(opened.median) + range
    }

    private func shortRunsNote(_ client: TLSConnectClient) -> String? {
        let short = shortRuns(client)
        guard !short.isEmpty else { return nil }
        let opened = short.compactMap(\.connectionsOpened).map(String.init).joined(separator: ", ")
        let basis = short.count == runs(client).count ? "every run was short, so the figures are theirs (CPU µs/conn in brackets)"
            : "the CPU and time figures are the other runs'"
        return "\(client.rawValue): \(short.count) of \(runs(client).count) runs opened fewer connections than their "
            + "\(connections) requests (\(opened)): the rest waited for another request's connection and went over it; \(basis)"
    }

    func record(into report: inout BenchReport) {
        for client in clients {
            if let reason = unavailable[client] {
                report.add(suite: .tlsConnect, case: name, client: client.rawValue, figures: [:], note: "not run: \(reason)")
                continue
            }
            guard let cpu = cpuPerConnection(client), let total = cpuPerRun(client), let wall = wallMilliseconds(client),
                  let first = firstConnectionMilliseconds(client) else {
                report.add(suite: .tlsConnect, case: name, client: client.rawValue, figures: [:],
                           note: "failed: \(errors[client] ?? "no result")")
                continue
            }
            var figures: [String: Double] = [
                "connections": Double(connections), "runs": Double(runs(client).count), "shortRuns": Double(shortRuns(client).count),
                "cpuMicrosecondsPerConnection": cpu.median, "cpuMicrosecondsPerConnectionMin": cpu.minimum,
                "cpuMicrosecondsPerConnectionMax": cpu.maximum, "cpuMillisecondsPerRun": total.median,
                "wallMillisecondsPerRun": wall.median,
                "firstConnectionCPUMilliseconds": first.median, "failures": Double(failures(client)),
            ]
            if let opened = connectionsOpened(client) {
                figures["connectionsOpened"] = opened.median
                figures["connectionsOpenedMin"] = opened.minimum
                figures["connectionsOpenedMax"] = opened.maximum
            }
            let allShort = shortRuns(client).count == runs(client).count
            if client != .curl, !allShort, let ratio = cpuRatio(client, to: .curl) { figures["cpuRatioToCurl"] = ratio }
            let notes = [shortRunsNote(client), errors[client]].compactMap { $0 }
            report.add(suite: .tlsConnect, case: name, client: client.rawValue, figures: figures,
                       note: notes.isEmpty ? nil : notes.joined(separator: "; "))
        }
    }
}
