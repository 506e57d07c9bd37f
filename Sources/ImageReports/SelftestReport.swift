import ImageLab
import ImageCorpus
import Foundation
import ImageMetrics

/// The HTML page of `imglab selftest`: the verdict and its reasons, the kill matrix (mutant ×
/// gate family, each cell `named / caught / run`, then the accuracy, the accuracy required and
/// pairs caught / pairs triggered), each mutant's history and the pairs it was caught on
/// without being named. Self-contained (inline CSS, a CSP that forbids the network);
/// every string passes through ``HTMLText/escape(_:)``.
public enum SelftestReport {
    /// The page.
    public static func html(_ m: KillMatrix) -> String {
        let e = HTMLText.escape
        let columns = m.familiesRun
        let verdict = m.passed ? "PASS: every mutant caught and named on at least 90 % of its caught pairs (80 % for a subtle mutant), the built-in resizer passes every pair" : "FAIL"
        var h = """
        <header><h1>imglab selftest</h1>
        <p>profile <code>\(e(m.profile))</code> · \(m.mutants.count) mutants, each run on \(m.allPairs ? "every pair" : "the pairs of its triggers") · the built-in resizer on all \(m.builtin.pairs) pairs</p>
        \(VerdictBadge.html(text: verdict, ok: m.passed))

        """
        if !m.reasons.isEmpty { h += HTMLBlocks.list(m.reasons) + "\n" }
        h += "</header>\n"
        var builtin = "<p>\(m.builtin.pass) of \(m.builtin.pairs) pairs pass.</p>"
        if !m.builtin.failures.isEmpty {
            builtin += pairList(m.builtin.failures)
        }
        if !m.builtin.warnings.isEmpty { builtin += "<p>Warnings:</p>" + HTMLBlocks.list(m.builtin.warnings) }
        h += HTMLBlocks.section("Built-in resizer", builtin)
        var matrix = """

        <p>Rows: mutants. Columns: the gate family that judged each pair (families that judged no mutant pair left out).
        A cell is <b>named / caught / run</b>: pairs whose diagnosis names the mutant's class, pairs that failed or erred,
        pairs the mutant ran on. Accuracy = named / caught (at least 90 % required, 80 % for a subtle mutant);
        <b>caught / triggered</b>: of the pairs the mutant's triggers select, those caught.</p>
        <table>
        """
        matrix += HTMLBlocks.headerRow(["mutant", "topic", "class"] + columns + ["run", "caught", "named", "accuracy", "needs", "caught / triggered"]) + "\n"
        for r in m.mutants {
            let rowClass = r.meetsAccuracy ? "pass" : "fail"
            matrix += "<tr class=\"\(rowClass)\"><td><a href=\"#\(e(r.id))\"><code>\(e(r.id))</code></a></td><td>\(e(r.topic))</td><td>\(e(r.bugClass))</td>"
            for c in columns {
                if let cell = r.cells[c] {
                    let shade = cell.caught == 0 ? "none" : cell.named == cell.caught ? "all" : "some"
                    matrix += "<td class=\"cell \(shade)\">\(cell.named) / \(cell.caught) / \(cell.run)</td>"
                } else {
                    matrix += "<td class=\"cell\"></td>"
                }
            }
            let accuracy = r.accuracy.map { String(format: "%.0f %%", $0 * 100) } ?? "—"
            let needs = String(format: "%.0f %%", r.requiredAccuracy * 100) + (r.subtle ? " (subtle)" : "")
            matrix += "<td>\(r.run)</td><td>\(r.caught)</td><td>\(r.named)</td><td>\(accuracy)</td><td>\(needs)</td><td>\(r.caughtTriggered) / \(r.triggered)</td></tr>\n"
        }
        h += HTMLBlocks.section("Kill matrix", matrix + "</table>")
        var mutants = "\n"
        for r in m.mutants {
            mutants += "<h3 id=\"\(e(r.id))\"><code>\(e(r.id))</code>: \(e(r.title))</h3>"
            mutants += "<p>topic <code>\(e(r.topic))</code> · class <code>\(e(r.bugClass))</code> · references \(e(r.references.joined(separator: ", ")))</p>"
            if let mutant = MutantCatalogue.mutant(r.id) { mutants += "<p>\(e(mutant.history))</p>" }
            if !r.misses.isEmpty {
                mutants += "<p>Caught but not named:</p>" + pairList(r.misses)
            }
            mutants += "\n"
        }
        h += HTMLBlocks.section("Mutants", mutants)
        return HTMLPage(title: "imglab selftest: \(m.passed ? "pass" : "FAIL")", style: css, script: nil, embedsImages: false).render(h)
    }

    /// Pairs with what was said of each: `<li><code>pair</code>: diagnosis</li>`.
    static func pairList(_ misses: [KillMatrix.Miss]) -> String {
        "<ul>" + misses.map { "<li><code>\(HTMLText.escape($0.pair))</code>: \(HTMLText.escape($0.diagnosis))</li>" }.joined() + "</ul>"
    }

    static let css = PageStyle.document + """
    tr.fail td:first-child{background:#fdd;font-weight:bold}tr.pass td:first-child{background:#dfd}
    td.cell{text-align:center;white-space:nowrap}td.all{background:#cfc}td.some{background:#ffd}td.none{background:#eee}
    .verdict{font-weight:bold}
    """
}
