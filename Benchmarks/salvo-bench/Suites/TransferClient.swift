import Foundation

/// The clients the transfers suite compares, each run in a child process of its own.
enum TransferClient: String, CaseIterable, Codable, Sendable {
    /// Salvo's `download(_:to:)` and `upload(_:to:)`, as configured by default.
    case salvo
    /// The same with libcurl's receive buffer at 100 KiB, as the curl tool sets it.
    case salvoBuffer = "salvo-100k"
    /// The `salvo` download tool as a user runs it: every file flushed to the disk before
    /// its rename.
    case salvoTool = "salvo-tool"
    /// The `salvo` tool with `--no-fsync`: the durability curl and aria2c offer.
    case salvoToolNoFsync = "salvo-tool-nofsync"
    /// The curl tool: `curl --parallel`.
    case curl
    /// aria2c, when installed (downloads only).
    case aria2c

    /// Salvo's clients, library or tool: the ratios' numerators.
    var isOurs: Bool { self != .curl && self != .aria2c }

    /// The library clients, which run inside the measuring child itself; the others are
    /// executables that child spawns.
    var runsInProcess: Bool { self == .salvo || self == .salvoBuffer }

    /// The `salvo` tool's clients.
    var isSalvoTool: Bool { self == .salvoTool || self == .salvoToolNoFsync }

    /// The executable of a client that is not run in process: the `salvo` tool built next
    /// to this benchmark, or curl or aria2c on `PATH`.
    var toolPath: String? {
        if runsInProcess { return nil }
        if isSalvoTool {
            // The same build produces both executables, so the tool matches these sources.
            let path = URL(fileURLWithPath: ChildProcess.executable).deletingLastPathComponent().appendingPathComponent("salvo").path
            return FileManager.default.isExecutableFile(atPath: path) ? path : nil
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(rawValue)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Why this client cannot run a case, or `nil` when it can.
    func unavailability(for transfer: TransferCase) -> String? {
        if runsInProcess && transfer.split > 1 { return "the library fetches one range per request" }
        if transfer.direction == .upload {
            if self == .aria2c { return "aria2c cannot upload" }
            if isSalvoTool { return "the salvo tool downloads only" }
        }
        if !runsInProcess && toolPath == nil {
            if isSalvoTool { return "build it with swift build -c release --product salvo" }
            return "\(rawValue) is not installed" + (self == .aria2c ? " (apt-get install aria2)" : "")
        }
        return nil
    }
}
