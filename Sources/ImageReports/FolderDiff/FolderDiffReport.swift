import Foundation
import ImageMetrics

/// The index of a folder diff's report, `DIR/index.html` (the pair pages under `DIR/pairs/` are
/// ``DiffReport`` pages, written by the workers). Self-contained like every page: inline CSS
/// and script, thumbnails as `data:` URIs, a Content-Security-Policy that forbids network access.
///
/// The counts, filters (status, diagnosis class, text) and one row per key, worst status first,
/// then key order: status, the key (linked to its page), the expected and actual thumbnails, the
/// diagnosis, and why. The list, its filters and its script are the run report's (``RunReport``:
/// the same element ids and `data-` attributes), so the two indexes behave alike.
///
/// Pure: results in, text out; every string goes through ``HTMLText/escape(_:)``.
enum FolderDiffReport {
    /// The index page; `thumbnails` holds each item's thumbnails, in item order.
    static func index(_ r: FolderDiffResults, thumbnails: [FolderThumbnails]) -> String {
        let e = HTMLText.escape
        let s = r.summary
        let counts = FolderDiffStatus.allCases.map { "<b>\(count(s, $0))</b> \(e(label($0)))" }.joined(separator: ", ")
            + " of \(s.keys) files — exit status \(r.exitStatus)"
        var h = """
        <header><h1>imglab diff</h1>
        <p>expected <code>\(e(r.expected))</code> · actual <code>\(e(r.actual))</code> · pairs by <code>\(r.match.rawValue)</code>\(r.gate.map { " · gate <code>\(e($0))</code>" } ?? " · no gate: identical by value")\(r.ignored.map { " · ignored <code>\(e($0))</code>" } ?? "")</p>
        \(VerdictBadge.html(markup: counts, ok: r.exitStatus == 0))
        </header>

        """
        if let failures = r.canaryFailures, !failures.isEmpty {
            h += HTMLBlocks.section("Canaries FAILED: the gate was not evaluated", HTMLBlocks.list(failures))
        }
        let classes = Array(Set(r.items.compactMap(\.diagnosisClass))).sorted()
        var list = "<form id=\"filters\" onsubmit=\"return false\">"
        for status in FolderDiffStatus.allCases where count(s, status) > 0 {
            list += "<label class=\"chip v-\(status.rawValue)\"><input type=\"checkbox\" name=\"verdict\" value=\"\(status.rawValue)\" checked> \(e(label(status))) \(count(s, status))</label> "
        }
        list += "<select id=\"family\" aria-label=\"diagnosis\"><option value=\"\">every diagnosis</option>"
        list += classes.map { "<option value=\"\(e($0))\">\(e($0))</option>" }.joined()
        list += "</select> <input id=\"text\" type=\"search\" placeholder=\"filter: file, diagnosis, clause…\" aria-label=\"text filter\" size=\"32\"> "
        list += "<button type=\"button\" id=\"clear\">clear</button> <span id=\"shown\" class=\"small\"></span> <span id=\"cell\" class=\"small\"></span></form>\n"
        list += "<table id=\"list\"><thead>" + HTMLBlocks.headerRow(["status", "file", "expected", "actual", "diagnosis", "why"]) + "</thead><tbody>\n"
        let order = r.items.indices.sorted { a, b in
            let x = r.items[a].status.severity, y = r.items[b].status.severity
            return x != y ? x < y : a < b
        }
        for i in order {
            let item = r.items[i]
            let name = item.page.map { "<a href=\"\(e($0))\">\(e(item.key))</a>" } ?? e(item.key)
            let files = [item.expected.map { "expected: " + $0 }, item.actual.map { "actual: " + $0 }].compactMap { $0 }
            let diagnosis = item.diagnosisClass.map { c in c + (item.diagnosisConfidence.map { String(format: " (%.2f)", $0) } ?? "") } ?? ""
            let why = item.message ?? ""
            let search = [item.key, item.expected ?? "", item.actual ?? "", diagnosis, item.diagnosis ?? "", why].joined(separator: " ").lowercased()
            let thumbs = i < thumbnails.count ? thumbnails[i] : FolderThumbnails()
            list += "<tr class=\"\(item.status.rawValue)\" data-verdict=\"\(item.status.rawValue)\" data-family=\"\(e(item.diagnosisClass ?? ""))\" data-text=\"\(e(search))\">"
            list += "<td>\(e(label(item.status)))</td><td>\(name)<div class=\"small\">\(e(files.joined(separator: " · ")))</div></td>"
            list += "<td>\(thumbnail(thumbs.expected))</td><td>\(thumbnail(thumbs.actual))</td>"
            list += "<td title=\"\(e(item.diagnosis ?? ""))\">\(e(diagnosis))</td><td>\(e(why))</td></tr>\n"
        }
        h += HTMLBlocks.section("Files (worst first)", id: "pairs", list + "</tbody></table>")
        h += HTMLBlocks.footer([r.schema, r.comparisonVersion, r.diagnosisVersion, "pages: key u returns here"])
        return HTMLPage(title: "imglab diff: \(r.expected) vs \(r.actual)", style: css, script: RunReport.script, embedsImages: true).render(h)
    }

    /// How a status reads in the report.
    static func label(_ status: FolderDiffStatus) -> String {
        status == .withinGate ? "within the gate" : status.rawValue
    }

    static func count(_ s: FolderDiffSummary, _ status: FolderDiffStatus) -> Int {
        switch status {
        case .changed: return s.changed
        case .new: return s.new
        case .deleted: return s.deleted
        case .error: return s.error
        case .withinGate: return s.withinGate
        case .unchanged: return s.unchanged
        }
    }

    /// A thumbnail cell's image, or a dash.
    static func thumbnail(_ image: EmbeddedImage?) -> String {
        guard let image else { return "—" }
        return "<img class=\"thumb\" alt=\"\" src=\"\(image.dataURI)\">"
    }

    static let css = RunReport.css + """
    .v-changed,tr.changed td:first-child{background:#f4b4b4}.v-new,tr.new td:first-child{background:#cfe3f7}
    .v-deleted,tr.deleted td:first-child{background:#f7c9a0}.v-within-gate,tr.within-gate td:first-child{background:#e4f2d0}
    .v-unchanged,tr.unchanged td:first-child{background:#d8efd8}
    img.thumb{max-width:160px;max-height:160px;background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/12px 12px;display:block}
    """
}
