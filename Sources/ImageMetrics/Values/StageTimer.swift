import Foundation

/// Wall-clock and process CPU time of the stages of a comparison, printed to standard error
/// when the environment variable `IMGLAB_DIFF_TIMING` is set (to anything), for profiling
/// `imglab diff` without a profiler. CPU seconds (all threads) are the figure to read on a
/// loaded machine, where wall time depends on the other processes. Costs one clock read per
/// stage otherwise; never changes any result.
struct StageTimer: Sendable {
    /// Whether `IMGLAB_DIFF_TIMING` is set.
    static let enabled = ProcessInfo.processInfo.environment["IMGLAB_DIFF_TIMING"] != nil

    private var last = DispatchTime.now().uptimeNanoseconds
    private var lastCPU = StageTimer.processCPUSeconds()

    /// CPU seconds used by the process so far (every thread).
    static func processCPUSeconds() -> Double {
        var t = timespec()
        guard clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) == 0 else { return 0 }
        return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
    }

    /// Resident memory of the process now, in MiB (0 where /proc is absent).
    static func residentMiB() -> Int {
        guard let statm = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
              let pages = statm.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE))) / (1 << 20)
    }

    /// Prints the wall and CPU seconds since the previous mark (or since creation) under `stage`.
    mutating func mark(_ stage: String) {
        guard StageTimer.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds, cpu = StageTimer.processCPUSeconds()
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        FileHandle.standardError.write(Data(String(format: "timing %-28@ %7.3f s  (CPU %6.3f s, peak %4d MiB, now %4d MiB)\n",
                                                   stage as NSString, Double(now - last) / 1e9, cpu - lastCPU,
                                                   usage.ru_maxrss / 1024, StageTimer.residentMiB()).utf8))
        last = now
        lastCPU = cpu
    }
}
