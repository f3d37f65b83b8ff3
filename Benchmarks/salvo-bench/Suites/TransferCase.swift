/// One case of the transfers suite: files of one size, downloaded or uploaded, so many at
/// a time; or one file fetched in ranges from a location that limits each connection's rate.
struct TransferCase: Sendable {
    enum Direction: String, Sendable {
        case download, upload
    }

    var direction: Direction
    /// Files moved.
    var count: Int
    /// Bytes per file.
    var size: Int
    /// Transfers at once.
    var parallel: Int
    /// Ranges of each file fetched at once, each on a connection of its own, from nginx's
    /// rate-limited `limited/`; 1: whole files from `files/`.
    var split: Int = 1

    /// Whether the clients' directories stay until the case's last round has run: ext4 makes
    /// creating files right after many were deleted several times dearer (its allocator scans
    /// the freed inodes), which swung the many-small-files rows by half from run to run, to
    /// the disadvantage of whichever client came after another's cleanup.
    var keepsFilesUntilItEnds: Bool { direction == .download && count > 16 }

    /// The name the tables and the JSON use, e.g. "download 1000 × 100 KiB, 16 at once".
    var name: String {
        let verb = direction == .download ? "download" : "upload"
        if split > 1 {
            let rate = TransferCase.sizeText(NginxConfiguration.limitedRate)
            return "\(verb) \(Self.sizeText(size)) in \(split) ranges, \(rate)/s per connection"
        }
        let files = count == 1 ? Self.sizeText(size) : "\(count) × \(Self.sizeText(size))"
        return count == 1 ? "\(verb) \(files)" : "\(verb) \(files), \(parallel) at once"
    }

    /// The names of the files this case serves from the document root's `files/`.
    var fileNames: [String] {
        (0..<count).map { "\(Self.sizeText(size).replacingOccurrences(of: " ", with: ""))-\($0)" }
    }

    /// The URL path (relative to nginx's root) a file of this case is fetched from.
    func urlPath(_ name: String) -> String {
        (split > 1 ? "limited/" : "files/") + name
    }

    /// The cases of a run: the full ones, or small ones that prove the suite works.
    static func all(quick: Bool) -> [TransferCase] {
        if quick {
            return [TransferCase(direction: .download, count: 100, size: 100 << 10, parallel: 16),
                    TransferCase(direction: .download, count: 2, size: 8 << 20, parallel: 2),
                    TransferCase(direction: .download, count: 1, size: 64 << 20, parallel: 1, split: 8),
                    TransferCase(direction: .upload, count: 1, size: 8 << 20, parallel: 1)]
        }
        return [TransferCase(direction: .download, count: 1000, size: 100 << 10, parallel: 16),
                TransferCase(direction: .download, count: 4, size: 256 << 20, parallel: 4),
                TransferCase(direction: .download, count: 1, size: 1 << 30, parallel: 1, split: 8),
                TransferCase(direction: .upload, count: 1, size: 256 << 20, parallel: 1)]
    }

    static func sizeText(_ bytes: Int) -> String {
        if bytes >= 1 << 30 && bytes % (1 << 30) == 0 { return "\(bytes >> 30) GiB" }
        return bytes >= 1 << 20 ? "\(bytes >> 20) MiB" : "\(bytes >> 10) KiB"
    }
}
