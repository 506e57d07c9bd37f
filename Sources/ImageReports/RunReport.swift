import ImageLab
import ImageCorpus
import Foundation
import ImageCore
import ImageMetrics

/// The HTML report of a run, `DIR/index.html` plus one page per pair under `DIR/pairs/`.
///
/// Every page is self-contained (inline CSS and script, images as data URIs, a
/// Content-Security-Policy that forbids network access). The index shows the summary counts,
/// two matrix heat maps (container × orientation, encoding (pixel format) × operation; each
/// cell coloured by its worst verdict, a passing cell shaded by its worst `deltaE00.p99`, and
/// linking to its pairs), filters (verdict, family, text), then every pair, failures first, as
/// ``IndexList`` data drawn a page at a time (the folder diff's index is the same list). A pair's page is ``DiffReport``'s page (side by side, slider, blend, toggle,
/// heat map, zoom, metric table with each gate bound, diagnosis, alpha views, metadata) for
/// the oracle vs the resizer's output, with the lab's ``DiffReport/Context``: the verdict,
/// the golden comparison, the source, oracle, golden and output images, the source's metadata,
/// and previous / next / index links in the index's order. One implementation shared with
/// `imglab diff --report`.
///
/// Pure: results in, `[relative path: text]` out; every string goes through
/// ``HTMLText/escape(_:)`` (ImageMetrics), and the scripts are constants that read the DOM.
public enum RunReport {
    /// The results' JSON in the report folder (schema imglab-run/1).
    public static let resultsFile = "results.json"
    /// The JUnit XML in the report folder.
    public static let junitFile = "junit.xml"

    /// The file of a pair's page, relative to the report folder: the index and the pair id
    /// with every character but letters, digits, `-`, `.` and `@` replaced by `_`, cut to 120.
    public static func pagePath(index: Int, pair: String) -> String {
        let safe = String(pair.unicodeScalars.map { ch -> Character in
            let ok = (ch >= "a" && ch <= "z") || (ch >= "A" && ch <= "Z") || (ch >= "0" && ch <= "9") || ch == "-" || ch == "." || ch == "@"
            return ok ? Character(ch) : "_"
        })
        // File names stay far below the 255-byte limit of common file systems; the index number keeps them unique.
        return "pairs/\(String(format: "%04d", index))-\(safe.prefix(120)).html"
    }

    /// The pairs' indices in report order: worst verdict first (``PairResult/Verdict/severity``),
    /// then manifest order.
    public static func order(_ r: RunResults) -> [Int] {
        r.pairs.indices.sorted { a, b in
            let ra = r.pairs[a].verdict.severity, rb = r.pairs[b].verdict.severity
            return ra != rb ? ra < rb : a < b
        }
    }

    /// Every file of the report: the pair pages (when evidence was kept) and `index.html`, last.
    /// Pages are rendered in parallel on `threads` threads; the output does not depend on it.
    public static func files(_ r: RunResults, evidence: [PairEvidence?],
                             threads: Int = ProcessInfo.processInfo.activeProcessorCount) -> [(path: String, text: String)] {
        let order = order(r)
        let linked = order.filter { $0 < evidence.count && evidence[$0] != nil }
        var position: [Int: Int] = [:]
        for (k, i) in linked.enumerated() { position[i] = k }
        let pages = ParallelMap.run(linked.count, threads: threads) { k -> Page? in
            let i = linked[k]
            guard let ev = evidence[i] else { return nil }
            let prev = k > 0 ? linked[k - 1] : nil, next = k + 1 < linked.count ? linked[k + 1] : nil
            let links = pageLinks(previous: prev.map { ($0, r.pairs[$0].pair) }, next: next.map { ($0, r.pairs[$0].pair) })
            guard let text = page(r.pairs[i], evidence: ev, links: links) else { return nil }
            return Page(index: i, text: text)
        }
        var files: [(String, String)] = []
        var hrefs: [Int: String] = [:]
        for page in pages {
            guard let page else { continue }
            let path = pagePath(index: page.index, pair: r.pairs[page.index].pair)
            hrefs[page.index] = path
            files.append((path, page.text))
        }
        var differences: [Int: String] = [:]
        for i in evidence.indices where i < r.pairs.count && evidence[i].map({ !$0.comparison.identical }) == true {
            differences[i] = IndexThumbnail.differencePath(index: i)
        }
        files.append(("index.html", index(r, links: hrefs, differences: differences)))
        return files
    }

