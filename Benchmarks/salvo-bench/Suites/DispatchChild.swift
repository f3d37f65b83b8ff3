import Foundation

/// The hidden child mode: runs one client for one case and prints its measurement as one
/// line of JSON on standard output.
///
///     salvo-bench --child CLIENT --url URL --protocol h1|h2c|h1s|h2 --count N --inflight K --warmup W
///                 [--ca FILE] [--status-port PORT]
///
/// CPU and peak memory are the child's own, so they are the client's alone. Each measured
/// request's time, from issue to completion seen, goes back in the measurement (`RequestTimes`),
/// so that the parent can merge the rounds before taking percentiles. `--ca` is the CA
/// file a TLS case verifies against. With `--status-port`, the child reads nginx's
/// connection counters (`NginxStatus`) when it starts, before the measured requests and
/// after them, outside the CPU figures, and reports the connections its client opened. The decoding
/// row's child also times `JSONDecoder` alone on the same bytes, after its requests, and the
/// children of rows that read `response.response` time Foundation's `HTTPURLResponse` alone.
enum DispatchChild {
    static let flag = "--child"

    struct Request {
        var client: DispatchClient
        var url: URL
        var `protocol`: BenchProtocol
        var count: Int
        var inflight: Int
        var warmup: Int
        var caFile: String?
        var statusPort: Int?

        var arguments: [String] {
            [DispatchChild.flag, client.rawValue, "--url", url.absoluteString, "--protocol", `protocol`.rawValue,
             "--count", String(count), "--inflight", String(inflight), "--warmup", String(warmup)]
                + (caFile.map { ["--ca", $0] } ?? []) + (statusPort.map { ["--status-port", String($0)] } ?? [])
        }
    }

    static func main(_ arguments: [String]) -> Int32 {
        do {
            let request = try parse(arguments)
            // Benchmarks/callgrind.sh counts the requests alone: no per-request timing (whose
            // cost differs between the Swift and C clients) and no timing after them.
            let requestsOnly = ProcessInfo.processInfo.environment["SALVO_BENCH_REQUESTS_ONLY"] != nil
            // Before the start-up reading, so that "client MiB" is still what the client added.
            let times = requestsOnly ? nil : RequestTimes(capacity: request.count)
            let start = ResourceUsage.current()
            let statusAtStart = try request.statusPort.map(NginxStatus.read(port:))
            let workload = try request.client.makeWorkload(url: request.url, protocol: request.protocol, inflight: request.inflight,
                                                           caFile: request.caFile)
            let warmupFailures = try workload.run(count: request.warmup, times: nil)
            let statusBefore = try request.statusPort.map(NginxStatus.read(port:))
            let before = ResourceUsage.current()
            let clock = DispatchTime.now().uptimeNanoseconds
            let failures = try workload.run(count: request.count, times: times)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e9
            let after = ResourceUsage.current()
            let statusAfter = try request.statusPort.map(NginxStatus.read(port:))
            var measurement = ClientMeasurement(requests: request.count, seconds: seconds,
                                                cpuSeconds: after.cpuSeconds - before.cpuSeconds,
                                                peakRSSKiB: after.peakRSSKiB, startRSSKiB: start.peakRSSKiB,
                                                failures: failures + warmupFailures,
                                                contextSwitches: after.contextSwitches - before.contextSwitches,
                                                voluntaryContextSwitches: after.voluntaryContextSwitches - before.voluntaryContextSwitches,
                                                requestNanoseconds: times?.nanoseconds)
            if let statusAtStart, let statusBefore, let statusAfter {
                // The middle reading's own connection is not the client's either.
                measurement.connectionsOpened = NginxStatus.connectionsOpened(from: statusAtStart, to: statusAfter) - 1
                measurement.connectionsOpenedMeasured = NginxStatus.connectionsOpened(from: statusBefore, to: statusAfter)
            }
            if request.client == .salvoDecodable && !requestsOnly {
                // After the requests, so it changes none of their figures; at least as many
                // decodes as requests, so a short run still gives a steady figure.
                measurement.decodeMicroseconds = try JSONDecodeTimer.microsecondsPerDecode(iterations: max(request.count, 20_000))
            }
            if request.client.readsResponseObject && !requestsOnly {
                let session = SalvoSessionFactory.make(protocol: request.protocol, inflight: 1, responseQueue: .global(),
                                                       caFile: request.caFile)
                measurement.responseObjectMicroseconds = try ResponseObjectTimer.microsecondsPerResponse(
                    session: session, url: request.url, iterations: max(request.count, 20_000))
            }
            let line = try JSONEncoder().encode(measurement)
            FileHandle.standardOutput.write(line + Data("\n".utf8))
            return 0
        } catch {
            FileHandle.standardError.write(Data("salvo-bench child: \(error)\n".utf8))
            return 1
        }
    }

    private static func parse(_ arguments: [String]) throws -> Request {
        guard let clientName = arguments.first, let client = DispatchClient(rawValue: clientName) else {
            throw BenchError("--child needs a client name")
        }
        let values = ChildArguments.options(after: arguments)
        guard let url = values["--url"].flatMap(URL.init(string:)),
              let proto = values["--protocol"].flatMap(BenchProtocol.init(rawValue:)),
              let count = values["--count"].flatMap(Int.init), let inflight = values["--inflight"].flatMap(Int.init),
              let warmup = values["--warmup"].flatMap(Int.init) else {
            throw BenchError("--child: missing or bad arguments: \(arguments)")
        }
        var statusPort: Int?
        if let text = values["--status-port"] {
            guard let port = Int(text) else { throw BenchError("--child: bad --status-port: \(text)") }
            statusPort = port
        }
        return Request(client: client, url: url, protocol: proto, count: count, inflight: inflight, warmup: warmup,
                       caFile: values["--ca"], statusPort: statusPort)
    }
}
