import ImageLab
import ImageCorpus
import Foundation
import ImageMetrics

/// The HTML page of `imglab selftest`: the verdict and its reasons, the kill matrix (mutant ×
/// gate family, each cell `named / caught / run`), each mutant's history and the pairs it was
/// caught on without being named. Self-contained (inline CSS, a CSP that forbids the network);
/// every string passes through ``HTMLText/escape(_:)``.
public enum SelftestReport {
    /// The page.
    public static func html(_ m: KillMatrix) -> String {
        let e = HTMLText.escape
        let columns = m.families + (m.mutants.contains { $0.cells["none"] != nil } ? ["none"] : [])
        var h = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>imglab selftest: \(m.passed ? "pass" : "FAIL")</title>
        <style>\(css)</style></head>
        <body>
        <header><h1>imglab selftest</h1>
        <p>profile <code>\(e(m.profile))</code> · \(m.mutants.count) mutants, each run on \(m.allPairs ? "every pair" : "the pairs of its triggers") · the built-in resizer on all \(m.builtin.pairs) pairs</p>
        <p class="verdict \(m.passed ? "ok" : "bad")">\(m.passed ? "PASS: every mutant caught and named on at least 90 % of its caught pairs, the built-in resizer passes every pair" : "FAIL")</p>

        """
        if !m.reasons.isEmpty { h += "<ul>" + m.reasons.map { "<li>\(e($0))</li>" }.joined() + "</ul>\n" }
        h += "</header>\n"
        h += "<section><h2>Built-in resizer</h2><p>\(m.builtin.pass) of \(m.builtin.pairs) pairs pass.</p>"
        if !m.builtin.failures.isEmpty {
            h += "<ul>" + m.builtin.failures.map { "<li><code>\(e($0.pair))</code>: \(e($0.diagnosis))</li>" }.joined() + "</ul>"
        }
        if !m.builtin.warnings.isEmpty {
            h += "<p>Warnings:</p><ul>" + m.builtin.warnings.map { "<li>\(e($0))</li>" }.joined() + "</ul>"
        }
        h += "</section>\n"
        h += """
        <section><h2>Kill matrix</h2>
        <p>Rows: mutants. Columns: the gate family that judged each pair. A cell is <b>named / caught / run</b>:
        pairs whose diagnosis names the mutant's class, pairs that failed or erred, pairs the mutant ran on.
        Accuracy = named / caught (at least 90 % required).</p>
        <table><tr><th>mutant</th><th>topic</th><th>class</th>
        """
        h += columns.map { "<th>\(e($0))</th>" }.joined() + "<th>run</th><th>caught</th><th>named</th><th>accuracy</th></tr>\n"
        for r in m.mutants {
            let ok = r.caught > 0 && (r.accuracy ?? 0) >= KillMatrix.requiredAccuracy
            let rowClass = ok ? "pass" : "fail"
            h += "<tr class=\"\(rowClass)\"><td><a href=\"#\(e(r.id))\"><code>\(e(r.id))</code></a></td><td>\(e(r.topic))</td><td>\(e(r.bugClass))</td>"
            for c in columns {
                if let cell = r.cells[c] {
                    let shade = cell.caught == 0 ? "none" : cell.named == cell.caught ? "all" : "some"
                    h += "<td class=\"cell \(shade)\">\(cell.named) / \(cell.caught) / \(cell.run)</td>"
                } else {
                    h += "<td class=\"cell\"></td>"
                }
            }
            let accuracy = r.accuracy.map { String(format: "%.0f %%", $0 * 100) } ?? "—"
            h += "<td>\(r.run)</td><td>\(r.caught)</td><td>\(r.named)</td><td>\(accuracy)</td></tr>\n"
        }
        h += "</table></section>\n<section><h2>Mutants</h2>\n"
        for r in m.mutants {
            h += "<h3 id=\"\(e(r.id))\"><code>\(e(r.id))</code>: \(e(r.title))</h3>"
            h += "<p>topic <code>\(e(r.topic))</code> · class <code>\(e(r.bugClass))</code> · references \(e(r.references.joined(separator: ", ")))</p>"
            if let mutant = MutantCatalogue.mutant(r.id) { h += "<p>\(e(mutant.history))</p>" }
            if !r.misses.isEmpty {
                h += "<p>Caught but not named:</p><ul>" + r.misses.map { "<li><code>\(e($0.pair))</code>: \(e($0.diagnosis))</li>" }.joined() + "</ul>"
            }
            h += "\n"
        }
        h += "</section></body></html>\n"
        return h
    }

    static let css = """
    body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
    table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
    tr.fail td:first-child{background:#fdd;font-weight:bold}tr.pass td:first-child{background:#dfd}
    td.cell{text-align:center;white-space:nowrap}td.all{background:#cfc}td.some{background:#ffd}td.none{background:#eee}
    .verdict.ok{color:#060;font-weight:bold}.verdict.bad{color:#b00;font-weight:bold}code{font-size:90%}
    """
}
