import Foundation

/// The hidden child mode: runs one client for one case and prints its measurement as one
/// line of JSON on standard output.
///
///     salvo-bench --child CLIENT --url URL --protocol h1|h2c --count N --inflight K --warmup W
///
/// CPU and peak memory are the child's own, so they are the client's alone. The decoding
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

        var arguments: [String] {
            [DispatchChild.flag, client.rawValue, "--url", url.absoluteString, "--protocol", `protocol`.rawValue,
             "--count", String(count), "--inflight", String(inflight), "--warmup", String(warmup)]
        }
    }

    static func main(_ arguments: [String]) -> Int32 {
        let start = ResourceUsage.current()
        do {
            let request = try parse(arguments)
            let workload = try request.client.makeWorkload(url: request.url, protocol: request.protocol, inflight: request.inflight)
            let warmupFailures = try workload.run(count: request.warmup)
            let before = ResourceUsage.current()
            let clock = DispatchTime.now().uptimeNanoseconds
            let failures = try workload.run(count: request.count)
            let seconds = Double(DispatchTime.now().uptimeNanoseconds - clock) / 1e9
            let after = ResourceUsage.current()
            var measurement = ClientMeasurement(requests: request.count, seconds: seconds,
                                                cpuSeconds: after.cpuSeconds - before.cpuSeconds,
                                                peakRSSKiB: after.peakRSSKiB, startRSSKiB: start.peakRSSKiB,
                                                failures: failures + warmupFailures,
                                                contextSwitches: after.contextSwitches - before.contextSwitches,
                                                voluntaryContextSwitches: after.voluntaryContextSwitches - before.voluntaryContextSwitches)
            if request.client == .salvoDecodable {
                // After the requests, so it changes none of their figures; at least as many
                // decodes as requests, so a short run still gives a steady figure.
                measurement.decodeMicroseconds = try JSONDecodeTimer.microsecondsPerDecode(iterations: max(request.count, 20_000))
            }
            // Benchmarks/callgrind.sh counts the requests alone: it asks for no timing after them.
            if request.client.readsResponseObject && ProcessInfo.processInfo.environment["SALVO_BENCH_REQUESTS_ONLY"] == nil {
                let session = SalvoSessionFactory.make(protocol: request.protocol, inflight: 1, responseQueue: .global())
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
        var values: [String: String] = [:]
        var index = 1
        while index + 1 < arguments.count {
            values[arguments[index]] = arguments[index + 1]
            index += 2
        }
        guard let url = values["--url"].flatMap(URL.init(string:)),
              let proto = values["--protocol"].flatMap(BenchProtocol.init(rawValue:)),
              let count = values["--count"].flatMap(Int.init), let inflight = values["--inflight"].flatMap(Int.init),
              let warmup = values["--warmup"].flatMap(Int.init) else {
            throw BenchError("--child: missing or bad arguments: \(arguments)")
        }
        return Request(client: client, url: url, protocol: proto, count: count, inflight: inflight, warmup: warmup)
    }
}
