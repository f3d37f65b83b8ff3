import Foundation

/// Human-readable sizes, rates and durations for progress lines and the summary.
enum ToolUnits {
    /// `512 B`, `100.0 KiB`, `1.5 MiB`, `2.0 GiB`.
    static func bytes(_ count: Int64) -> String {
        let units = ["B", "KiB", "MiB", "GiB", "TiB"]
        var value = Double(count)
        var unit = 0
        while value >= 1024, unit < units.count - 1 {
            value /= 1024
            unit += 1
        }
        return unit == 0 ? "\(count) B" : String(format: "%.1f %@", value, units[unit])
    }

    /// `1.5 MiB/s`; `0 B/s` when no time has passed.
    static func rate(bytes: Int64, seconds: TimeInterval) -> String {
        guard seconds > 0 else { return "0 B/s" }
        return self.bytes(Int64(Double(bytes) / seconds)) + "/s"
    }

    /// `0.42 s`, `1m05s`, `2h03m`.
    static func duration(_ seconds: TimeInterval) -> String {
        guard seconds.isFinite, seconds >= 0 else { return "?" }
        if seconds < 60 { return String(format: "%.2f s", seconds) }
        let whole = Int(seconds.rounded())
        if whole < 3600 { return String(format: "%dm%02ds", whole / 60, whole % 60) }
        return String(format: "%dh%02dm", whole / 3600, (whole % 3600) / 60)
    }

    /// Seconds since `start`, as a `TimeInterval`.
    static func seconds(since start: ContinuousClock.Instant) -> TimeInterval {
        let elapsed = ContinuousClock.now - start
        return Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    }
}
