import Foundation

/// The hidden child mode of the tls-connect suite: one client, a first connection, then a
/// number of runs of many fresh verified TLS connections at once; prints its measurement as
/// one line of JSON on standard output.
///
///     salvo-bench --tls-connect-child CLIENT --url URL --ca FILE --connections N --runs R
///                 [--status-port PORT]
///
/// Each run makes its client (a new multi handle, or a new `Session`) before it reads the
/// clock, and frees it after: a run's CPU is the connections and their requests alone. The
/// process's start-up and the client's one-time set-up fall before the first run.
enum TLSConnectChild {
    static let flag = "--tls-connect-child"

    struct Request {
        var client: TLSConnectClient
        var url: URL
        var caFile: String
        var connections: Int
        var runs: Int
        var statusPort: Int?

        var arguments: [String] {
            [TLSConnectChild.flag, client.rawValue, "--url", url.absoluteString, "--ca", caFile,
             "--connections", String(connections), "--runs", String(runs)]
                + (statusPort.map { ["--status-port", String($0)] } ?? [])
        }
    }

    static func main(_ arguments: [String]) -> Int32 {
        do {
            let request = try parse(arguments)
            let client = request.client
            // A connection of its own first, with a client of its own: the first in the process
            // pays every one-time cost (for Salvo, building the CA store), which the runs should
            // not spread over their connections.
            let start = ResourceUsage.current()
            let first = try client.makeBatch(url: request.url, caFile: request.caFile, count: 1)
            let firstFailures = try first.run()
            let firstCPU = ResourceUsage.current().cpuSeconds - start.cpuSeconds
            first.close()
            if let port = request.statusPort { try waitUntilClosed(port: port) }

            var runs: [TLSConnectMeasurement.Run] = []
            for _ in 0..<request.runs {
                let batch = try client.makeBatch(url: request.url, caFile: request.caFile, count: request.connections)
                let statusBefore = try request.statusPort.map(NginxStatus.read(port:))
                let before = ResourceUsage.current()
                let clock = DispatchTime.now().uptimeNanoseconds
                let failures = try batch.run()
                let seconds = Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e9
                let after = ResourceUsage.current()
                let statusAfter = try request.statusPort.map(NginxStatus.read(port:))
                batch.close()
                var opened: Int?
                if let statusBefore, let statusAfter { opened = NginxStatus.connectionsOpened(from: statusBefore, to: statusAfter) }
                runs.append(TLSConnectMeasurement.Run(cpuSeconds: after.cpuSeconds - before.cpuSeconds, seconds: seconds,
                                                      connectionsOpened: opened, failures: failures))
                // Salvo closes a session's connections on its loop's thread after the session
                // is gone: not while the next run is timed.
                if let port = request.statusPort { try waitUntilClosed(port: port) }
            }
            let measurement = TLSConnectMeasurement(connections: request.connections, firstConnectionCPUSeconds: firstCPU,
                                                    firstConnectionFailures: firstFailures, runs: runs)
            FileHandle.standardOutput.write(try JSONEncoder().encode(measurement) + Data("\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("salvo-bench tls-connect child: \(error)\n".utf8))
            return 1
        }
    }

    /// Waits (up to 5 s) until nginx has no open connection but the reading's own.
    private static func waitUntilClosed(port: Int) throws {
        let deadline = DispatchTime.now() + 5
        while try NginxStatus.read(port: port).active > 1 && DispatchTime.now() < deadline {
            usleep(5_000)
        }
    }

    private static func parse(_ arguments: [String]) throws -> Request {
        guard let clientName = arguments.first, let client = TLSConnectClient(rawValue: clientName) else {
            throw BenchError("\(flag) needs a client name")
        }
        let values = ChildArguments.options(after: arguments)
        guard let url = values["--url"].flatMap(URL.init(string:)), let caFile = values["--ca"],
              let connections = values["--connections"].flatMap(Int.init), connections > 0,
              let runs = values["--runs"].flatMap(Int.init), runs > 0 else {
            throw BenchError("\(flag): missing or bad arguments: \(arguments)")
        }
        var statusPort: Int?
        if let text = values["--status-port"] {
            guard let port = Int(text) else { throw BenchError("\(flag): bad --status-port: \(text)") }
            statusPort = port
        }
        return Request(client: client, url: url, caFile: caFile, connections: connections, runs: runs, statusPort: statusPort)
    }
}
