import Foundation

/// The process's CPU time (user + system, all threads), peak resident memory and context
/// switches.
struct ResourceUsage {
    let cpuSeconds: Double
    let peakRSSKiB: Int
    /// Voluntary and involuntary context switches, all threads: each time a thread went to
    /// sleep or was put aside, which a request's thread hand-offs cause.
    let contextSwitches: Int
    /// The voluntary ones alone: a thread that went to sleep (waiting for a socket, a lock or
    /// work). The rest are preemptions, which depend on how many threads want the machine's
    /// cores at once (the server's included) more than on the client's hand-offs.
    let voluntaryContextSwitches: Int

    static func current() -> ResourceUsage {
        usage(of: RUSAGE_SELF.rawValue)
    }

    /// The same for the children this process has waited for: their CPU time added up,
    /// the peak memory of the largest.
    static func children() -> ResourceUsage {
        usage(of: RUSAGE_CHILDREN.rawValue)
    }

    private static func usage(of who: Int32) -> ResourceUsage {
        var usage = rusage()
        getrusage(__rusage_who_t(who), &usage)
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return ResourceUsage(cpuSeconds: seconds(usage.ru_utime) + seconds(usage.ru_stime), peakRSSKiB: Int(usage.ru_maxrss),
                             contextSwitches: Int(usage.ru_nvcsw + usage.ru_nivcsw), voluntaryContextSwitches: Int(usage.ru_nvcsw))
    }
}