    /// The index's difference thumbnails (``IndexThumbnail/difference(_:_:ignored:)``), one for
    /// each pair with evidence whose output differs from the oracle: the paths ``files(_:evidence:threads:)``'s
    /// index names, and the PNG bytes.
    public static func thumbnails(_ r: RunResults, evidence: [PairEvidence?]) -> [(path: String, png: [UInt8])] {
        evidence.indices.compactMap { i in
            guard i < r.pairs.count, let e = evidence[i], !e.comparison.identical,
                  let png = IndexThumbnail.difference(e.expected.image, e.actual.image, ignored: nil) else { return nil }
            return (IndexThumbnail.differencePath(index: i), png.bytes)
        }
    }

    private struct Page: Sendable {
        var index: Int
        var text: String
    }

    /// The navigation bar of a pair's page: the index, then the previous and next pages of the
    /// report's order among the pairs with a page (each given by its index and pair id).
    public static func pageLinks(previous: (index: Int, pair: String)?, next: (index: Int, pair: String)?) -> [DiffReport.Context.Link] {
        var links = [DiffReport.Context.Link(label: "index", href: "../index.html", rel: "up")]
        if let previous { links.append(.init(label: "← previous: \(previous.pair)", href: "../" + pagePath(index: previous.index, pair: previous.pair), rel: "prev")) }
        if let next { links.append(.init(label: "next: \(next.pair) →", href: "../" + pagePath(index: next.index, pair: next.pair), rel: "next")) }
        return links
    }

    /// The page of one pair: ``DiffReport/html(_:images:gate:canaryFailures:context:)`` of the
    /// oracle vs the output, with the lab's context. `nil` when an image cannot be encoded.
    public static func page(_ p: PairResult, evidence ev: PairEvidence, links: [DiffReport.Context.Link]) -> String? {
        pageParts(p, evidence: ev)?.joined(links: links)
    }

    /// ``page(_:evidence:links:)`` without its navigation bar (``DiffReport/Parts``).
    public static func pageParts(_ p: PairResult, evidence ev: PairEvidence) -> DiffReport.Parts? {
        guard let images = try? DiffReport.Images.make(expected: ev.expected, actual: ev.actual, expectedFile: ev.expectedFile) else { return nil }
        var figures: [DiffReport.Context.Figure] = []
        func figure(_ label: String, _ side: ComparedImage?, file: [UInt8]? = nil, caption: String) {
            guard let side, let embedded = try? EmbeddedImage.displayed(side, file: file) else { return }
            let size = side.image.displaySize
            figures.append(.init(label: label, image: embedded, width: size.width, height: size.height, caption: caption))
        }
        figure("source", ev.source, file: ev.sourceFile, caption: "\(p.encoding), EXIF orientation \(p.orientation), shown as displayed")
        figures.append(.init(label: "oracle", image: images.expected, width: ev.comparison.expected.displayWidth,
                             height: ev.comparison.expected.displayHeight, caption: "the ideal output (analytic)"))
        figure("golden", ev.golden, caption: p.golden ?? "")
        figures.append(.init(label: "output", image: images.actual, width: ev.comparison.actual.displayWidth,
                             height: ev.comparison.actual.displayHeight, caption: "the resizer's output"))
        if let heat = images.heatMapPNG {
            figures.append(.init(label: "diff heat map", image: EmbeddedImage(png: heat), width: ev.comparison.actual.displayWidth,
                                 height: ev.comparison.actual.displayHeight, caption: "oracle vs output, visible error"))
        }
        var facts: [(String, String)] = [("pair", p.pair), ("verdict", p.verdict.rawValue), ("family", p.family ?? "none"),
                                         ("encoding", "\(p.encoding) (\(p.container))"), ("frames", "\(p.frames)")]
        if let message = p.message { facts.append(("why", message)) }
        // The declared or inferred policies this pair was judged under, as the index lists them.
        if let labels = p.policy, !labels.isEmpty { facts.append(("policy", labels.map(\.text).joined(separator: " · "))) }
        if let d = p.diagnosis { facts.append(("diagnosis", (d.bugClass ?? "none") + String(format: " (confidence %.2f): ", d.confidence) + d.summary)) }
        if let golden = p.golden { facts.append(("golden", golden + (p.goldenHash.map { p.golden?.contains($0) == true ? "" : " — compared with golden \($0)" } ?? ""))) }
        let context = DiffReport.Context(
            title: "imglab run: \(p.pair)", verdict: verdictLine(p), verdictOK: !p.verdict.kind.fails, facts: facts,
            figures: figures, source: ev.source.map { ImageSummary(name: $0.name, container: $0.container, image: $0.image) })
        return DiffReport.parts(ev.comparison, images: images, gate: p.gate, context: context)
    }

