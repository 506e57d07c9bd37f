import Foundation
import ImageLab

extension ReproduceReport {
    /// What `imglab reproduce` prints: per mutant its tally and per pair shown the state (named,
    /// caught or MISSED), the diagnosis with its confidence and the number that exposes the bug;
    /// then the headline, and when the bug did not reproduce, a word that this is news.
    public static func summary(_ r: ReproduceResults) -> String {
        let run = r.mutants.reduce(0) { $0 + $1.pairs }
        var lines = ["imglab reproduce \(r.topic): \(r.mutants.count) mutant\(r.mutants.count == 1 ? "" : "s") on the \(run) pairs of \(r.corpus) that trigger them; \(r.pairs.count) shown"]
        for m in r.mutants {
            lines.append("")
            lines.append("\(m.id) — \(m.title) [\(m.references.joined(separator: ", "))]")
            guard m.pairs > 0 else {
                lines.append("  no pair of \(r.corpus) triggers it: nothing to reproduce on this corpus")
                continue
            }
            lines.append("  caught \(m.caught)/\(m.pairs), named \(m.bugClass) on \(m.named)" + (m.diagnoses.isEmpty ? "" : " (diagnoses: \(m.diagnoses.joined(separator: ", ")))"))
            let width = r.pairs.filter { $0.mutant == m.id }.map(\.pair.count).max() ?? 0
            for p in r.pairs where p.mutant == m.id {
                let state = p.caught ? (p.named ? "named " : "caught") : "MISSED"
                let named = p.namedAs.map { $0 + (p.buggy.diagnosis.map { String(format: " %.2f", $0.confidence) } ?? "") } ?? "—"
                let exposing = p.exposing.map { "\($0.metric.label) \($0.text)" } ?? "nothing differs"
                lines.append("  \(state) \(p.pair.padding(toLength: width, withPad: " ", startingAt: 0))  \(named.padding(toLength: 20, withPad: " ", startingAt: 0)) \(exposing)")
            }
        }
        lines.append("")
        lines.append(headline(r))
        if !r.reproduced { lines.append("This is news: the lab no longer catches or names this bug. Look at the report.") }
        return lines.joined(separator: "\n")
    }
}
