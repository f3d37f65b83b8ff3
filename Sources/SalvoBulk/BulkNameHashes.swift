#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Salvo

/// A set of 64-bit name hashes that costs 8 bytes per hash, for `BulkNameClaims` over lists
/// of millions of files.
///
/// Swift's `Set<Int>` keeps a quarter of its buckets free and doubles when full, so a million
/// hashes take 16 MiB, and 24 MiB while it grows. Here the hashes live in one sorted buffer
/// grown with `realloc` (which moves no bytes for a large block on Linux: the kernel remaps
/// its pages), plus a small `Set` of recent insertions that is merged into the buffer, in
/// place from the back, whenever it fills.
struct BulkNameHashes: ~Copyable {
    /// Insertions kept apart before a merge: small enough to scan cheaply, large enough that
    /// merges (each moving the whole buffer) stay rare.
    static let recentLimit = 1 << 16

    private var sorted: UnsafeMutablePointer<Int>?
    private var sortedCount = 0
    private var recent = Set<Int>()

    init() {}

    deinit {
        free(sorted)
    }

    /// The hashes held.
    var count: Int { sortedCount + recent.count }

    func contains(_ hash: Int) -> Bool {
        recent.contains(hash) || sortedIndex(of: hash).found
    }

    /// Adds `hash`; returns whether it was new.
    mutating func insert(_ hash: Int) -> Bool {
        if contains(hash) { return false }
        recent.insert(hash)
        if recent.count >= Self.recentLimit { merge() }
        return true
    }

    /// Binary search of the sorted buffer: whether `hash` is there, and where it is or would go.
    private func sortedIndex(of hash: Int) -> (index: Int, found: Bool) {
        guard let sorted else { return (0, false) }
        var low = 0
        var high = sortedCount
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < hash { low = middle + 1 } else { high = middle }
        }
        return (low, low < sortedCount && sorted[low] == hash)
    }

    /// Moves the recent hashes into the sorted buffer.
    private mutating func merge() {
        let incoming = recent.sorted()
        let total = sortedCount + incoming.count
        guard let grown = realloc(sorted, total * MemoryLayout<Int>.stride)?.assumingMemoryBound(to: Int.self) else {
            // Out of memory: keep them apart rather than lose them.
            return
        }
        // Merge from the back, so nothing is overwritten before it has moved.
        var write = total - 1
        var old = sortedCount - 1
        var new = incoming.count - 1
        while new >= 0 {
            if old >= 0 && grown[old] > incoming[new] {
                grown[write] = grown[old]
                old -= 1
            } else {
                grown[write] = incoming[new]
                new -= 1
            }
            write -= 1
        }
        sorted = grown
        sortedCount = total
        recent.removeAll(keepingCapacity: true)
    }
}
