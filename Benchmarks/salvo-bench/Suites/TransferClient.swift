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
    /// `curl --parallel`, then `sha256sum -c` and a flush of each file (coreutils `sync` with
    /// the file names): the `salvo` tool's default guarantees, by hand, timed as one.
    case curlChecked = "curl+sha256+sync"
    /// aria2c, when installed (downloads only).
    case aria2c
    /// aria2c given each file's sha-256 in its input list, which it checks once the file is
    /// complete (it does not flush).
    case aria2cChecked = "aria2c+sha256"

    /// Salvo's clients, library or tool: the ratios' numerators.
    var isOurs: Bool { ![.curl, .curlChecked, .aria2c, .aria2cChecked].contains(self) }

    /// The clients that check each file's sha-256: the `salvo` tool row is given the same
    /// checksums, so these three compare like with like.
    var verifiesChecksums: Bool { [.salvoTool, .curlChecked, .aria2cChecked].contains(self) }

    /// The library clients, which run inside the measuring child itself; the others are
    /// executables that child spawns.
    var runsInProcess: Bool { self == .salvo || self == .salvoBuffer }

    /// The `salvo` tool's clients.
    var isSalvoTool: Bool { self == .salvoTool || self == .salvoToolNoFsync }

    /// The program an outside client runs: curl or aria2c, checked or not.
    private var program: String {
        switch self {
        case .curlChecked: "curl"
        case .aria2cChecked: "aria2c"
        default: rawValue
        }
    }

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
        return path.split(separator: ":").map { "\($0)/\(program)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Why this client cannot run a case, or `nil` when it can.
    func unavailability(for transfer: TransferCase) -> String? {
        if runsInProcess && transfer.split > 1 { return "the library fetches one range per request" }
        if transfer.direction == .upload {
            if self == .aria2c || self == .aria2cChecked { return "aria2c cannot upload" }
            if isSalvoTool { return "the salvo tool downloads only" }
            if self == .curlChecked { return "compared on downloads only" }
        }
        if transfer.split > 1 && (self == .curlChecked || self == .aria2cChecked) {
            return "compared on whole files only"
        }
        if !runsInProcess && toolPath == nil {
            if isSalvoTool { return "build it with swift build -c release --product salvo" }
            return "\(program) is not installed" + (program == "aria2c" ? " (apt-get install aria2)" : "")
        }
        return nil
    }
}
