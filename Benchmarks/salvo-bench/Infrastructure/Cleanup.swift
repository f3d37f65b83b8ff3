import Dispatch
import Foundation
import Synchronization

/// What must be undone however the bench ends: nginx stopped, the temporary directory
/// removed. Actions run once, newest first, at the end of a run, at `exit`, and on
/// SIGINT, SIGTERM and SIGHUP.
final class Cleanup: Sendable {
    static let shared = Cleanup()

    private let actions = Mutex<[@Sendable () -> Void]>([])
    private let stopping = Atomic<Bool>(false)

    /// Whether the bench is ending on a signal: start nothing new.
    var isStopping: Bool { stopping.load(ordering: .acquiring) }

    /// Registers an action; it runs at most once.
    func add(_ action: @escaping @Sendable () -> Void) {
        actions.withLock { $0.append(action) }
    }

    /// Held while actions run, so a second caller (the main thread reaching `exit` while
    /// the signal handler cleans up) waits until the first has finished.
    private let running = Mutex<Void>(())

    /// Runs every registered action, newest first, and forgets them.
    func runAll() {
        running.withLock { _ in
            let pending = actions.withLock { list -> [@Sendable () -> Void] in
                defer { list.removeAll() }
                return list
            }
            for action in pending.reversed() { action() }
        }
    }

    // Written only by `installSignalHandlers()`, once, on the main thread before any signal
    // source runs; kept so the sources stay alive.
    nonisolated(unsafe) private static var signalSources: [any DispatchSourceSignal] = []

    /// Makes SIGINT, SIGTERM and SIGHUP clean up before the process ends, and `exit` too.
    static func installSignalHandlers() {
        atexit { Cleanup.shared.runAll() }
        let queue = DispatchQueue(label: "salvo-bench.signals")
        for number in [SIGINT, SIGTERM, SIGHUP] {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            source.setEventHandler {
                FileHandle.standardError.write(Data("\nsalvo-bench: signal \(number), cleaning up\n".utf8))
                Cleanup.shared.stopping.store(true, ordering: .releasing)
                Cleanup.shared.runAll()
                // Not raise(): libdispatch's threads block signals, so it would stay pending.
                _exit(128 + number)
            }
            source.resume()
            signalSources.append(source)
        }
    }
}
