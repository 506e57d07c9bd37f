import Foundation
import ImageMetrics

/// The `imglab diff --report` page: ONE self-contained HTML file (images embedded as data
/// URIs, inline CSS and script, a Content-Security-Policy that forbids any network access) to
/// attach to a bug report; also the page of each pair of a run (``RunReport``) and of an
/// `expectImage` mismatch, with their ``Context``.
///
/// In order: the names and the verdict, the context's facts, the diagnosis with its ranking
/// (``DiagnosisPanel``), the context's image strip (``FigureStrip``), the viewer
/// (``DiffViewer``: side by side, slider, blend, toggle, heat map, pixel-exact zoom, keys), the
/// gate and metric table (``MetricTable``), the metadata (``MetadataTable``), the three alpha
/// views (``AlphaViewsTable``), the exact difference and bias (``ExactDifferenceTable``), notes.
///
/// Pure: a value in, a `String` out. Every string that comes from a file name, metadata or a
/// metric goes through ``HTMLText/escape(_:)``; the script is a constant and reads its data
/// from the DOM, so no input text is ever placed in script.
public enum DiffReport {
    /// Renders the page.
    /// - Parameters:
    ///   - gate: the gate's outcome, when one was given.
    ///   - canaryFailures: canary failures, when the canaries ran (empty = all passed).
    ///   - context: what a larger report adds (navigation, verdict, facts, image strip, source metadata).
    public static func html(_ c: Comparison, images: Images, gate: GateResult? = nil, canaryFailures: [Canaries.Failure]? = nil,
                            context: Context = Context()) -> String {
        parts(c, images: images, gate: gate, canaryFailures: canaryFailures, context: context).joined(links: context.links)
    }

    /// A page without its navigation bar, so the bar can be added once the neighbours are known
    /// (a run's pages are rendered as pairs are judged, their previous / next links at the end).
    public struct Parts: Sendable {
        /// The page up to the navigation bar.
        public var beforeLinks: String
        /// The page after the navigation bar.
        public var afterLinks: String

        /// The page with `links` as its navigation bar (none when empty).
        public func joined(links: [Context.Link]) -> String {
            beforeLinks + DiffReport.navigation(links) + afterLinks
        }
    }

    /// The navigation bar of `links` (`<nav class="links">`; empty for no links).
    public static func navigation(_ links: [Context.Link]) -> String {
        guard !links.isEmpty else { return "" }
        let e = HTMLText.escape
        return "<nav class=\"links\">" + links.map { l in
            "<a href=\"\(e(l.href))\"\(l.rel.map { " rel=\"\(e($0))\"" } ?? "")>\(e(l.label))</a>"
        }.joined(separator: " · ") + "</nav>"
    }

    /// The page of ``html(_:images:gate:canaryFailures:context:)`` around its navigation bar
    /// (`context.links` is not used).
    public static func parts(_ c: Comparison, images: Images, gate: GateResult? = nil, canaryFailures: [Canaries.Failure]? = nil,
                             context: Context = Context()) -> Parts {
        let e = HTMLText.escape
        let head = "<header><h1>\(e(context.title))</h1>\n"
        var h = """
        <p class="names"><span class="tag exp">expected</span> <code>\(e(c.expected.name))</code>
        <span class="tag act">actual</span> <code>\(e(c.actual.name))</code></p>
        \(VerdictBadge.html(text: context.verdict ?? verdict(c, gate), ok: context.verdict == nil ? passed(c, gate) : context.verdictOK))
        </header>

        """
        if !context.facts.isEmpty {
            h += "<table class=\"facts\">" + context.facts.map { "<tr><th>\(e($0.0))</th><td>\(e($0.1))</td></tr>" }.joined() + "</table>\n"
        }
        h += HTMLBlocks.section("Diagnosis", DiagnosisPanel.html(c.diagnosis))
        if !context.figures.isEmpty { h += HTMLBlocks.section("Source, oracle, golden, output", FigureStrip.html(context.figures)) }
        h += DiffViewer.html(c, images)
        h += HTMLBlocks.section("Metrics", MetricTable.html(c, gate))
        h += HTMLBlocks.section("Metadata", MetadataTable.html(c, source: context.source))
        if let a = c.alphaViews { h += HTMLBlocks.section("Alpha, three views", AlphaViewsTable.html(a)) }
        if !c.bias.isEmpty || c.exact != nil { h += HTMLBlocks.section("Exact difference and bias", ExactDifferenceTable.html(c)) }
        var notes = c.notes
        notes.append("compared as \(c.comparedAs)")
        if let f = canaryFailures {
            notes.append(f.isEmpty ? "canaries: every metric told the must-differ pair from the must-match pairs" : "canaries FAILED: " + f.map(\.description).joined(separator: "; "))
        }
        h += HTMLBlocks.section("Notes", HTMLBlocks.list(notes))
        h += HTMLBlocks.footer([Comparison.version, Diagnosis.version], html: " · press <kbd>?</kbd> for keys")
        h += DiffViewer.help
        let page = HTMLPage(title: "\(context.title): \(c.expected.name) vs \(c.actual.name)", style: css, script: DiffViewer.script, embedsImages: true)
        return Parts(beforeLinks: page.opening + head, afterLinks: h + page.closing)
    }

    /// Renders the page of a judgement: its comparison, gate and canaries.
    public static func html(_ judgement: Judgement, images: Images, context: Context = Context()) -> String {
        var context = context
        if let colour = judgement.colour, colour.isNotable { context.facts.append(("colour", colour.summary)) }
        if let aligned = judgement.alignmentSummary { context.facts.append(("aligned", aligned)) }
        if let resized = judgement.resized { context.facts.append(("resized", resized)) }
        return html(judgement.comparison, images: images, gate: judgement.gate, canaryFailures: judgement.canaryFailures, context: context)
    }

    /// The verdict line without a context: the gate's, else the sizes, else identical or not.
    static func verdict(_ c: Comparison, _ gate: GateResult?) -> String {
        if let gate { return gate.passed ? "within the gate: \(gate.expression)" : "FAILS the gate: \(gate.expression)" }
        if !c.sameSize { return "different sizes: \(c.expected.displayWidth)×\(c.expected.displayHeight) vs \(c.actual.displayWidth)×\(c.actual.displayHeight)" }
        return c.identical ? "identical by value" : "different"
    }

    /// Whether that verdict is good: the gate passed, or (without a gate) identical by value.
    static func passed(_ c: Comparison, _ gate: GateResult?) -> Bool { gate?.passed ?? c.identical }

    /// A metric value in the tables: integers as such, otherwise 2, 4 or 6 decimals by magnitude; `—` for none.
    static func format(_ v: Double?) -> String {
        guard let v else { return "—" }
        if v.isInfinite { return v > 0 ? "∞" : "−∞" }
        if v == v.rounded() && abs(v) < 1e12 { return String(Int(v)) }
        return String(format: abs(v) >= 100 ? "%.2f" : (abs(v) >= 1 ? "%.4f" : "%.6f"), v)
    }

    static let css = PageStyle.viewer + """
    h2{font-size:16px;margin:18px 0 6px;border-bottom:1px solid #ddd}
    .tag{font-size:11px;padding:1px 5px;border-radius:3px;color:#fff}.exp{background:#357}.act{background:#753}
    table.facts th{background:#f0f0f0}nav.links{margin:4px 0}

    """ + DiffViewer.css + FigureStrip.css + MetricTable.css + MetadataTable.css
}
