import Foundation
import ImageMetrics

/// The HTML report of a run, `DIR/index.html` plus one page per pair under `DIR/pairs/`.
///
/// Every page is self-contained (inline CSS, images as data URIs, a Content-Security-Policy
/// that forbids network access). The index shows the summary counts, the warnings, then every
/// pair with failures and errors first, each with its family, diagnosis and message, linking to
/// the pair's page. A pair's page is ``DiffReport``'s page (side by side, slider, blend,
/// toggle, heat map, zoom, metric table with the gate, diagnosis, alpha views, metadata) for the
/// oracle vs the resizer's output: one implementation shared with `imglab diff --report`.
/// Pure: results in, `[relative path: text]` out; every string goes through ``HTMLText/escape(_:)`` (ImageMetrics).
public enum RunReport {
    /// The file of a pair's page, relative to the report folder.
    public static func pagePath(index: Int, pair: String) -> String {
        let safe = String(pair.unicodeScalars.map { ch -> Character in
            let ok = (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || (ch >= "0" && ch <= "9") || ch == "-" || ch == "." || ch == "@"
            return ok ? Character(ch) : "_"
        })
        return "pairs/\(String(format: "%04d", index))-\(safe).html"
    }

    /// Every file of the report: the pair pages (when evidence was kept) and `index.html`.
    public static func files(_ r: RunResults, evidence: [PairEvidence?]) -> [(path: String, text: String)] {
        var files: [(String, String)] = []
        var links: [Int: String] = [:]
        for (i, p) in r.pairs.enumerated() {
            guard i < evidence.count, let ev = evidence[i] else { continue }
            guard let images = try? DiffReport.Images.make(expected: ev.expected, actual: ev.actual) else { continue }
            let path = pagePath(index: i, pair: p.pair)
            links[i] = path
            files.append((path, DiffReport.html(ev.comparison, images: images, gate: p.gate)))
        }
        files.append(("index.html", index(r, links: links)))
        return files
    }

    /// The index page; `links` maps a pair's index to its page.
    public static func index(_ r: RunResults, links: [Int: String]) -> String {
        let e = HTMLText.escape
        let s = r.summary
        let status = s.fail + s.error == 0 ? "ok" : "bad"
        var h = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>imglab run: \(e(r.resizer)) on \(e(r.profile))</title>
        <style>\(css)</style></head>
        <body>
        <header><h1>imglab run</h1>
        <p>resizer <code>\(e(r.resizer))</code> · profile <code>\(e(r.profile))</code> · corpus <code>\(e(r.corpus))</code> · shard \(r.shard.map(String.init).joined(separator: "/"))\(r.filter.isEmpty ? "" : " · filter <code>\(e(r.filter.joined(separator: ",")))</code>")</p>
        <p class="verdict \(status)">\(s.pairs) pairs: <b>\(s.pass)</b> pass, <b>\(s.fail)</b> fail, <b>\(s.error)</b> error</p>
        </header>

        """
        if !r.warnings.isEmpty {
            h += "<section><h2>Warnings</h2><ul>" + r.warnings.map { "<li>\(e($0))</li>" }.joined() + "</ul></section>\n"
        }
        h += "<section><h2>Gates</h2><table><tr><th>family</th><th>gate</th></tr>"
        h += r.gates.map { "<tr><td>\(e($0.family))</td><td><code>\(e($0.gate))</code></td></tr>" }.joined()
        h += "</table><p>Canaries (must fail, and did): " + r.canaries.map { "<code>\(e($0.pair))</code> → \(e($0.verdict.rawValue))\($0.diagnosis?.bugClass.map { " (\(e($0)))" } ?? "")" }.joined(separator: ", ") + "</p></section>\n"
        let order = r.pairs.indices.sorted { a, b in
            let ra = rank(r.pairs[a].verdict), rb = rank(r.pairs[b].verdict)
            return ra != rb ? ra < rb : a < b
        }
        h += "<section><h2>Pairs (failures first)</h2><table><tr><th>verdict</th><th>case</th><th>operation</th><th>family</th><th>diagnosis</th><th>details</th></tr>\n"
        for i in order {
            let p = r.pairs[i]
            let name = links[i].map { "<a href=\"\(e($0))\">\(e(p.caseID))</a>" } ?? e(p.caseID)
            let diagnosis = p.diagnosis.map { d in e(d.bugClass ?? "none") + (d.name.map { " — " + e($0) } ?? "") + " (\(String(format: "%.2f", d.confidence)))" } ?? ""
            var details = p.message ?? p.gate.map { g in g.clauses.map(\.text).joined(separator: "; ") } ?? ""
            if let golden = p.golden { details += " · golden: " + golden }
            h += "<tr class=\"\(p.verdict.rawValue)\"><td>\(p.verdict.rawValue)</td><td>\(name)</td><td>\(e(p.operation))</td><td>\(e(p.family ?? ""))</td><td>\(diagnosis)</td><td>\(e(details))</td></tr>\n"
        }
        h += "</table></section>\n<footer>\(e(r.schema)) · \(e(r.comparisonVersion)) · \(e(r.diagnosisVersion))</footer>\n</body></html>\n"
        return h
    }

    static func rank(_ v: PairResult.Verdict) -> Int {
        switch v {
        case .fail: return 0
        case .error: return 1
        case .pass: return 2
        }
    }

    static let css = """
    body{font:14px/1.4 system-ui,sans-serif;margin:1.5em;color:#222}
    table{border-collapse:collapse;margin:.5em 0}td,th{border:1px solid #ccc;padding:.2em .5em;text-align:left;vertical-align:top}
    tr.fail td:first-child{background:#fdd;font-weight:bold}tr.error td:first-child{background:#fec;font-weight:bold}
    tr.pass td:first-child{background:#dfd}.verdict.ok{color:#060}.verdict.bad{color:#b00}code{font-size:90%}
    """
}
