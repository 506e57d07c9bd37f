import ImageLab
import ImageCorpus
import Foundation
import ImageMetrics

/// JUnit XML of a run, the format CI systems (GitHub Actions reporters, GitLab, Jenkins) read:
/// one `<testsuite>` named `imglab run (RESIZER)`, one `<testcase>` per pair with
/// `classname` = case id and `name` = operation id; a `fail` verdict is a `<failure>` whose
/// message is the failed gate clauses and whose text adds the diagnosis; `changed-further` (a
/// regression against the goldens) is a `<failure type="regression">`; an `error` verdict is
/// an `<error>`; `changed-closer` passes, with the golden comparison and the bless hint in
/// `<system-out>`. Pairs an external resizer's declared policies leave out are `<skipped>` test
/// cases with the reason; a pair judged under a declared policy carries its labels in
/// `<system-out>`. Canary pairs are not test cases (they are meant to fail). Pure: results in, text out.
public enum JUnitReport {
    /// The XML document: ``head(_:)``, a ``testcase(_:)`` per pair, ``tail(_:)``.
    public static func xml(_ r: RunResults) -> String {
        head(r) + r.pairs.map(testcase).joined() + tail(r)
    }

    /// The document up to the first test case: the declaration, the counts (from
    /// `r.summary` and `r.skipped`, not from `r.pairs`) and the properties.
    public static func head(_ r: RunResults) -> String {
        let e = HTMLText.escape
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = r.summary.fail + r.summary.changedFurther
        let skipped = r.skipped ?? []
        let tests = r.summary.pairs + skipped.count
        x += "<testsuites name=\"imglab run\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(r.summary.error)\">\n"
        x += "  <testsuite name=\"\(e("imglab run (\(r.resizer))"))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(r.summary.error)\" skipped=\"\(skipped.count)\">\n"
        x += "    <properties>\n"
        x += "      <property name=\"profile\" value=\"\(e(r.profile))\"/>\n"
        x += "      <property name=\"shard\" value=\"\(r.shard.map(String.init).joined(separator: "/"))\"/>\n"
        x += "      <property name=\"schema\" value=\"\(e(r.schema))\"/>\n"
        if let policy = r.policy { x += "      <property name=\"policy\" value=\"\(e(policy.summary))\"/>\n" }
        x += "    </properties>\n"
        return x
    }

    /// The test case of one pair.
    public static func testcase(_ p: PairResult) -> String {
        let e = HTMLText.escape
        var x = "    <testcase classname=\"\(e(p.caseID))\" name=\"\(e(p.operation))\""
        // The scale profile's measured costs, and the policies a resizer declared, as the test's output.
        let costText = p.cost.map { c in "cost: " + c.summary + (c.gate.map { "\ncost gate: \($0.expression)" } ?? "") }
        let outLines = (p.policy?.map(\.text) ?? []) + (costText.map { [$0] } ?? [])
        let policyOut = outLines.isEmpty ? "" : "      <system-out>\(e(outLines.joined(separator: "\n")))</system-out>\n"
        switch p.verdict {
        case .pass:
            x += policyOut.isEmpty ? "/>\n" : ">\n" + policyOut + "    </testcase>\n"
        case .changedCloser:
            x += ">\n      <system-out>\(e("golden: " + (p.golden ?? "changed")))</system-out>\n    </testcase>\n"
        case .changedFurther:
            var body = "family: \(p.family ?? "none")\ngolden: \(p.golden ?? "")\n"
            if let g = p.gate { body += "gate (passed): \(g.expression)\n" }
            x += ">\n      <failure type=\"regression\" message=\"\(e(p.message ?? "changed, further from the oracle"))\">\(e(body))</failure>\n    </testcase>\n"
        case .fail:
            var body = "family: \(p.family ?? "none")\n"
            if let g = p.gate { body += "gate: \(g.expression)\n" + g.clauses.map { "  \($0.passed ? "ok  " : $0.excused == true ? "alt " : "FAIL") \($0.text)" }.joined(separator: "\n") + "\n" }
            if let g = p.cost?.gate { body += "cost gate: \(g.expression)\n" + g.clauses.map { "  \($0.passed ? "ok  " : $0.excused == true ? "alt " : "FAIL") \($0.text)" }.joined(separator: "\n") + "\n" }
            if let d = p.diagnosis {
                body += "diagnosis: \(d.bugClass ?? "none")\(d.name.map { " (\($0))" } ?? "") confidence \(String(format: "%.2f", d.confidence))\n\(d.summary)\n"
            }
            let message = [p.diagnosis?.bugClass.map { "diagnosis \($0)" }, p.message].compactMap { $0 }.joined(separator: ": ")
            x += ">\n      <failure type=\"gate\" message=\"\(e(message))\">\(e(body))</failure>\n" + policyOut + "    </testcase>\n"
        case .error:
            x += ">\n      <error type=\"error\" message=\"\(e(p.message ?? "error"))\"/>\n" + policyOut + "    </testcase>\n"
        }
        return x
    }

    /// The document after the last pair's test case: the skipped pairs' test cases, the closing tags.
    public static func tail(_ r: RunResults) -> String {
        let e = HTMLText.escape
        var x = ""
        for sp in r.skipped ?? [] {
            let parts = sp.pair.split(separator: "/", maxSplits: 1).map(String.init)
            x += "    <testcase classname=\"\(e(parts[0]))\" name=\"\(e(parts.count > 1 ? parts[1] : ""))\">\n      <skipped message=\"\(e(sp.reason))\"/>\n    </testcase>\n"
        }
        x += "  </testsuite>\n</testsuites>\n"
        return x
    }
}
