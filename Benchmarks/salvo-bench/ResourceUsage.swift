import Foundation

/// The process's CPU time (user + system, all threads) and peak resident memory.
struct ResourceUsage {
    let cpuSeconds: Double
    let peakRSSKiB: Int

    static func current() -> ResourceUsage {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ResourceUsage(cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakRSSKiB: Int(usage.ru_maxrss))
    }
}
