import Foundation
import Salvo
import SalvoBulk

/// The end-of-run report the line and terminal displays share: what finished, and every
/// failure with its reason. Only failures are kept, so a run of millions of files does not
/// hold a record of each.
struct ToolSummary {
    private var failures: [String] = []

    /// Notes a finished file.
    mutating func record(_ result: BulkDownloader.FileResult) {
        if let reason = result.failureReason { failures.append(Self.failureLine(result, reason: reason)) }
    }

    /// `FAILED url: reason`.
    static func failureLine(_ result: BulkDownloader.FileResult, reason: String) -> String {
        "FAILED \(ToolSummary.url(of: result)): \(reason)"
    }

    /// The URL the file was last tried from, else its first.
    static func url(of result: BulkDownloader.FileResult) -> String {
        (result.url ?? result.file.entry.uris.first).map(ToolURLText.shown) ?? "?"
    }

    /// The totals line, then one line per failure.
    func lines(_ summary: BulkDownloader.Summary) -> [String] {
        var totals = "summary: \(summary.succeeded) done, \(summary.failed) failed, \(summary.alreadyComplete) skipped"
        if summary.cancelled > 0 { totals += ", \(summary.cancelled) stopped" }
        totals += "; "
        totals += "\(summary.bytes) bytes (\(ToolUnits.bytes(summary.bytes))) in \(ToolUnits.duration(summary.seconds)), "
        totals += "mean \(ToolUnits.rate(bytes: summary.bytes, seconds: summary.seconds))"
        if summary.wasCancelled { totals += "; interrupted, files not started were left" }
        return [totals] + failures
    }

    /// Only the failure lines, for `-q`.
    var failureLines: [String] { failures }
}
