import Dispatch

/// Times an operation: calibrates a batch to a target duration, then runs several batches.
enum EncodingTimer {
    /// - Returns: Nanoseconds per operation, one figure per round.
    static func measure(_ body: () throws -> Int, batchSeconds: Double, rounds: Int) throws -> [Double] {
        var sink = 0
        var iterations = 1
        // Calibrate (this is also the warm-up).
        while true {
            let elapsed = try time(iterations, body, &sink)
            if elapsed >= batchSeconds / 2 || iterations >= 1 << 30 {
                iterations = max(1, Int(Double(iterations) * batchSeconds / max(elapsed, 1e-9)))
                break
            }
            iterations *= elapsed < batchSeconds / 64 ? 8 : 2
        }
        var figures: [Double] = []
        for _ in 0..<rounds {
            figures.append(try time(iterations, body, &sink) * 1e9 / Double(iterations))
        }
        blackHole(sink)
        return figures
    }

    private static func time(_ iterations: Int, _ body: () throws -> Int, _ sink: inout Int) throws -> Double {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<iterations { sink &+= try body() }
        return Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
    }

    @inline(never)
    private static func blackHole(_ value: Int) {
        if value == 0x5A1_7000_0000 { Console.line("") }
    }
}