    static func verdictLine(_ p: PairResult) -> String {
        switch p.verdict {
        case .pass: return "pass" + (p.gate.map { ": within the gate \($0.expression)" } ?? "")
        case .fail: return "FAIL: " + (p.message ?? "outside the gate")
        case .error: return "ERROR: " + (p.message ?? "")
        case .changedCloser: return "changed, closer to the oracle (passes; accept it with 'imglab bless')"
        case .changedFurther: return "CHANGED, FURTHER from the oracle than every golden: a regression"
        }
    }

    /// The index page; `links` maps a pair's index to its page: ``indexHead(_:figures:)``, the
    /// ``indexRow(_:link:)`` of every pair in report order (``order(_:)``), ``indexTail(_:)``.
    public static func index(_ r: RunResults, links: [Int: String], differences: [Int: String] = [:]) -> String {
        var figures = IndexFigures()
        for p in r.pairs { figures.add(p) }
        return indexHead(r, figures: figures) + order(r).map { indexRow(r.pairs[$0], link: links[$0], difference: differences[$0]) }.joined()
            + indexTail(r)
    }

    /// What the index shows of the pairs besides their rows, gathered pair by pair in manifest
    /// order (so a streamed run needs no pair list): the two matrices, the families, and the
    /// pairs judged under a declared policy.
    public struct IndexFigures: Sendable {
        /// One matrix cell: its pairs' count, worst verdict, pairs not passing, worst `deltaE00.p99`.
        struct Cell: Sendable {
            var members = 0
            var worst = PairResult.Verdict.pass
            var failing = 0
            var delta: Double?
        }
        /// One matrix: its cells by row and column value.
        struct Matrix: Sendable {
            var cells: [String: [String: Cell]] = [:]
        }
        var byContainer = Matrix()
        var byEncoding = Matrix()
        var families: Set<String> = []
        var pairsUnderPolicy = 0
        var causes = FailureCauses()

        public init() {}

        /// Adds a pair (in manifest order).
        public mutating func add(_ p: PairResult) {
            Self.add(p, to: &byContainer, row: p.container, column: String(p.orientation))
            Self.add(p, to: &byEncoding, row: p.encoding, column: p.operation)
            if let family = p.family { families.insert(family) }
            if p.policy != nil { pairsUnderPolicy += 1 }
            causes.add(p)
        }

        private static func add(_ p: PairResult, to matrix: inout Matrix, row: String, column: String) {
            var cell = matrix.cells[row]?[column] ?? Cell()
            cell.members += 1
            if p.verdict.severity < cell.worst.severity || cell.members == 1 { cell.worst = p.verdict }
            if p.verdict != .pass { cell.failing += 1 }
            if let v = p.metrics["deltaE00.p99"] {
                // As `max()` over the cell in manifest order.
                if let d = cell.delta { if d < v { cell.delta = v } } else { cell.delta = v }
            }
            matrix.cells[row, default: [:]][column] = cell
        }
    }

