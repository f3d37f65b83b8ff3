import Salvo
import SalvoBulk
import Synchronization

/// The display when standard output is a terminal: an overall line (files done of those
/// started so far, bytes, rate, and the ETA once the total is known) and a line per file in
/// flight, redrawn in place with ANSI escapes at most ten times a second. Finished files
/// scroll above it as lines; the summary replaces it at the end.
final class ToolTerminalReporter: ToolReporter {
    /// Files in flight shown by name; the rest are counted on one line, so the block stays
    /// shorter than a terminal.
    private static let shownFiles = 8

    private struct Active {
        var name: String
        var bytes: Int64 = 0
        var total: Int64?
    }

    private struct State {
        var active: [Int: Active] = [:]
        var started = 0
        var done = 0
        var failed = 0
        var finishedBytes: Int64 = 0
        /// Finished files' lines waiting for the next redraw.
        var scrolled: [String] = []
        /// Lines of the block on screen, to move up over at the next redraw.
        var drawnLines = 0
        var hasDrawn = false
        var dirty = false
        /// Set by `finish`: a redraw already waiting for the lock must not draw after the summary.
        var finished = false
        var summary = ToolSummary()
    }

    private let begun = ContinuousClock.now
    private let inputExhausted: @Sendable () -> Bool
    private let state = Synchronization.Mutex(State())
    private let columns = ToolOutput.terminalColumns
    /// The task that redraws ten times a second while the run lasts.
    private let ticker = Synchronization.Mutex<Task<Void, Never>?>(nil)

    /// - Parameter inputExhausted: Whether every entry has been started, so the total is known.
    init(inputExhausted: @escaping @Sendable () -> Bool) {
        self.inputExhausted = inputExhausted
        let task = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: .milliseconds(100))
                guard let self else { return }
                self.redraw(force: false)
            }
        }
        ticker.withLock { $0 = task }
    }

    func handle(_ event: BulkDownloader.Event) {
        let first = state.withLock { state -> Bool in
            switch event {
            case let .started(file):
                state.started += 1
                state.active[file.index] = Active(name: Self.name(of: file))
            case let .progress(file, bytes, total):
                state.active[file.index, default: Active(name: Self.name(of: file))].bytes = bytes
                state.active[file.index]?.total = total
            case .retrying:
                break
            case let .rangesUnavailable(file, reason):
                state.scrolled.append(ToolLineReporter.singleConnectionLine(file, reason: reason))
            case let .finished(result):
                state.active[result.file.index] = nil
                state.summary.record(result)
                if result.succeeded {
                    state.done += 1
                    state.finishedBytes += result.bytes
                } else if result.outcome == .alreadyComplete {
                    state.done += 1
                } else if result.failureReason != nil {
                    state.failed += 1
                }
                state.scrolled.append(ToolLineReporter.line(result))
            case .summary:
                return false
            }
            state.dirty = true
            return !state.hasDrawn
        }
        // The first file shows at once; later changes wait for the timer, which caps redraws.
        if first { redraw(force: true) }
    }

    func finish(_ summary: BulkDownloader.Summary) {
        ticker.withLock { ticker in
            ticker?.cancel()
            ticker = nil
        }
        state.withLock { state in
            var text = Self.clear(state.drawnLines)
            text += state.scrolled.map { $0 + "\n" }.joined()
            text += state.summary.lines(summary).map { $0 + "\n" }.joined()
            state.scrolled = []
            state.drawnLines = 0
            state.finished = true
            ToolOutput.out(text)
        }
    }

    private func redraw(force: Bool) {
        let exhausted = inputExhausted()
        state.withLock { state in
            guard !state.finished, force || state.dirty else { return }
            let block = lines(state, exhausted: exhausted)
            var text = Self.clear(state.drawnLines)
            text += state.scrolled.map { $0 + "\n" }.joined()
            text += block.map { String($0.prefix(columns)) + "\n" }.joined()
            state.scrolled = []
            state.drawnLines = block.count
            state.hasDrawn = true
            state.dirty = false
            ToolOutput.out(text)
        }
    }

    /// Moves up over the block and clears from there down (`ESC [ n A`, `ESC [ J`).
    private static func clear(_ lines: Int) -> String {
        lines > 0 ? "\u{1B}[\(lines)A\r\u{1B}[J" : ""
    }

    private func lines(_ state: State, exhausted: Bool) -> [String] {
        let seconds = ToolUnits.seconds(since: begun)
        let activeBytes = state.active.values.reduce(Int64(0)) { $0 + $1.bytes }
        let bytes = state.finishedBytes + activeBytes
        let total = exhausted ? "\(state.started)" : "\(state.started)+"
        var overall = "[\(state.done)/\(total) files"
        if state.failed > 0 { overall += ", \(state.failed) failed" }
        overall += "] \(ToolUnits.bytes(bytes))  \(ToolUnits.rate(bytes: bytes, seconds: seconds))"
        // The ETA needs the bytes still to come: known once every entry has started and every
        // file in flight has told its size.
        let remaining = state.active.values.reduce(Int64(0)) { sum, file in
            guard let total = file.total, sum >= 0 else { return -1 }
            return sum + max(0, total - file.bytes)
        }
        if exhausted, remaining >= 0, bytes > 0, seconds > 0 {
            overall += "  ETA \(ToolUnits.duration(Double(remaining) / (Double(bytes) / seconds)))"
        }
        var lines = [overall]
        let active = state.active.sorted { $0.key < $1.key }
        for (_, file) in active.prefix(Self.shownFiles) {
            var line = "  \(file.name)  \(ToolUnits.bytes(file.bytes))"
            if let total = file.total, total > 0 {
                line += " / \(ToolUnits.bytes(total))  \(min(100, file.bytes * 100 / total))%"
            }
            lines.append(line)
        }
        if active.count > Self.shownFiles { lines.append("  ... and \(active.count - Self.shownFiles) more") }
        return lines
    }

    private static func name(of file: BulkDownloader.File) -> String {
        if let name = file.entry.outputName { return name }
        guard let url = file.entry.uris.first else { return "?" }
        let last = url.lastPathComponent
        return last.isEmpty || last == "/" ? ToolURLText.shown(url) : last
    }
}
