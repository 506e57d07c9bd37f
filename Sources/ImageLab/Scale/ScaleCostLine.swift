import Foundation

extension LabRunner.Progress {
    /// One line per judged scale pair, with what it cost beside its verdict, e.g.
    /// `[3/21] PASS  CASE/OP  rss 21.3 MiB (2.1 over the floor)  cpu 0.41 s (floor 0.30 s at 1/8, ×1.37)  wall 0.45 s`;
    /// `nil` for a pair without costs.
    public var costLine: String? {
        let verdict = result.verdict.rawValue.uppercased().padding(toLength: 5, withPad: " ", startingAt: 0)
        guard let c = result.cost else {
            return result.verdict == .pass ? nil : "[\(done)/\(total)] \(verdict) \(result.pair) — \(result.message ?? "")"
        }
        var line = "[\(done)/\(total)] \(verdict) \(result.pair)  " + c.summary
        if result.verdict != .pass, let why = result.message { line += " — " + why }
        if result.verdict != .pass, let d = result.diagnosis, let bugClass = d.bugClass { line += " — diagnosis \(bugClass): \(d.summary)" }
        return line
    }
}
