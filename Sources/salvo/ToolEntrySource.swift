import Salvo
import SalvoBulk
import Synchronization

/// The entries of a run, handed to the downloader one at a time: the command line's URLs or
/// an input list read as a stream, less those outside `--shard`.
///
/// It also remembers the list's first bad line (the downloader only keeps its text), so the
/// tool can name the file and line, and can be stopped, so a Ctrl-C starts no new file even
/// before the downloader's own cancellation has reached its run.
final class ToolEntrySource: Sendable {
    private struct State: ~Copyable {
        var pending: [BulkEntry]
        var reader: BulkInputReader?
        var stopped = false
        var exhausted = false
        var inputError: BulkInputError?
    }

    /// How the list is named in messages: its path, or `(standard input)`.
    let listName: String
    private let shard: BulkShard?
    // The tool names `Synchronization.Mutex` throughout: in the ThreadSanitizer build Salvo's
    // own `Mutex` is visible here too, which makes a bare `Mutex` type ambiguous.
    private let state: Synchronization.Mutex<State>

    /// A source over entries known in advance (the command line's URLs).
    init(entries: [BulkEntry], shard: BulkShard?) {
        listName = "(command line)"
        self.shard = shard
        state = Synchronization.Mutex(State(pending: entries.reversed(), reader: nil))
    }

    /// A source over an input list, which it owns from now on.
    init(reader: sending BulkInputReader, listName: String, shard: BulkShard?) {
        self.listName = listName
        self.shard = shard
        state = Synchronization.Mutex(State(pending: [], reader: reader))
    }

    /// The next entry of this shard, or `nil` at the end or once stopped.
    ///
    /// - Throws: The list's `BulkInputError`, which ends reading: no later entry is started.
    func next() throws -> BulkEntry? {
        try state.withLock { (state: inout State) throws -> BulkEntry? in
            while !state.stopped, !state.exhausted {
                let entry: BulkEntry?
                if let reader = state.reader {
                    do throws(BulkInputError) {
                        entry = try reader.next()
                    } catch {
                        state.inputError = error
                        state.exhausted = true
                        throw error
                    }
                } else {
                    entry = state.pending.popLast()
                }
                guard let entry else {
                    state.exhausted = true
                    return nil
                }
                if shard?.contains(entry) ?? true { return entry }
            }
            return nil
        }
    }

    /// Starts no further entry.
    func stop() {
        state.withLock { $0.stopped = true }
    }

    /// Whether every entry has been handed out, so the run's total is known.
    var isExhausted: Bool { state.withLock { $0.exhausted } }

    /// The list's bad line, if reading stopped at one.
    var inputError: BulkInputError? { state.withLock { $0.inputError } }
}
