import Salvo
import SalvoBulk

/// A way of showing a run: lines, a terminal display or JSON events.
protocol ToolReporter: Sendable {
    /// Shows one event of the run; called from any thread. `.summary` is ignored: the run's
    /// end comes through `finish`, after the manifest is written.
    func handle(_ event: BulkDownloader.Event)
    /// Shows the run's end.
    func finish(_ summary: BulkDownloader.Summary)
}
