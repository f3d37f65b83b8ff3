import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Ctrl-C: the first stops the run gracefully, the second ends the process at once.
///
/// SIGINT's default action is ignored and the signal is taken from a dispatch source
/// instead, so the handlers run as ordinary code on a queue (they may take locks and cancel
/// tasks, which a real signal handler may not).
final class ToolInterrupt: Sendable {
    private let count = Atomic<Int>(0)

    /// Ignores SIGINT's default action. Called first thing, so a Ctrl-C during start-up does
    /// not kill the process before the handler is listening.
    static func ignoreDefaultAction() {
        signal(SIGINT, SIG_IGN)
    }

    /// Whether a SIGINT has arrived.
    var wasInterrupted: Bool { count.load(ordering: .relaxed) > 0 }

    /// Starts listening; keep the returned source until the run ends.
    ///
    /// - Parameters:
    ///   - first: Run on the first SIGINT.
    ///   - second: Run on every later one; expected not to return.
    func listen(first: @escaping @Sendable () -> Void, second: @escaping @Sendable () -> Void) -> DispatchSourceSignal {
        let source = DispatchSource.makeSignalSource(signal: SIGINT, queue: DispatchQueue(label: "org.salvo.tool.sigint"))
        source.setEventHandler { [self] in
            // Two signals that arrive before the handler runs are merged into one event;
            // `data` counts them, so a quick double Ctrl-C still ends the process.
            let arrived = max(1, Int(source.data))
            let (before, now) = (count.load(ordering: .relaxed), count.add(arrived, ordering: .relaxed).newValue)
            if before == 0 { first() }
            if now > 1 { second() }
        }
        source.resume()
        // The handler holds the source for `data`; `cancel()` at the run's end releases both.
        return source
    }
}
