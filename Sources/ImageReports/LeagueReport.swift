import ImageLab
import ImageCorpus
import Foundation
import ImageMetrics

/// The league table as one self-contained HTML page (inline CSS, a Content-Security-Policy that
/// forbids network access, no scripts): the table of counts, then per resizer its declared
/// policies and its failure and error groups, each with the example's evidence and the list of
/// pairs. Every string is escaped with ``HTMLText/escape(_:)``. Pure: table in, text out.
public enum LeagueReport {
    /// The page.
    public static func html(_ t: LeagueTable) -> String {
        let e = HTMLText.escape
        var h = """
        <h1>imglab league — \(e(t.profile)) \(t.profile == "scale" ? "profile" : "corpus") (\(e(t.corpus)))</h1>
        <p>Every resizer judged by the same gates against the same oracle, honouring its declared policies:
        undeclared operations and containers are <b>skipped</b>; pairs whose judgement a declared policy changed
        (sRGB light space, rounding rule, orientation, first frame only) are counted as <b>policy-labelled</b>
        and carry the label in the results.</p>

        """
        let withCosts = t.entries.contains { $0.costs != nil }
        if withCosts {
            h += """
            <p>Scale profile: each call ran in a child process, one at a time. <b>CPU ÷ floor</b> divides its CPU time by the
            floor's, <code>imglab decode</code> of the same source at the scale a correct shrink-on-load uses, measured once per pair
            and shared by every resizer; <b>peak RSS</b> is the child's own high-water mark.</p>

            """
        }
        let heads = ["resizer", "declared policies", "pass", "fail", "error", "skipped", "policy-labelled", "failures by diagnosis"]
            + (withCosts ? ["CPU ÷ floor, median / max", "peak RSS MiB, median / max", "RSS over floor, max MiB"] : [])
        h += "<table>\(HTMLBlocks.headerRow(heads))\n"
        for x in t.entries {
            guard let s = x.summary else {
                h += "<tr><td>\(e(x.resizer))</td><td colspan=\"\(heads.count - 1)\">\(e(x.status)): \(e(x.note ?? ""))</td></tr>\n"
                continue
            }
            let groups = x.failures.map { "\(e($0.key)) ×\($0.count)" }.joined(separator: ", ")
            h += "<tr><td><a href=\"#\(anchor(x.resizer))\">\(e(x.resizer))</a></td><td class=\"policy\">\(e(x.policy?.summary ?? ""))</td>"
            h += "<td class=\"n ok\">\(s.pass)</td><td class=\"n\(s.fail > 0 ? " bad" : "")\">\(s.fail)</td>"
            h += "<td class=\"n\(s.error > 0 ? " err" : "")\">\(s.error)</td><td class=\"n\">\(s.skipped ?? 0)</td><td class=\"n\">\(x.policyLabelled)</td>"
            h += "<td>\(groups.isEmpty ? "–" : groups)</td>"
            if withCosts {
                if let c = x.costs {
                    h += "<td class=\"n\">\(e(String(format: "%.2f / %.2f", c.cpuRatioMedian, c.cpuRatioMax)))</td>"
                    h += "<td class=\"n\">\(e(String(format: "%.1f / %.1f", c.rssMedian, c.rssMax)))</td><td class=\"n\">\(e(String(format: "%.1f", c.rssOverFloorMax)))</td>"
                } else {
                    h += "<td>–</td><td>–</td><td>–</td>"
                }
            }
            h += "</tr>\n"
        }
        h += "</table>\n"
        if withCosts { h += costMatrix(t) }
        for x in t.entries where x.summary != nil {
            var body = "\n<p class=\"policy\">\(e(x.spec)) · \(e(x.policy?.summary ?? ""))"
            if let sec = x.seconds { body += " · \(e(String(format: "%.1f", sec))) s" }
            body += "</p>\n"
            for (title, groups) in [("Failures by diagnosis", x.failures), ("Errors by message", x.errors)] where !groups.isEmpty {
                body += "<h3>\(title)</h3>\n"
                for g in groups {
                    body += "<details><summary><b>\(e(g.key))</b> ×\(g.count)</summary>\n<p>example: <code>\(e(g.example))</code></p>\n<p>"
                    body += g.pairs.map { "<code>\(e($0))</code>" }.joined(separator: " ") + "</p></details>\n"
                }
            }
            h += HTMLBlocks.section(x.resizer, id: anchor(x.resizer), body)
        }
        h += HTMLBlocks.footer([t.schema])
        return HTMLPage(title: "imglab league: \(t.profile)", style: css, script: nil, embedsImages: false).render(h)
    }

    /// The scale profile's costs pair by pair (``LeagueTable/costRows``): a row per pair, a
    /// column per resizer with costs.
    static func costMatrix(_ t: LeagueTable) -> String {
        let e = HTMLText.escape
        let (resizers, rows) = t.costRows
        var h = "<h2>CPU time ÷ the floor's · peak RSS (MiB), pair by pair</h2>\n<table>\(HTMLBlocks.headerRow(["pair"] + resizers))\n"
        for row in rows {
            h += "<tr><td><code>\(e(row.pair))</code></td>"
            for name in resizers {
                guard let c = row.costs[name] else { h += "<td>–</td>"; continue }
                let mark = c.verdict == .pass ? "" : c.verdict == .error ? " err" : " bad"
                h += "<td class=\"n\(mark)\">\(e(c.cell))</td>"
            }
            h += "</tr>\n"
        }
        return h + "</table>\n"
    }

    static let css = PageStyle.document + """
    td.n{text-align:right}td.bad{background:#fdd}td.err{background:#fec}td.ok{background:#dfd}.policy{color:#555;font-size:90%}
    details{margin:.3em 0}summary{cursor:pointer}
    """

    /// An id attribute for a resizer's section: letters and digits kept, the rest `-`.
    static func anchor(_ name: String) -> String {
        "r-" + String(name.unicodeScalars.map { ch -> Character in
            (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || (ch >= "0" && ch <= "9") ? Character(ch) : "-"
        })
    }
}
