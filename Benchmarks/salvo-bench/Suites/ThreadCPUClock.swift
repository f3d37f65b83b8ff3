import Foundation

/// The calling thread's CPU time, so that a timing made in a child leaves out Salvo's idle
/// loop thread and the rest of the process.
enum ThreadCPUClock {
    static func nanoseconds() -> Int {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return time.tv_sec * 1_000_000_000 + time.tv_nsec
    }
}