    /// The index page up to the first row of the pair list: the summary (from `r.summary`), the
    /// matrices and the filters (from `figures`).
    public static func indexHead(_ r: RunResults, figures: IndexFigures) -> String {
        let e = HTMLText.escape
        let s = r.summary
        let counts = "\(s.pairs) pairs: <b>\(s.pass)</b> pass, <b>\(s.fail)</b> fail, <b>\(s.error)</b> error"
            + (s.changedCloser + s.changedFurther > 0 ? ", <b>\(s.changedCloser)</b> changed-closer, <b>\(s.changedFurther)</b> changed-further" : "")
            + " — exit status \(exitStatus(s))"
        var h = """
        <header><h1>imglab run</h1>
        <p>resizer <code>\(e(r.resizer))</code> · profile <code>\(e(r.profile))</code> · corpus <code>\(e(r.corpus))</code> · shard \(r.shard.map(String.init).joined(separator: "/"))\(r.filter.isEmpty ? "" : " · filter <code>\(e(r.filter.joined(separator: ",")))</code>")</p>
        \(VerdictBadge.html(markup: counts, ok: exitStatus(s) == 0))
        <p class="counts">
        """
        for v in verdictsBySeverity {
            h += "<span class=\"chip v-\(v.rawValue)\">\(e(v.rawValue)) \(s.count(v))</span> "
        }
        h += "</p>"
        if let policy = r.policy {
            let origin = policy.inferred ? "contract inferred from the resizer's fingerprint (it declares no policy; <a href=\"#contract\">the contract table</a>)" : "declared policies"
            h += "<p class=\"small\">\(origin): <code>\(e(policy.summary))</code>; \(figures.pairsUnderPolicy) pairs judged under them (labelled below), \(r.skipped?.count ?? 0) skipped</p>"
        }
        h += "<p class=\"small\">beside this page: <a href=\"\(resultsFile)\">\(resultsFile)</a> (every pair\u{2019}s metrics and verdict) · <a href=\"\(junitFile)\">\(junitFile)</a> (for CI)</p>"
        h += "</header>\n"
        if !r.warnings.isEmpty { h += HTMLBlocks.section("Warnings", HTMLBlocks.list(r.warnings)) }
        if let contract = r.contract { h += ContractTable.html(contract) }
        if !figures.causes.lines.isEmpty {
            let rows = figures.causes.byCount.map { g in
                [String(g.count), e(g.bugClass ?? ""), g.forms.map { "\($0.count) × " + e($0.name) }.joined(separator: "<br>"),
                 e(g.examples.joined(separator: ", "))]
            } + (figures.causes.undiagnosed.map { u in [[String(u.count), "undiagnosed", "no cause explains half of the difference", e(u.examples.joined(separator: ", "))]] } ?? [])
            h += HTMLBlocks.section("Failures by cause", "<p class=\"small\">Each row: the failures one diagnosed bug class explains, with each form it took (the bug hypothesis whose prediction matches them) and its count; the undiagnosed apart.</p><table id=\"causes\"><thead>"
                + HTMLBlocks.headerRow(["failures", "bug class", "forms", "e.g."]) + "</thead><tbody>"
                + rows.map { "<tr>" + $0.map { "<td>\($0)</td>" }.joined() + "</tr>" }.joined() + "</tbody></table>")
        }
        h += HTMLBlocks.section("Matrix", "<p class=\"small\">Each cell: the pairs of that combination, coloured by the worst verdict (a passing cell is darker the larger its worst <code>deltaE00.p99</code>); click to filter the list.</p><div class=\"matrices\">"
            + matrix(figures.byContainer, title: "container × EXIF orientation", row: "container", column: "orientation")
            + matrix(figures.byEncoding, title: "encoding (pixel format) × operation", row: "encoding", column: "operation")
            + "</div>")

        let statuses = verdictsBySeverity.filter { s.count($0) > 0 }.map { (value: $0.rawValue, label: $0.rawValue, count: Int?.none) }
        var list = IndexList.filters(statuses: statuses, families: figures.families.sorted(), familyLabel: "family",
                                     placeholder: "filter: case, operation, diagnosis…")
        list += IndexList.opening(columns: ["verdict", "case", "operation", "difference", "family", "diagnosis", "details"], noun: "pairs")
        h += HTMLBlocks.sectionOpening("Pairs (failures first)", id: "pairs") + list
        return indexPage(r).opening + h
    }

