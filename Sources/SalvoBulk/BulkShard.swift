import Salvo
/// One share of a URL list split across machines by an outside scheduler: shard `index` of
/// `count`.
///
/// A URL belongs to the shard whose index is the FNV-1a 64-bit hash of its text, modulo the
/// shard count. The hash depends on the URL's bytes alone, so every machine, process and run
/// agrees on which shard holds it without talking to the others, and the shards of one list
/// partition it: each URL falls in exactly one. (Swift's `hashValue` is seeded per process
/// and would give every process a different split.)
public struct BulkShard: Hashable, Sendable, CustomStringConvertible {
    /// This shard's index, `0 ..< count`.
    public let index: Int

    /// How many shards the list is split into, at least 1.
    public let count: Int

    /// Shard `index` of `count`.
    ///
    /// - Parameters:
    ///   - index: The shard's index, from 0 to `count - 1`.
    ///   - count: The number of shards, at least 1.
    /// - Throws: `BulkValueError` when `count` is below 1 or `index` is outside `0 ..< count`.
    public init(index: Int, count: Int) throws(BulkValueError) {
        guard count >= 1 else { throw BulkValueError("shard count must be at least 1, not \(count)") }
        guard index >= 0, index < count else {
            throw BulkValueError("shard index must be from 0 to \(count - 1), not \(index)")
        }
        self.index = index
        self.count = count
    }

    /// Parses `K/N`, or `auto` for the scheduler's own variables.
    ///
    /// `auto` reads, from `environment`:
    /// - Kubernetes Indexed Jobs: `JOB_COMPLETION_INDEX` as the index and `SALVO_SHARDS` as
    ///   the count (the Job's `completions`, which Kubernetes does not pass to the pod);
    /// - otherwise Slurm job arrays: `SLURM_ARRAY_TASK_ID` minus `SLURM_ARRAY_TASK_MIN` (0 when
    ///   unset) as the index and `SLURM_ARRAY_TASK_COUNT` as the count.
    ///
    /// - Parameters:
    ///   - text: `K/N` with `0 <= K < N`, or `auto`.
    ///   - environment: The variables `auto` reads; the process's environment in the tool.
    /// - Throws: `BulkValueError` for a malformed or out-of-range shard, or for `auto` when
    ///   neither scheduler's variables are set or they do not describe a shard (a Slurm array
    ///   with a step or gaps gives an index past the count).
    public init(parsing text: String, environment: [String: String]) throws(BulkValueError) {
        if text == "auto" {
            self = try Self.fromScheduler(environment)
            return
        }
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.decimal(parts[0]), let count = Self.decimal(parts[1]) else {
            throw BulkValueError("shard '\(text)' is not K/N (such as 0/4) or 'auto'")
        }
        try self.init(index: index, count: count)
    }

    /// `true` when the URL text belongs to this shard.
    ///
    /// - Parameter urlText: The URL as written (for an entry, its first URI's `absoluteString`).
    public func contains(_ urlText: String) -> Bool {
        Self.stableHash(urlText) % UInt64(count) == UInt64(index)
    }

    /// `true` when the entry belongs to this shard, judged by its first URI, so all mirrors of
    /// one file stay together.
    ///
    /// - Parameter entry: An entry of the list; one without URIs is judged by the empty text.
    public func contains(_ entry: BulkEntry) -> Bool {
        contains(entry.uris.first?.absoluteString ?? "")
    }

    /// The FNV-1a 64-bit hash of the text's UTF-8 bytes: the same number on every machine and
    /// in every process. `stableHash("https://example.com/")` is `0x0C8B_41CF_DCB3_C914`
    /// (903888511234722068).
    ///
    /// - Parameter text: The text to hash.
    /// - Returns: The hash.
    public static func stableHash(_ text: String) -> UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in text.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// `K/N`.
    public var description: String { "\(index)/\(count)" }

    private static func fromScheduler(_ environment: [String: String]) throws(BulkValueError) -> BulkShard {
        if let completionIndex = environment["JOB_COMPLETION_INDEX"] {
            guard let index = decimal(completionIndex) else {
                throw BulkValueError("--shard auto: JOB_COMPLETION_INDEX '\(completionIndex)' is not a number")
            }
            guard let shards = environment["SALVO_SHARDS"] else {
                throw BulkValueError("--shard auto: JOB_COMPLETION_INDEX is set but SALVO_SHARDS (the Job's completions) is not")
            }
            guard let count = decimal(shards) else {
                throw BulkValueError("--shard auto: SALVO_SHARDS '\(shards)' is not a number")
            }
            return try BulkShard(index: index, count: count)
        }
        if let taskID = environment["SLURM_ARRAY_TASK_ID"] {
            guard let id = decimal(taskID) else {
                throw BulkValueError("--shard auto: SLURM_ARRAY_TASK_ID '\(taskID)' is not a number")
            }
            var minimum = 0
            if let text = environment["SLURM_ARRAY_TASK_MIN"] {
                guard let value = decimal(text) else {
                    throw BulkValueError("--shard auto: SLURM_ARRAY_TASK_MIN '\(text)' is not a number")
                }
                minimum = value
            }
            guard let countText = environment["SLURM_ARRAY_TASK_COUNT"] else {
                throw BulkValueError("--shard auto: SLURM_ARRAY_TASK_ID is set but SLURM_ARRAY_TASK_COUNT is not")
            }
            guard let count = decimal(countText) else {
                throw BulkValueError("--shard auto: SLURM_ARRAY_TASK_COUNT '\(countText)' is not a number")
            }
            guard id >= minimum, id - minimum < count else {
                throw BulkValueError(
                    "--shard auto: Slurm task \(id) is not within \(count) tasks from \(minimum) (arrays with a step or gaps cannot be sharded)")
            }
            return try BulkShard(index: id - minimum, count: count)
        }
        throw BulkValueError(
            "--shard auto: neither JOB_COMPLETION_INDEX (Kubernetes Indexed Job) nor SLURM_ARRAY_TASK_ID (Slurm array) is set")
    }

    /// Plain decimal digits only: `Int("+3")` would accept a sign.
    private static func decimal(_ text: some StringProtocol) -> Int? {
        guard !text.isEmpty, text.utf8.count <= 18,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }
}
