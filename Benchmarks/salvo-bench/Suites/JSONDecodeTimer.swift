import Foundation

/// Measures `JSONDecoder().decode(Small.self, from:)` alone on the bytes nginx serves at
/// `/small.json`: the figure the decoding row's extra CPU per request is read against.
enum JSONDecodeTimer {
    /// Decodes `iterations` times (after a warm-up) on the calling thread.
    /// - Returns: CPU microseconds per decode, the calling thread's alone, so Salvo's idle
    ///   loop thread and the rest of the process do not count.
    static func microsecondsPerDecode(iterations: Int) throws -> Double {
        let body = Data(NginxConfiguration.smallJSON.utf8)
        var sink = 0
        for _ in 0..<max(iterations / 10, 100) { sink &+= try decode(body) }
        let start = ThreadCPUClock.nanoseconds()
        // A new decoder each time, as `responseDecodable`'s default argument makes one per request.
        for _ in 0..<iterations { sink &+= try decode(body) }
        let elapsed = ThreadCPUClock.nanoseconds() - start
        guard sink != 0 else { throw BenchError("JSONDecoder decoded nothing") }
        return Double(elapsed) / 1e3 / Double(iterations)
    }

    @inline(never)
    private static func decode(_ body: Data) throws -> Int {
        try JSONDecoder().decode(Small.self, from: body).count
    }

}
