import Foundation
import Salvo

extension BulkDownloader {
    /// One file of a run: the entry, and where it stands in the input.
    public struct File: Hashable, Sendable {
        /// The entry's position among the run's entries, from 0.
        public let index: Int
        /// The entry.
        public let entry: BulkEntry

        /// Creates a file.
        ///
        /// - Parameters:
        ///   - index: The position, from 0.
        ///   - entry: The entry.
        public init(index: Int, entry: BulkEntry) {
            self.index = index
            self.entry = entry
        }
    }

    /// What a run reports, in order for each file: `started`, any `progress`, `retrying` and
    /// `rangesUnavailable`, then `finished`; and `summary` once, last.
    public enum Event: Sendable {
        /// The file's first attempt is starting.
        case started(File)
        /// Bytes of the file are on disk: `bytes` of `total` (when the server said it).
        /// At most about ten a second per file.
        case progress(File, bytes: Int64, total: Int64?)
        /// An attempt failed for `reason`; attempt number `attempt` (counted over the file's
        /// URIs, from 1) starts after `delay` seconds.
        case retrying(File, attempt: Int, reason: String, delay: TimeInterval)
        /// The file is fetched over one connection although `Options.split` asked for
        /// ranges: `reason` says why (the server ignores ranges, or its range answer gives no
        /// length or validator). At most once per file.
        case rangesUnavailable(File, reason: String)
        /// The file is done: downloaded, failed or left to be continued.
        case finished(FileResult)
        /// The run is over.
        case summary(Summary)
    }

    /// How one file ended.
    public struct FileResult: Sendable {
        /// How the file ended.
        public enum Outcome: Equatable, Sendable {
            /// Complete and verified, under its final name.
            case succeeded
            /// Failed for good; nothing is under its final name.
            case failed(reason: String)
            /// The run was cancelled first; its `.part` and sidecar, if any bytes came with a
            /// validator, are left to be continued.
            case cancelled
            /// With `continuePartial`, the file was already whole under its final name: its
            /// checksum matched (no request was made), or its size is the length the server
            /// gave. Nothing was written.
            case alreadyComplete
        }

        /// The file.
        public let file: File
        /// The URI the last attempt used, if one was made.
        public let url: URL?
        /// The final file when it succeeded; the partial file left for a later run when it
        /// was cancelled or failed with resumable bytes; else `nil`.
        public var path: URL? { filePath.map { URL(fileURLWithPath: $0, isDirectory: false) } }
        /// `path` as the file system path the downloader used. The `URL` is made only when
        /// asked for: most results are only counted, and making one cost more than a file's
        /// rename.
        package let filePath: String?
        /// The file's bytes on disk (the whole file when it succeeded).
        public let bytes: Int64
        /// The bytes received over the network in this run.
        public let bytesReceived: Int64
        /// The bytes of an earlier run's partial file this run continued, or 0.
        public let resumedFrom: Int64
        /// The file's SHA-256 in lowercase hexadecimal, when it succeeded and it was computed
        /// (`Options.recordsSHA256`, or an entry checksum of that function).
        public let sha256: String?
        /// The attempts made, over all URIs.
        public let attempts: Int
        /// Seconds from the file's start to its end.
        public let seconds: TimeInterval
        /// How it ended.
        public let outcome: Outcome

        /// Whether the file succeeded.
        public var succeeded: Bool { outcome == .succeeded }

        /// Why the file failed, or `nil`.
        public var failureReason: String? {
            if case let .failed(reason) = outcome { return reason }
            return nil
        }
    }

    /// What a run did, in sum.
    public struct Summary: Equatable, Sendable {
        /// Files complete and verified.
        public var succeeded = 0
        /// Files that failed.
        public var failed = 0
        /// Files stopped by cancellation.
        public var cancelled = 0
        /// Bytes of the files that succeeded.
        public var bytes: Int64 = 0
        /// Seconds the run took.
        public var seconds: TimeInterval = 0
        /// Whether the run was cancelled (so entries may have been left unstarted).
        public var wasCancelled = false
        /// Why reading the entries stopped early, if it did: no later entry was started.
        public var inputError: String?
        /// Files already whole under their final names (`FileResult.Outcome.alreadyComplete`).
        public var alreadyComplete = 0
        /// How many times a transfer waited for `Options.maximumOverallRate`.
        public var overallRateWaits = 0

        /// Whether every file started succeeded and the input was read to its end.
        public var isComplete: Bool { failed == 0 && cancelled == 0 && !wasCancelled && inputError == nil }
    }
}
