import Foundation
import ImageMetrics

/// The diagnosis as the diff page shows it: the named class in bold with its summary, confidence
/// and references (or the summary alone), then the ranking of the candidates that explain a
/// meaningful share, with their explained share and, for those fitted to the pair by a strength,
/// that strength.
enum DiagnosisPanel {
    static func html(_ d: Diagnosis) -> String {
        let e = HTMLText.escape
        var h = "<p class=\"diag\">"
        if let cls = d.bugClass {
            h += "<strong>\(e(cls))</strong> — \(e(d.summary)) <span class=\"conf\">confidence \(e(String(format: "%.2f", d.confidence)))</span>"
            if !d.references.isEmpty { h += " <span class=\"refs\">(\(e(d.references.joined(separator: ", "))))</span>" }
        } else {
            h += e(d.summary)
        }
        h += "</p>"
        if !d.ranking.isEmpty {
            h += "<table class=\"rank\">" + HTMLBlocks.headerRow(["candidate", "explains", "strength", "meaning"])
            for r in d.ranking {
                h += "<tr><td><code>\(e(r.id))</code></td><td>\(e(String(format: "%.1f%%", r.explained * 100)))</td><td>\(e(r.strength.map { String(format: "%.2f", $0) } ?? "—"))</td><td>\(e(r.name))</td></tr>"
            }
            h += "</table><p class=\"small\">scored on \(d.sampledPixels) pixels; \(e(d.version))</p>"
        }
        return h
    }
}
