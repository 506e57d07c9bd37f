import ImageLab

/// What `imglab run` says after a finding (exit 1): which gate clauses failed, grouped by family
/// and metric with one example pair each, and how a user changes a bound.
enum RunFinding {
    /// The lines, e.g. `  12 pairs of family shrink-smooth fail on visible.max, e.g. CASE/OP: visible.max 199.1 > 84.4: fails (diagnosis: channel-order)`.
    static func text(_ tally: RunTally, gatesFile: String, report: String?) -> String {
        var lines = ["imglab run: these gate clauses failed:"]
        for g in tally.failureGroups {
            let family = g.family.map { "family \($0)" } ?? "no family"
            let on = g.metric.map { " on \($0)" } ?? ""
            lines.append("  \(g.count) pair\(g.count == 1 ? "" : "s") of \(family)\(on), e.g. \(g.example): \(g.clause)" + (g.diagnosis.map { " (diagnosis: \($0))" } ?? ""))
        }
        if tally.failureGroups.count == RunTally.maxFailureGroups { lines.append("  … (more in the results)") }
        lines.append("Each pair's page shows why" + (report.map { " (\($0)/index.html)" } ?? " (run with --report DIR)") + ". A bound is a reviewed claim, in \(gatesFile):")
        lines.append("to judge by other bounds, copy it, change the family's gate and run with --gates FILE (docs/gates.md).")
        return lines.joined(separator: "\n")
    }
}
