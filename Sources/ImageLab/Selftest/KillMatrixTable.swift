import ImageCorpus
import Foundation

/// The kill matrix as terminal text: one line per mutant with its cells per gate family that
/// judged a mutant pair (`named/caught/run`), then pairs run, caught, named, the accuracy with the
/// accuracy required (`≥ 90 %`, `≥ 80 %` for a subtle mutant) and pairs caught / pairs triggered.
extension KillMatrix {
    /// The table, columns padded to their widest entry.
    public var table: String {
        let columns = familiesRun
        var rows: [[String]] = [["mutant", "class"] + columns + ["run", "caught", "named", "accuracy", "needs", "caught/triggered"]]
        for r in mutants {
            var line = [r.id, r.bugClass]
            for c in columns {
                if let cell = r.cells[c] { line.append("\(cell.named)/\(cell.caught)/\(cell.run)") } else { line.append("·") }
            }
            line += [String(r.run), String(r.caught), String(r.named), r.accuracy.map { "\(Int(($0 * 100).rounded())) %" } ?? "—",
                     "≥ \(Int((r.requiredAccuracy * 100).rounded())) %", r.caughtOfTriggered]
            rows.append(line)
        }
        let widths = (0..<rows[0].count).map { k in rows.map { $0[k].count }.max() ?? 0 }
        return rows.map { row in
            zip(row, widths).enumerated().map { k, pair in
                k < 2 ? pair.0.padding(toLength: pair.1, withPad: " ", startingAt: 0)
                      : String(repeating: " ", count: pair.1 - pair.0.count) + pair.0
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
