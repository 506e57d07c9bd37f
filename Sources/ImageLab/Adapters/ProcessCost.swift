#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What one child process cost, measured by the kernel: its peak resident memory and CPU time
/// (`wait4`'s resource usage as `imglab-measure` reports it, covering the program and every
/// descendant it waited for), and the wall time from start to exit.
public struct ProcessCost: Sendable, Hashable, Codable {
    /// The high-water mark of resident memory of the process or of its largest waited-for
    /// descendant, in bytes (`ru_maxrss`, which Linux reports in KiB).
    public var peakRSSBytes: Int
    /// User plus system CPU time, in seconds.
    public var cpuSeconds: Double
    /// Wall-clock time from the spawn to the exit, in seconds.
    public var wallSeconds: Double

    public init(peakRSSBytes: Int, cpuSeconds: Double, wallSeconds: Double) {
        self.peakRSSBytes = peakRSSBytes
        self.cpuSeconds = cpuSeconds
        self.wallSeconds = wallSeconds
    }

    /// Reads `imglab-measure`'s line "maxrss_kib user_us system_us"; `nil` when it is not one.
    init?(meterLine line: String, wallSeconds: Double) {
        let fields = line.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard fields.count == 3, fields.allSatisfy({ $0 >= 0 }) else { return nil }
        self.init(peakRSSBytes: fields[0] * 1024, cpuSeconds: Double(fields[1] + fields[2]) / 1_000_000, wallSeconds: wallSeconds)
    }

    /// Peak resident memory in MiB.
    public var peakRSSMiB: Double { Double(peakRSSBytes) / 1_048_576 }
}