    /// The exit status of these counts (as ``RunResults/exitStatus``).
    static func exitStatus(_ s: RunResults.Summary) -> Int32 { ExitRule.status(failing: s.failing) }

    /// The shell of the index page.
    static func indexPage(_ r: RunResults) -> HTMLPage {
        HTMLPage(title: "imglab run: \(r.resizer) on \(r.profile)", style: css, script: IndexList.script, embedsImages: false,
                 showsImageFiles: true)
    }

    /// One pair's row of the index's list (a line of ``IndexList``'s data), its case linked to
    /// `link` (its page) when given, with its difference thumbnail (a path beside the index) when
    /// given; a matrix cell's link matches its container, orientation, encoding and operation.
    public static func indexRow(_ p: PairResult, link: String?, difference: String? = nil) -> String {
        let diagnosis = p.diagnosis.map { d in (d.bugClass ?? "none") + (d.name.map { " — " + $0 } ?? "") + " (\(String(format: "%.2f", d.confidence)))" } ?? ""
        var details = p.message ?? p.gate.map { $0.failedClauses.joined(separator: "; ") } ?? ""
        if let golden = p.golden, p.message != golden { details += (details.isEmpty ? "" : " · ") + "golden: " + golden }
        if let labels = p.policy { details += (details.isEmpty ? "" : " · ") + labels.map(\.text).joined(separator: " · ") }
        if let cost = p.cost { details += (details.isEmpty ? "" : " · ") + "cost: " + cost.summary }
        let attributes = [("container", p.container), ("orientation", String(p.orientation)), ("encoding", p.encoding), ("operation", p.operation)]
        return IndexRow(status: p.verdict.rawValue, family: p.family ?? "", attributes: attributes.map { (name: $0.0, value: $0.1) },
                        search: [p.pair, p.encoding, p.container].joined(separator: " "),
                        cells: [.text(p.verdict.rawValue), .link(p.caseID, href: link, note: nil), .text(p.operation),
                                .image(difference, class: "diff"), .text(p.family ?? ""), .text(diagnosis), .text(details)]).line
    }

    /// The index page after the last row: the skipped pairs, the gates and canaries, the footer.
    public static func indexTail(_ r: RunResults) -> String {
        let e = HTMLText.escape
        var h = IndexList.closing + HTMLBlocks.sectionClosing
        if let skipped = r.skipped, !skipped.isEmpty {
            h += HTMLBlocks.section("Skipped: not declared by the resizer's policies (\(skipped.count))", id: "skipped", "<table>" + HTMLBlocks.headerRow(["pair", "reason"])
                + skipped.map { "<tr><td><code>\(e($0.pair))</code></td><td>\(e($0.reason))</td></tr>" }.joined() + "</table>")
        }
        h += HTMLBlocks.section("Gates and canaries", "<table>" + HTMLBlocks.headerRow(["family", "gate"])
            + r.gates.map { "<tr><td>\(e($0.family))</td><td><code>\(e($0.gate))</code></td></tr>" }.joined()
            + "</table><p>Canaries (must fail, and did): " + r.canaries.map { "<code>\(e($0.pair))</code> → \(e($0.verdict.rawValue))\($0.diagnosis?.bugClass.map { " (\(e($0)))" } ?? "")" }.joined(separator: ", ") + "</p>")
        h += HTMLBlocks.footer([r.schema, r.comparisonVersion, r.diagnosisVersion, "pages: keys n / p / u"])
        return h + indexPage(r).closing
    }

