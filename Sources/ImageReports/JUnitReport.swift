import ImageLab
import ImageCorpus
import Foundation
import ImageMetrics
import ImageCore

/// JUnit XML of a run, the format CI systems (GitHub Actions reporters, GitLab, Jenkins) read:
/// one `<testsuite>` named `imglab run (RESIZER)`, one `<testcase>` per pair with
/// `classname` = case id, `name` = operation id and `time` in seconds (the suite's is their sum);
/// a `fail` verdict is one `<failure>` whose message names the gate clauses that failed it (not
/// the alternatives of a `||` that held) and whose text adds the whole gate and the diagnosis;
/// a pair with a report page names it in `<system-out>` (`report page: PATH`); `changed-further` (a
/// regression against the goldens) is a `<failure type="regression">`; an `error` verdict is
/// an `<error>`; `changed-closer` passes, with the golden comparison and the bless hint in
/// `<system-out>`. Pairs an external resizer's declared policies leave out are `<skipped>` test
/// cases with the reason; a pair judged under a declared policy carries its labels in
/// `<system-out>`. Canary pairs are not test cases (they are meant to fail). Pure: results in, text out.
public enum JUnitReport {
    /// The XML document: ``head(_:seconds:)``, a ``testcase(_:page:)`` per pair, ``tail(_:)``.
    /// - Parameter pages: the report page of each pair that has one, by pair index.
    public static func xml(_ r: RunResults, pages: [Int: String] = [:]) -> String {
        head(r, seconds: r.pairs.reduce(0) { $0 + $1.elapsed.seconds }) + r.pairs.indices.map { testcase(r.pairs[$0], page: pages[$0]) }.joined() + tail(r)
    }

    /// Seconds as JUnit writes them: three decimals.
    static func time(_ seconds: Double) -> String { String(format: "%.3f", seconds) }

    /// The document up to the first test case: the declaration, the counts (from
    /// `r.summary` and `r.skipped`, not from `r.pairs`), the time of the test cases (`seconds`)
    /// and the properties.
    public static func head(_ r: RunResults, seconds: Double) -> String {
        let e = HTMLText.escape
        var x = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let failures = r.summary.fail + r.summary.changedFurther
        let skipped = r.skipped ?? []
        let tests = r.summary.pairs + skipped.count
        x += "<testsuites name=\"imglab run\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(r.summary.error)\" time=\"\(time(seconds))\">\n"
        x += "  <testsuite name=\"\(e("imglab run (\(r.resizer))"))\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"\(r.summary.error)\" skipped=\"\(skipped.count)\" time=\"\(time(seconds))\">\n"
        x += "    <properties>\n"
        x += "      <property name=\"profile\" value=\"\(e(r.profile))\"/>\n"
        x += "      <property name=\"shard\" value=\"\(r.shard.map(String.init).joined(separator: "/"))\"/>\n"
        x += "      <property name=\"schema\" value=\"\(e(r.schema))\"/>\n"
        x += "      <property name=\"imglab\" value=\"\(e(ImglabBuild.identity))\"/>\n"
        if let policy = r.policy { x += "      <property name=\"policy\" value=\"\(e(policy.summary))\"/>\n" }
        x += "    </properties>\n"
        return x
    }

    /// The test case of one pair; `page` is its report page, when it has one.
    public static func testcase(_ p: PairResult, page: String? = nil) -> String {
        let e = HTMLText.escape
        var x = "    <testcase classname=\"\(e(p.caseID))\" name=\"\(e(p.operation))\" time=\"\(time(p.elapsed.seconds))\""
        // The scale profile's measured costs, the policies a resizer declared and the report page, as the test's output.
        let costText = p.cost.map { c in "cost: " + c.summary + (c.gate.map { "\ncost gate: \($0.expression)" } ?? "") }
        let outLines = (p.policy?.map(\.text) ?? []) + (costText.map { [$0] } ?? []) + (page.map { ["report page: " + $0] } ?? [])
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
            let failing = (p.gate?.failedClauses ?? []) + (p.cost?.gate?.failedClauses ?? [])
            let what = failing.isEmpty ? p.message : "family \(p.family ?? "none"): " + failing.joined(separator: "; ")
            let message = [what, p.diagnosis?.bugClass.map { "diagnosis \($0)" }].compactMap { $0 }.joined(separator: " — ")
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
