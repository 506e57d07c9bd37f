import Foundation

/// The process's peak resident memory, for tests and benchmarks that measure imglab from
/// outside: with `IMGLAB_REPORT_PEAK_MEMORY=1` every command ends by printing
/// `imglab: peak memory N KiB` to stderr. It reads `VmHWM` from `/proc/self/status`, which
/// (unlike a parent's `wait4` rusage) excludes the memory of the process that spawned imglab.
public enum PeakMemory {
    /// Peak resident set size in KiB, or nil where /proc is unavailable.
    public static func kibibytes() -> Int? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
            return Int(line.split(separator: " ").dropFirst().first ?? "")
        }
        return nil
    }

    /// Exits with `status`, first reporting peak memory when asked to, as `program: peak memory N KiB`.
    public static func exit(_ status: Int32, program: String = "imglab") -> Never {
        if ProcessInfo.processInfo.environment["IMGLAB_REPORT_PEAK_MEMORY"] != nil, let kib = kibibytes() {
            FileHandle.standardError.write(Data("\(program): peak memory \(kib) KiB\n".utf8))
        }
        Foundation.exit(status)
    }
}
