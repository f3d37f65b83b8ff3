import Foundation
import Synchronization

/// Follows another process's peak resident memory (`VmHWM` in /proc/PID/status) every
/// 2 ms until it exits.
///
/// `getrusage(RUSAGE_CHILDREN)` cannot give an outside tool's peak here: the tool is
/// spawned with vfork semantics, so its `ru_maxrss` starts at this (Swift) process's own
/// peak, ~28 MiB, and any tool smaller than that reads as 28 MiB.
final class PeakMemoryWatcher: Sendable {
    private let peakKiB = Atomic<Int>(0)
    private let stopped = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts watching `pid` on a thread of its own.
    init(pid: pid_t) {
        let path = "/proc/\(pid)/status"
        Thread.detachNewThread { [self] in
            while !stopped.load(ordering: .relaxed) {
                if let kib = Self.highWaterMark(path) { _ = peakKiB.max(kib, ordering: .relaxed) }
                usleep(2_000)
            }
            finished.signal()
        }
    }

    /// Stops watching. - Returns: The highest peak seen, in KiB (0 when none was read).
    func stop() -> Int {
        stopped.store(true, ordering: .relaxed)
        finished.wait()
        return peakKiB.load(ordering: .relaxed)
    }

    private static func highWaterMark(_ path: String) -> Int? {
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
