import Foundation
import ImageMetrics

/// The index of a folder diff's report, `DIR/index.html` (the pair pages under `DIR/pairs/` are
/// ``DiffReport`` pages, written by the workers). Self-contained like every page: inline CSS
/// and script, a Content-Security-Policy that forbids network access; the thumbnails are small
/// PNG files beside it (`thumbs/`), loaded for the rows shown.
///
/// The counts, the accept panel (``acceptPanel(_:)``: tick files, copy the `imglab accept`
/// command), filters (status, diagnosis class, text) and one row per key, worst status first,
/// then key order: status, a tick box (files that differ), the key (linked to its page), the
/// expected and actual thumbnails, the difference thumbnail (the heat map, each pixel its block's
/// worst), the diagnosis, and why. The list, its filters and its script are the run report's (``RunReport``:
/// the same element ids and `data-` attributes), so the two indexes behave alike.
///
/// Pure: results in, text out; every string goes through ``HTMLText/escape(_:)``.
enum FolderDiffReport {
    /// The results' JSON in the report folder (schema `imglab-folder-diff/1`, as `--json` writes it).
    static let resultsFile = "results.json"

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
        <p class="small">beside this page: <a href="\(resultsFile)">\(resultsFile)</a> (every file\u{2019}s status, metrics and diagnosis; \
        <code>imglab accept --from</code> and <code>imglab report</code> read it)</p>
        </header>

        """
        if let failures = r.canaryFailures, !failures.isEmpty {
            h += HTMLBlocks.section("Canaries FAILED: the gate was not evaluated", HTMLBlocks.list(failures))
        }
        let classes = Array(Set(r.items.compactMap(\.diagnosisClass))).sorted()
        let statuses = FolderDiffStatus.allCases.filter { count(s, $0) > 0 }.map { (value: $0.rawValue, label: label($0), count: Optional(count(s, $0))) }
        var list = IndexList.filters(statuses: statuses, families: classes, familyLabel: "diagnosis", placeholder: "filter: file, diagnosis, clause…")
        list += IndexList.opening(columns: ["status", "accept", "file", "expected", "actual", "difference", "diagnosis", "why"], noun: "files")
        let order = r.items.indices.sorted { a, b in
            let x = r.items[a].status.severity, y = r.items[b].status.severity
            return x != y ? x < y : a < b
        }
        for i in order {
            list += row(r.items[i], thumbnails: i < thumbnails.count ? thumbnails[i] : FolderThumbnails()).line
        }
        list += IndexList.closing
        h += acceptPanel(r)
        h += HTMLBlocks.section("Files (worst first)", id: "pairs", list)
        h += HTMLBlocks.footer([r.schema, r.comparisonVersion, r.diagnosisVersion, "pages: key u returns here"])
        return HTMLPage(title: "imglab diff: \(r.expected) vs \(r.actual)", style: css, script: IndexList.script + acceptScript, embedsImages: false,
                        showsImageFiles: true).render(h)
    }

    /// One key's row: status, accept box (files that differ), key (linked to its page) with its
    /// files and masks, the three thumbnails, the diagnosis (its summary as the tooltip), and why.
    static func row(_ item: FolderDiffItem, thumbnails: FolderThumbnails) -> IndexRow {
        // Masks apply to a pair compared by value (not to different sizes, an error, or the same bytes).
        let masked = item.ignored.map { regions in
            item.ignoredPixels.map { "ignored \($0) px: " + regions } ?? "masks not applied (\(regions))"
        }
        let files = [item.expected.map { "expected: " + $0 }, item.actual.map { "actual: " + $0 }, masked].compactMap { $0 }
        let diagnosis = item.diagnosisClass.map { c in c + (item.diagnosisConfidence.map { String(format: " (%.2f)", $0) } ?? "") } ?? ""
        return IndexRow(status: item.status.rawValue, family: item.diagnosisClass ?? "", cells: [
            .text(label(item.status)), item.status.isAcceptable ? .accept(item.key) : .empty,
            .link(item.key, href: item.page, note: files.joined(separator: " · ")),
            .image(thumbnails.expected), .image(thumbnails.actual), .image(thumbnails.difference, class: "diff"),
            .text(diagnosis, title: item.diagnosis), .text(item.message ?? ""),
        ])
    }

    /// The accept panel: the `imglab accept` command of the files ticked in the list, to copy
    /// (a static page cannot write files).
    static func acceptPanel(_ r: FolderDiffResults) -> String {
        let e = HTMLText.escape
        let body = """
        <p class="small">Tick files in the list (<button type="button" id="accept-shown">tick every shown file that differs</button> \
        <button type="button" id="accept-none">untick all</button>), then run the command from the folder the diff ran in. \
        The old baselines stay in <code>\(e(r.expected))/.imglab-history</code>: <code>imglab accept \(e(r.expected)) --undo last</code> \
        puts them back (docs/accept.md).</p>
        <pre id="accept-command" data-baseline="\(e(r.expected))" data-actual="\(e(r.actual))" data-match="\(r.match.rawValue)"></pre>
        <button type="button" id="accept-copy">copy the command</button> <span id="accept-count" class="small"></span>
        """
        return HTMLBlocks.section("Accept as the new baseline", id: "accept", body)
    }

    /// The accept panel's script (after ``IndexList/script``): the command of the ticked keys,
    /// each quoted for a POSIX shell.
    static let acceptScript = """
    (function(){
    'use strict';
    var panel=document.getElementById('accept-command');if(!panel){return;}
    var copy=document.getElementById('accept-copy'),count=document.getElementById('accept-count');
    function quoted(s){return "'"+s.split("'").join("'\\\\''")+"'";}
    function update(){
      var keys=imglabList.ticked();
      var head='imglab accept '+quoted(panel.getAttribute('data-baseline'))+' '+quoted(panel.getAttribute('data-actual'))
        +(panel.getAttribute('data-match')==='stem'?' --match stem':'')+' --';
      panel.textContent=keys.length?head+' '+keys.map(quoted).join(' '):'(no file ticked)';
      count.textContent=keys.length+' of '+imglabList.tickable()+' ticked';copy.disabled=!keys.length;
    }
    imglabList.onChange(update);
    document.getElementById('accept-shown').addEventListener('click',imglabList.tickShown);
    document.getElementById('accept-none').addEventListener('click',imglabList.untickAll);
    copy.addEventListener('click',function(){
      var range=document.createRange();range.selectNodeContents(panel);var sel=window.getSelection();sel.removeAllRanges();sel.addRange(range);
      if(navigator.clipboard){navigator.clipboard.writeText(panel.textContent).catch(function(){});}else{document.execCommand('copy');}
    });
    update();
    })();
    """

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

    static let css = RunReport.css + """
    .v-changed,tr.changed td:first-child{background:#f4b4b4}.v-new,tr.new td:first-child{background:#cfe3f7}
    .v-deleted,tr.deleted td:first-child{background:#f7c9a0}.v-within-gate,tr.within-gate td:first-child{background:#e4f2d0}
    .v-unchanged,tr.unchanged td:first-child{background:#d8efd8}
    """
}
