import Foundation

/// Clocks for measuring what a strategy costs.
package enum Clocks {
    /// CPU time of the calling thread, in seconds: what this thread's own work cost.
    package static func threadCPU() -> Double { read(CLOCK_THREAD_CPUTIME_ID) }
    /// CPU time of the whole process (all threads, driver threads included), in seconds.
    package static func processCPU() -> Double { read(CLOCK_PROCESS_CPUTIME_ID) }
    /// Monotonic wall time, in seconds.
    package static func wall() -> Double { read(CLOCK_MONOTONIC) }

    @inline(__always)
    private static func read(_ clock: clockid_t) -> Double {
        var ts = timespec()
        clock_gettime(clock, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
    }
}
