import Foundation

/// The peak resident memory one fuzz input adds to the process, measured on Linux by resetting
/// the process's high-water mark before the input (`5` written to `/proc/self/clear_refs`,
/// proc(5)) and reading it after (`VmHWM` of `/proc/self/status`), less the resident size
/// before (`VmRSS`). So each input is judged on its own need, not on what earlier inputs left.
struct InputPeakMeter {
    /// Resident KiB when the input started, or `nil` where `/proc` cannot be used.
    private var startKiB: Int?

    /// Resets the high-water mark and notes the resident size; call before each input.
    mutating func start() {
        guard let fd = Optional(open("/proc/self/clear_refs", O_WRONLY)), fd >= 0 else { startKiB = nil; return }
        let reset = write(fd, "5", 1) == 1
        close(fd)
        startKiB = reset ? Self.status("VmRSS:") : nil
    }

    /// The peak resident memory added since ``start()``, in MiB, or `nil` where it cannot be measured.
    func growthMiB() -> Double? {
        guard let startKiB, let peak = Self.status("VmHWM:") else { return nil }
        return Double(max(peak - startKiB, 0)) / 1024
    }

    /// A `kB` field of `/proc/self/status`.
    static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field) {
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        return nil
    }
}
