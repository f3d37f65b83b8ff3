import Foundation

/// Everything a run measured, for `--json`: comparable across runs and machines.
struct BenchReport: Encodable {
    struct Record: Encodable {
        var suite: String
        var `case`: String
        var client: String
        /// Named figures, e.g. requestsPerSecond, cpuMicrosecondsPerRequest, peakRSSMiB.
        var figures: [String: Double]
        /// Why there are no figures, or what to know about them.
        var note: String?
    }

    var date = ISO8601DateFormatter().string(from: Date())
    var machine = MachineInfo.current
    var libcurlVersion = CurlDriverClient.libcurlVersion
    var nginxVersion: String?
    var quick: Bool
    var command: [String] = CommandLine.arguments
    var results: [Record] = []

    mutating func add(suite: BenchOptions.Suite, case name: String, client: String, figures: [String: Double], note: String? = nil) {
        results.append(Record(suite: suite.rawValue, case: name, client: client, figures: figures, note: note))
    }

    func write(to path: String) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: URL(fileURLWithPath: path))
    }
}
