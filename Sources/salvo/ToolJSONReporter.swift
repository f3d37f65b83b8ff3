import Salvo
import SalvoBulk
import Synchronization

/// `--json`: one JSON object per line on standard output for each event, for programs to
/// follow a run. Progress is thinned to one line per file every half second: the downloader
/// reports up to ten a second per file, too many to be worth parsing.
final class ToolJSONReporter: ToolReporter {
    private static let progressInterval: Duration = .milliseconds(500)
    /// When each file in flight last had a progress line; the lock also orders the lines.
    private let lastProgress = Synchronization.Mutex([Int: ContinuousClock.Instant]())

    func handle(_ event: BulkDownloader.Event) {
        lastProgress.withLock { lastProgress in
            guard let line = line(for: event, lastProgress: &lastProgress) else { return }
            ToolOutput.out(line.text)
        }
    }

    func finish(_ summary: BulkDownloader.Summary) {
        var line = ToolJSONLine(event: "summary")
        line.add("done", summary.succeeded)
        line.add("failed", summary.failed)
        line.add("skipped", summary.alreadyComplete)
        line.add("stopped", summary.cancelled)
        line.add("bytes", summary.bytes)
        line.add("seconds", summary.seconds)
        line.add("bytes_per_second", summary.seconds > 0 ? Double(summary.bytes) / summary.seconds : 0)
        line.add("interrupted", summary.wasCancelled)
        line.add("input_error", summary.inputError)
        lastProgress.withLock { _ in ToolOutput.out(line.text) }
    }

    private func line(for event: BulkDownloader.Event, lastProgress: inout [Int: ContinuousClock.Instant]) -> ToolJSONLine? {
        switch event {
        case let .started(file):
            var line = Self.fileLine("start", file)
            line.add("out", file.entry.outputName)
            return line
        case let .progress(file, bytes, total):
            let now = ContinuousClock.now
            if let last = lastProgress[file.index], now - last < Self.progressInterval { return nil }
            lastProgress[file.index] = now
            var line = Self.fileLine("progress", file)
            line.add("bytes", bytes)
            if let total { line.add("total", total) } else { line.add("total", nil as String?) }
            return line
        case let .retrying(file, attempt, reason, delay):
            var line = Self.fileLine("retry", file)
            line.add("attempt", attempt)
            line.add("delay", delay)
            line.add("reason", reason)
            return line
        case let .rangesUnavailable(file, reason):
            var line = Self.fileLine("single_connection", file)
            line.add("reason", reason)
            return line
        case let .finished(result):
            lastProgress[result.file.index] = nil
            return Self.finishedLine(result)
        case .summary:
            return nil
        }
    }

    private static func fileLine(_ event: String, _ file: BulkDownloader.File) -> ToolJSONLine {
        var line = ToolJSONLine(event: event)
        line.add("index", file.index)
        line.add("url", file.entry.uris.first.map(ToolURLText.shown))
        return line
    }

    /// `done`, `error`, `cancelled` for a file stopped by Ctrl-C (its partial file is kept),
    /// or `skipped` for a file `--continue` found whole under its final name.
    private static func finishedLine(_ result: BulkDownloader.FileResult) -> ToolJSONLine {
        let event: String
        switch result.outcome {
        case .succeeded: event = "done"
        case .failed: event = "error"
        case .cancelled: event = "cancelled"
        case .alreadyComplete: event = "skipped"
        }
        var line = ToolJSONLine(event: event)
        line.add("index", result.file.index)
        line.add("url", ToolSummary.url(of: result))
        line.add("path", result.path?.path)
        line.add("bytes", result.bytes)
        if result.succeeded { line.add("sha256", result.sha256) }
        line.add("attempts", result.attempts)
        line.add("seconds", result.seconds)
        if let reason = result.failureReason { line.add("reason", reason) }
        return line
    }
}
