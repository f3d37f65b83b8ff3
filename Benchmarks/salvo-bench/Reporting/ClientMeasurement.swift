/// What one child process measured for one client and case.
struct ClientMeasurement: Codable, Sendable {
    /// Requests in the measured phase (after the warm-up).
    var requests: Int
    /// Wall time of the measured phase.
    var seconds: Double
    /// CPU time (user + system, every thread) of the measured phase.
    var cpuSeconds: Double
    /// The child's peak resident memory, warm-up included.
    var peakRSSKiB: Int
    /// The child's peak resident memory before the client was created: the Swift runtime
    /// and Foundation every child carries, the C driver's included.
    var startRSSKiB: Int
    /// Requests that failed (an error, a status other than 200, a short body).
    var failures: Int
    /// Context switches of the measured phase (`getrusage`: voluntary and involuntary, every
    /// thread); `nil` where the child cannot tell (an outside tool's).
    var contextSwitches: Int?
    /// The voluntary part of `contextSwitches` (a thread went to sleep); the rest were
    /// preemptions. `nil` where the child cannot tell.
    var voluntaryContextSwitches: Int?
    /// Each measured request's time from issue to completion seen, in nanoseconds, in
    /// completion order (`RequestTimes`): whole, so that rounds merge before percentiles.
    /// `nil` where the child does not time requests (the transfers').
    var requestNanoseconds: [UInt64]?
    /// CPU microseconds per `JSONDecoder().decode(Small.self, from:)` on the served JSON,
    /// measured in the same process after the requests: the decoding row only.
    var decodeMicroseconds: Double?
    /// CPU microseconds per Foundation `HTTPURLResponse` built from the served response's
    /// header fields, measured in the same process after the requests: the rows that read
    /// `response.response` only.
    var responseObjectMicroseconds: Double?
    /// Connections nginx accepted from the child, warm-up and measured requests together
    /// (`stub_status`); `nil` where the child could not tell.
    var connectionsOpened: Int?
    /// The part of `connectionsOpened` during the measured requests: 0 for a client that
    /// kept every connection its warm-up opened.
    var connectionsOpenedMeasured: Int?

    var requestsPerSecond: Double { Double(requests) / seconds }
    var cpuMicrosecondsPerRequest: Double { cpuSeconds * 1e6 / Double(requests) }
    var contextSwitchesPerRequest: Double? { contextSwitches.map { Double($0) / Double(requests) } }
    var voluntaryContextSwitchesPerRequest: Double? { voluntaryContextSwitches.map { Double($0) / Double(requests) } }
    var connectionsOpenedFigure: Double? { connectionsOpened.map(Double.init) }
    var connectionsOpenedMeasuredFigure: Double? { connectionsOpenedMeasured.map(Double.init) }
    var peakRSSMiB: Double { Double(peakRSSKiB) / 1024 }
    /// What the client added to the process's peak memory.
    var rssGrowthMiB: Double { Double(peakRSSKiB - startRSSKiB) / 1024 }
}
