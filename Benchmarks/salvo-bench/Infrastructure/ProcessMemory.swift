import Foundation

/// This process's resident memory from /proc/self, with a peak that can be reset, so a
/// measurement's peak is not the Swift runtime's start-up peak (which `ru_maxrss` keeps).
enum ProcessMemory {
    /// Resets the peak (`VmHWM`) to the current resident size (Linux 4.0 and later).
    static func resetPeak() {
        let descriptor = open("/proc/self/clear_refs", O_WRONLY)
        guard descriptor >= 0 else { return }
        _ = write(descriptor, "5", 1)
        close(descriptor)
    }

    /// Resident memory now (`VmRSS`), in KiB.
    static var residentKiB: Int { field("VmRSS:") ?? 0 }

    /// The peak since start or the last `resetPeak()` (`VmHWM`), in KiB.
    static var peakKiB: Int { field("VmHWM:") ?? 0 }

    private static func field(_ name: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return nil }
        return line.split(separator: " ").dropFirst().first.flatMap { Int($0) }
    }
}
