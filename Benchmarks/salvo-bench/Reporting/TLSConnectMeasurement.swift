/// What one tls-connect child measured: its first connection, then each run of many fresh
/// connections at once.
struct TLSConnectMeasurement: Codable, Sendable {
    /// One run: `connections` GETs started at once, each needing a connection of its own.
    struct Run: Codable, Sendable {
        /// CPU time (user + system, every thread of the child) from the first request to the
        /// last response; making and freeing the session or handles excluded.
        var cpuSeconds: Double
        /// Wall time over the same span.
        var seconds: Double
        /// Connections nginx accepted during the run (`stub_status`); `nil` where the child
        /// could not tell.
        var connectionsOpened: Int?
        var failures: Int
    }

    /// Requests (and so connections) at once in each run.
    var connections: Int
    /// CPU time of the child's first connection and request, the client's creation and every
    /// one-time set-up included: libcurl's and OpenSSL's initialisation, and for Salvo its
    /// CA store, which later connections share. Not part of any run.
    var firstConnectionCPUSeconds: Double
    var firstConnectionFailures: Int
    var runs: [Run]
}
