import Foundation

extension LabRunner.Progress {
    /// One line per judged scale pair, with what it cost beside its verdict, e.g.
    /// `[3/21] PASS  CASE/OP  rss 21.3 MiB  cpu 0.41 s (floor 0.30 s at 1/8, ×1.37)  wall 0.45 s`;
    /// `nil` for a pair without costs.
    public var costLine: String? {
        let verdict = result.verdict.rawValue.uppercased().padding(toLength: 5, withPad: " ", startingAt: 0)
        guard let c = result.cost else {
            return result.verdict == .pass ? nil : "[\(done)/\(total)] \(verdict) \(result.pair) — \(result.message ?? "")"
        }
        let ratio = c.floor.cpuSeconds > 0 ? String(format: "×%.2f", c.resizer.cpuSeconds / c.floor.cpuSeconds) : "×?"
        var line = String(format: "[%d/%d] %@ %@  rss %.1f MiB  cpu %.2f s (floor %.2f s at 1/%d, %@)  wall %.2f s",
                          done, total, verdict, result.pair, c.resizer.peakRSSMiB, c.resizer.cpuSeconds, c.floor.cpuSeconds,
                          c.floorScale, ratio, c.resizer.wallSeconds)
        if result.verdict != .pass, let why = result.message { line += " — " + why }
        if result.verdict != .pass, let d = result.diagnosis, let bugClass = d.bugClass { line += " — diagnosis \(bugClass): \(d.summary)" }
        return line
    }
}
