import Foundation
import ImageLab

/// What `imglab run` prints when the run is over: the counts and time, what to bless, the pairs
/// skipped and why, the pairs a declared policy changed, where the report is, and after a finding
/// (exit 1) which gate clauses failed and how a user changes a bound.
public enum RunScreen {
    /// The line that says what a resizer declares (its ``ResizerPolicy``); `nil` for the built-in's.
    public static func declaredPolicy(_ resizer: any Resizer) -> String? {
        guard resizer.policy != .builtin else { return nil }
        return "imglab run: \(resizer.name) declares: \(resizer.policy.summary) (the gates honour it; affected pairs are "
            + "labelled 'policy:')"
    }

    /// The lines, in order.
    /// - Parameters:
    ///   - gatesFile: the gates file that judged the run, named in the finding.
    ///   - report: the report folder, when one was written.
    public static func lines(_ outcome: RunSession.StreamedOutcome, gatesFile: String, report: String?) -> [String] {
        let r = outcome.results, s = r.summary, tally = outcome.tally
        var lines = ["imglab run: \(r.resizer) on \(r.profile): \(s.line) in \(String(format: "%.1f", outcome.seconds)) s"]
        if s.changedCloser > 0 {
            let filter = r.filter.isEmpty ? "" : " --filter '\(r.filter.joined(separator: ","))'"
            lines.append("\(s.changedCloser) pair(s) changed and moved closer to the oracle: accept them with 'imglab bless\(filter)'")
        }
        if let skipped = r.skipped { lines += skippedLines(skipped) }
        let counts = tally.policyCounts
        if !counts.isEmpty {
            lines.append("imglab run: \(tally.pairsUnderPolicy) pairs judged under a declared or inferred policy or the thumbnail contract "
                         + "(JSON 'policy' per pair): " + counts.map { "\($0.kind.name) ×\($0.count)" }.joined(separator: ", "))
        }
        if let report { lines.append("report: \(report)/index.html (results.json and junit.xml beside it)") }
        if tally.exitStatus != 0 {
            let causes = tally.causes.lines
            if !causes.isEmpty { lines += ["imglab run: the failures by cause:"] + causes.map { "  " + $0 } }
            lines += finding(tally, gatesFile: gatesFile, report: report)
        }
        return lines
    }

    /// The skipped pairs: each undecodable or unjudged file, then the counts.
    static func skippedLines(_ skipped: [RunResults.SkippedPair]) -> [String] {
        let undecodable = skipped.filter { $0.reason.hasPrefix("decode:") }
        let unjudged = skipped.filter { $0.reason.hasPrefix("not judged:") }
        var lines = (undecodable + unjudged).map { "skipped \($0.pair): \($0.reason)" }
        let undeclared = skipped.count - undecodable.count - unjudged.count
        if undeclared > 0 {
            lines.append("imglab run: \(undeclared) pairs skipped: not declared by the resizer's policy (listed in the JSON under 'skipped')")
        }
        if !unjudged.isEmpty {
            lines.append("imglab run: \(unjudged.count) pair(s) skipped: no oracle can judge them (listed in the JSON under 'skipped')")
        }
        if !undecodable.isEmpty {
            lines.append("imglab run: \(undecodable.count) input file(s) skipped: cannot be decoded (listed in the JSON under 'skipped')")
        }
        return lines
    }

    /// After a finding: the failed gate clauses grouped by family and metric with one example pair
    /// each, e.g. `  12 pairs of family shrink-smooth on visible.max, e.g. CASE/OP: visible.max 199.1 > 84.4: fails`.
    static func finding(_ tally: RunTally, gatesFile: String, report: String?) -> [String] {
        var lines = ["imglab run: these gate clauses failed:"]
        for g in tally.failureGroups {
            let family = g.family.map { "family \($0)" } ?? "no family"
            let on = g.metric.map { " on \($0)" } ?? ""
            lines.append("  \(g.count) pair\(g.count == 1 ? "" : "s") of \(family)\(on), e.g. \(g.example): \(g.clause)"
                         + (g.diagnosis.map { " (diagnosis: \($0))" } ?? ""))
        }
        if tally.failureGroups.count == RunTally.maxFailureGroups { lines.append("  … (more in the results)") }
        lines.append("Each pair's page shows why" + (report.map { " (\($0)/index.html)" } ?? " (run with --report DIR)")
                     + ". A bound is a reviewed claim, in \(gatesFile):")
        lines.append("to judge by other bounds, copy it, change the family's gate and run with --gates FILE (docs/gates.md).")
        return lines
    }
}