    /// Every verdict, worst first.
    static let verdictsBySeverity = PairResult.Verdict.allCases.sorted { $0.severity < $1.severity }

    /// One matrix heat map: rows and columns are the distinct values of two pair attributes
    /// (`row` and `column` name the rows' `data-NAME` attributes the cells filter on).
    static func matrix(_ m: IndexFigures.Matrix, title: String, row: String, column: String) -> String {
        let e = HTMLText.escape
        let rows = m.cells.keys.sorted()
        let columns = Set(m.cells.values.flatMap(\.keys)).sorted { a, b in
            if let x = Int(a), let y = Int(b) { return x < y }
            return a < b
        }
        var h = "<table class=\"matrix\"><caption>\(e(title))</caption><tr><th></th>"
        h += columns.map { "<th class=\"col\"><span>\(e($0))</span></th>" }.joined() + "</tr>"
        for a in rows {
            h += "<tr><th>\(e(a))</th>"
            for b in columns {
                guard let cell = m.cells[a]?[b] else { h += "<td class=\"empty\"></td>"; continue }
                let worst = cell.worst, delta = cell.delta
                var style = ""
                if worst == .pass, let delta {
                    // Lightness 92 % (ΔE 0) to 55 % (ΔE ≥ 20): a passing cell darkens with its worst colour error.
                    let lightness = 92 - 37 * min(1, delta / 20)
                    style = " style=\"background:hsl(120,45%,\(String(format: "%.0f", lightness))%)\""
                }
                let tip = "\(row) \(a) × \(column) \(b): \(cell.members) pair(s), worst \(worst.rawValue)" + (delta.map { String(format: ", worst deltaE00.p99 %.3g", $0) } ?? "")
                let href = "#\(row)=\(fragment(a))&\(column)=\(fragment(b))"
                h += "<td class=\"v-\(worst.rawValue)\"\(style) title=\"\(e(tip))\"><a href=\"\(e(href))\">\(cell.failing > 0 ? "\(cell.failing)/\(cell.members)" : "\(cell.members)")</a></td>"
            }
            h += "</tr>"
        }
        return h + "</table>"
    }

    /// Percent-encodes a value for a URL fragment (the script decodes it).
    static func fragment(_ s: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return s.addingPercentEncoding(withAllowedCharacters: allowed) ?? ""
    }

    static let css = PageStyle.document + IndexList.css + """
    .v-fail,tr.fail td:first-child{background:#f4b4b4}.v-changed-further,tr.changed-further td:first-child{background:#f7c9a0}
    .v-error,tr.error td:first-child{background:#fde3a7}.v-changed-closer,tr.changed-closer td:first-child{background:#cfe3f7}
    .v-pass,tr.pass td:first-child{background:#d8efd8}tr td:first-child{font-weight:bold}
    .small{font-size:12px;color:#666}
    .chip{display:inline-block;padding:1px 8px;border-radius:10px;margin:2px 2px 2px 0;font-size:12px}
    .matrices{display:flex;flex-wrap:wrap;gap:24px;align-items:flex-start}
    table.matrix{font-size:11px}table.matrix td{text-align:center;padding:0;min-width:1.8em}table.matrix td a{display:block;padding:2px 3px;color:#222;text-decoration:none}
    table.matrix th{white-space:nowrap;padding:1px 4px;font-weight:normal}table.matrix th.col span{writing-mode:vertical-rl;transform:rotate(180deg)}
    table.matrix td.empty{background:#f6f6f6}table.matrix caption{text-align:left;font-weight:bold;padding:2px 0}
    footer{margin-top:2em;color:#888;font-size:12px}
    img.thumb.diff{image-rendering:pixelated}
    img.thumb{max-width:160px;max-height:160px;background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/12px 12px;display:block}
    """
}
