import Foundation

/// The clients the transfers suite compares, each run in a child process of its own.
enum TransferClient: String, CaseIterable, Codable, Sendable {
    /// Salvo's `download(_:to:)` and `upload(_:to:)`, as configured by default.
    case salvo
    /// The same with libcurl's receive buffer at 100 KiB, as the curl tool sets it.
    case salvoBuffer = "salvo-100k"
    /// The curl tool: `curl --parallel`.
    case curl
    /// aria2c, when installed (downloads only).
    case aria2c

    /// Salvo's clients (the ratios' numerators).
    var isSalvo: Bool { self == .salvo || self == .salvoBuffer }

    /// The outside tool's executable on `PATH`, for curl and aria2c.
    var toolPath: String? {
        guard !isSalvo else { return nil }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(rawValue)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Why this client cannot run a case, or `nil` when it can.
    func unavailability(for transfer: TransferCase) -> String? {
        if !isSalvo && toolPath == nil {
            return "\(rawValue) is not installed" + (self == .aria2c ? " (apt-get install aria2)" : "")
        }
        if self == .aria2c && transfer.direction == .upload { return "aria2c cannot upload" }
        return nil
    }
}
