import Foundation

/// The machine a run happened on.
struct MachineInfo: Encodable {
    var cpuModel: String
    var cores: Int
    var operatingSystem: String
    /// The one-minute load average when the run started: other work on the machine makes
    /// the figures noisy.
    var loadAverage: Double

    static var current: MachineInfo {
        MachineInfo(cpuModel: field("model name", in: "/proc/cpuinfo", separator: ":") ?? "unknown",
                    cores: ProcessInfo.processInfo.activeProcessorCount,
                    operatingSystem: field("PRETTY_NAME", in: "/etc/os-release", separator: "=")?
                        .trimmingCharacters(in: CharacterSet(charactersIn: "\"")) ?? "unknown",
                    loadAverage: (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))
                        .flatMap { $0.split(separator: " ").first }.flatMap { Double($0) } ?? 0)
    }

    /// The value of the first `key<separator>value` line of a file.
    private static func field(_ key: String, in path: String, separator: Character) -> String? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: separator, maxSplits: 1)
            if parts.count == 2, parts[0].trimmingCharacters(in: .whitespaces) == key {
                return parts[1].trimmingCharacters(in: .whitespaces)
            }
        }
        return nil
    }
}
