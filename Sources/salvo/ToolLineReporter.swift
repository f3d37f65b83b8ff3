import Salvo
import SalvoBulk
import Synchronization

/// The display when standard output is not a terminal (a log, a pipe, CI): one line per
/// finished file, then the summary; with `-q`, only the summary's failure lines, on
/// standard error.
final class ToolLineReporter: ToolReporter {
    private let quiet: Bool
    /// The summary's failures; the lock also keeps lines from two files from interleaving.
    private let summary = Synchronization.Mutex(ToolSummary())

    init(quiet: Bool) {
        self.quiet = quiet
    }

    func handle(_ event: BulkDownloader.Event) {
        if case let .rangesUnavailable(file, reason) = event {
            if !quiet { summary.withLock { _ in ToolOutput.out(Self.singleConnectionLine(file, reason: reason) + "\n") } }
            return
        }
        guard case let .finished(result) = event else { return }
        summary.withLock { summary in
            summary.record(result)
            if !quiet { ToolOutput.out(Self.line(result) + "\n") }
        }
    }

    func finish(_ runSummary: BulkDownloader.Summary) {
        summary.withLock { summary in
            if quiet {
                for line in summary.failureLines { ToolOutput.error(line + "\n") }
            } else {
                ToolOutput.out(summary.lines(runSummary).map { $0 + "\n" }.joined())
            }
        }
    }

    /// `one connection  URL: REASON`, for a file `--split` could not cut into ranges.
    static func singleConnectionLine(_ file: BulkDownloader.File, reason: String) -> String {
        "one connection  \(file.entry.uris.first.map(ToolURLText.shown) ?? "?"): \(reason)"
    }

    /// `done  PATH  BYTES`, `available  URL` (a dry run), `skipped  PATH  BYTES  already
    /// complete`, `FAILED URL: REASON` or `stopped  URL  partial PATH`.
    static func line(_ result: BulkDownloader.FileResult) -> String {
        switch result.outcome {
        case .succeeded where result.filePath == nil:
            return "available  \(ToolSummary.url(of: result))"
        case .succeeded:
            return "done  \(result.path?.path ?? "?")  \(result.bytes)"
        case let .failed(reason):
            return ToolSummary.failureLine(result, reason: reason)
        case .alreadyComplete:
            return "skipped  \(result.path?.path ?? "?")  \(result.bytes)  already complete"
        case .cancelled:
            let kept = result.path.map { "  partial \($0.path) kept for --continue" } ?? ""
            return "stopped  \(ToolSummary.url(of: result))\(kept)"
        }
    }
}
