import Synchronization
import Salvo

/// The file names a run has given out or found taken, so its entries try each name on the
/// file system at most once.
///
/// The file system is what decides (`BulkPartClaimer`); this is the run's memory of it. A
/// name is tried as given, then with ` (1)`, ` (2)`, … inserted before the extension:
/// `a.txt`, `a (1).txt`, `a (2).txt`. Names are compared as the paths they are, relative to
/// the run's directory.
///
/// A run of millions of files keeps only a hash of each name, 8 bytes (`BulkNameHashes`;
/// its memory must not grow with the names' length), and for each name that was claimed
/// twice the next number to try (so
/// a list of a million `download?id=N` URLs, all named `download`, numbers them in linear
/// time). Two different names with one hash, about one chance in 10^13 for a million
/// names, only cost one of them a needless number.
final class BulkNameClaims: Sendable {
    private struct State: ~Copyable {
        var taken = BulkNameHashes()
        /// For a name claimed more than once: the number its next claim tries first.
        var nextNumber: [Int: Int] = [:]
        /// Finished files an entry found as its own earlier work, so a second entry for the
        /// same URL does not report the same file.
        var found = BulkNameHashes()
        /// Names claimed and given back unused (`release`), free to claim again.
        var released = Set<Int>()
    }

    /// The state in a box of its own, so that the lock holds a copyable reference: the
    /// ThreadSanitizer build's `Mutex` (which the sanitizer can see, unlike
    /// `Synchronization.Mutex`'s futex) holds only copyable values, and files claim names from
    /// many threads at once.
    private final class Box {
        var state = State()
    }

    private let state = Mutex(Box())

    /// The longest final name in bytes: room is left for ` (N)` and for `.part.json`, so the
    /// partial file and its sidecar fit in Linux's 255-byte `NAME_MAX` too.
    static let maximumNameLength = 255 - ".part.json".utf8.count - " (999999)".utf8.count

    /// Claims `path` (directory and name), or the first free variant of it.
    ///
    /// - Parameter path: The path of the file, `/`-separated; its last component is the name.
    /// - Returns: The path claimed.
    func claim(_ path: String) -> String {
        state.withLock { box -> String in
            let key = path.hashValue
            if box.state.taken.insert(key) || box.state.released.remove(key) != nil { return path }
            var number = box.state.nextNumber[key] ?? 1
            while true {
                let candidate = Self.numbered(path, number)
                number += 1
                let hash = candidate.hashValue
                if box.state.taken.insert(hash) || box.state.released.remove(hash) != nil {
                    box.state.nextNumber[key] = number
                    return candidate
                }
            }
        }
    }

    /// Gives back a name `claim` returned that its file did not use (claimed before any
    /// response, which then named the file otherwise, or never came): the next claim of it
    /// gets it again. The caller has removed the name's partial file first.
    func release(_ path: String) {
        state.withLock { box in _ = box.state.released.insert(path.hashValue) }
    }

    /// Records that an entry found its own earlier file at `path`, and marks the name taken.
    ///
    /// - Returns: Whether no entry had found it before.
    func recordFound(_ path: String) -> Bool {
        state.withLock { box -> Bool in
            _ = box.state.taken.insert(path.hashValue)
            return box.state.found.insert(path.hashValue)
        }
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
