import Foundation

/// Wall-clock time of the stages of a comparison, printed to standard error when the
/// environment variable `IMGLAB_DIFF_TIMING` is set (to anything), for profiling
/// `imglab diff` without a profiler. Costs one clock read per stage otherwise; never
/// changes any result.
struct StageTimer: Sendable {
    /// Whether `IMGLAB_DIFF_TIMING` is set.
    static let enabled = ProcessInfo.processInfo.environment["IMGLAB_DIFF_TIMING"] != nil

    private var last = DispatchTime.now().uptimeNanoseconds

    /// Prints the seconds since the previous mark (or since creation) under `stage`.
    mutating func mark(_ stage: String) {
        guard StageTimer.enabled else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        FileHandle.standardError.write(Data(String(format: "timing %-28@ %7.3f s\n", stage as NSString, Double(now - last) / 1e9).utf8))
        last = now
    }
}
