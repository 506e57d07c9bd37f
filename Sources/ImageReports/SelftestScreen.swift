import Foundation
import ImageLab

/// What `imglab selftest` prints when it is over: the kill matrix, then one line with the
/// counts, the time and the verdict, and the reasons of a failure.
public enum SelftestScreen {
    /// The lines after a run of the mutant catalogue (`seconds`: its wall-clock time).
    public static func lines(_ matrix: KillMatrix, seconds: Double, report: String?) -> [String] {
        var lines = ["", matrix.table, ""]
        lines.append("imglab selftest: \(matrix.mutants.count) mutants, \(matrix.mutants.count { $0.caught > 0 }) caught, "
                     + "builtin \(matrix.builtin.pass)/\(matrix.builtin.pairs) pass, in \(String(format: "%.1f", seconds)) s: "
                     + (matrix.passed ? "PASS" : "FAIL"))
        lines += matrix.reasons.map { "  - \($0)" }
        if let report { lines.append("report: \(report)/index.html") }
        return lines
    }

    /// The lines after the scale profile's run of the performance mutants: their kill matrix, an
    /// example finding of each, and the verdict.
    public static func scaleLines(_ rows: [ScaleSelftest.Row], seconds: Double) -> [String] {
        var lines = ["", ScaleSelftest.table(rows), ""]
        for r in rows where r.expectedClass != nil { if let e = r.example { lines.append("  \(r.resizer): \(e)") } }
        let builtin = rows.first.map { "\($0.pairs - $0.failed)/\($0.pairs)" } ?? "?"
        lines.append("imglab selftest --profile scale: \(rows.count - 1) performance mutants, "
                     + "\(rows.dropFirst().count(where: \.ok)) killed and named, builtin \(builtin) pass, "
                     + "in \(String(format: "%.1f", seconds)) s: \(rows.allSatisfy(\.ok) ? "PASS" : "FAIL")")
        return lines
    }
}
