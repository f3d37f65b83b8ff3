import Synchronization

/// The file names a run has given out, so two entries never write the same file.
///
/// The first entry to claim a name gets it; a later one that maps to the same name gets
/// ` (1)`, ` (2)`, … inserted before the extension: `a.txt`, `a (1).txt`, `a (2).txt`.
/// Names are compared as the paths they are, relative to the run's directory.
final class BulkNameClaims: Sendable {
    private let taken = Mutex(Set<String>())

    /// The longest final name in bytes: room is left for ` (N)` and for `.part.json`, so the
    /// partial file and its sidecar fit in Linux's 255-byte `NAME_MAX` too.
    static let maximumNameLength = 255 - ".part.json".utf8.count - " (999999)".utf8.count

    /// Claims `path` (directory and name), or the first free variant of it.
    ///
    /// - Parameter path: The path of the file, `/`-separated; its last component is the name.
    /// - Returns: The path claimed.
    func claim(_ path: String) -> String {
        taken.withLock { taken in
            if taken.insert(path).inserted { return path }
            var number = 1
            while true {
                let candidate = Self.numbered(path, number)
                if taken.insert(candidate).inserted { return candidate }
                number += 1
            }
        }
    }

    /// Claims `path` only if no entry has it yet.
    ///
    /// - Returns: Whether `path` is now this caller's.
    func claimIfFree(_ path: String) -> Bool {
        taken.withLock { $0.insert(path).inserted }
    }

    /// `path` with ` (number)` inserted before the extension of its last component. A leading
    /// dot (`.profile`) is not an extension.
    static func numbered(_ path: String, _ number: Int) -> String {
        let slash = path.lastIndex(of: "/")
        let nameStart = slash.map { path.index(after: $0) } ?? path.startIndex
        let name = path[nameStart...]
        if let dot = name.lastIndex(of: "."), dot != name.startIndex {
            return String(path[..<dot]) + " (\(number))" + String(path[dot...])
        }
        return path + " (\(number))"
    }

    /// `name` cut to `maximumNameLength` bytes of whole characters, keeping an extension of up
    /// to 16 bytes.
    static func fitted(_ name: String) -> String {
        name.utf8.count > maximumNameLength ? NetworkFileName.truncated(name, to: maximumNameLength) : name
    }
}
