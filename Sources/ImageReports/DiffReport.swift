import ImageLab
import ImageMetrics
import ImageCorpus
import Foundation
import ImageCore
import ImageCodecs

/// The `imglab diff --report` page: ONE self-contained HTML file (images embedded as data
/// URIs, inline CSS and script, a Content-Security-Policy that forbids any network access) to
/// attach to a bug report.
///
/// Views: side by side, slider, blend, toggle and heat map; keyboard navigation (1–5 views,
/// space toggles, + / − / 0 zoom, ← / → move the slider or blend, ? help); pixel-exact zoom
/// (the page opens at the largest power-of-two zoom that fits, small images enlarged)
/// (integer factors, `image-rendering: pixelated`) with a pixel inspector; the metric table
/// with units and definition versions, the gate, the metadata diff, the three alpha views and
/// the diagnosis with its ranking.
///
/// Pure: a value in, a `String` out; only the CLI writes the file. Every string that comes
/// from a file name, metadata or a metric goes through ``HTMLText/escape(_:)``; the script is
/// a constant and reads its data from the DOM, so no input text is ever placed in script.
public enum DiffReport {
    /// An encoded image to embed, with its MIME type.
    public struct EmbeddedImage: Sendable {
        public var bytes: [UInt8]
        /// `image/png`, `image/jpeg`, `image/gif` or `image/bmp`.
        public var mimeType: String
        public init(bytes: [UInt8], mimeType: String) { self.bytes = bytes; self.mimeType = mimeType }
        var dataURI: String { "data:\(mimeType);base64," + Data(bytes).base64EncodedString() }

        /// An image as a browser should show it: the original file as is when a browser shows it
        /// exactly as compared (PNG, JPEG, GIF or BMP, orientation up, one frame), otherwise the
        /// displayed pixels encoded as PNG (converted to 8- or 16-bit RGB(A) when PNG cannot
        /// store the format; for display only).
        /// - Parameter file: the original file bytes, when the caller has them.
        public static func displayed(_ side: ComparedImage, file: [UInt8]? = nil) throws(EncodeError) -> EmbeddedImage {
            if let file, let container = side.container, side.image.orientation == .up, side.image.frameCount == 1 {
                let mime: String? = switch container {
                case .png: "image/png"
                case .jpeg: "image/jpeg"
                case .gif: "image/gif"
                case .bmp: "image/bmp"
                case .tiff: nil
                }
                if let mime { return EmbeddedImage(bytes: file, mimeType: mime) }
            }
            return EmbeddedImage(bytes: try Images.png(side.image), mimeType: "image/png")
        }
    }

    /// What a caller embedding the page in a larger report adds around the comparison (the lab
    /// report's pair pages: navigation, the pair's verdict, the source and golden images, the
    /// source's metadata). Every string is escaped when rendered; nothing here is HTML.
    public struct Context: Sendable {
        /// A link in the page's navigation bar. `rel` `prev` / `next` links are followed by the
        /// keys `p` / `n`, `up` by `u`.
        public struct Link: Sendable {
            public var label: String
            /// A relative URL (escaped as an attribute value).
            public var href: String
            /// `prev`, `next`, `up` or `nil`.
            public var rel: String?
            public init(label: String, href: String, rel: String? = nil) { self.label = label; self.href = href; self.rel = rel }
        }

        /// One image of the strip shown before the viewer.
        public struct Figure: Sendable {
            /// e.g. `source`, `oracle`, `golden 0123…`, `output`.
            public var label: String
            public var image: EmbeddedImage
            /// Displayed size in pixels (the figure is shown at an integer zoom with pixelated rendering).
            public var width: Int, height: Int
            /// One line under the image.
            public var caption: String
            public init(label: String, image: EmbeddedImage, width: Int, height: Int, caption: String = "") {
                self.label = label; self.image = image; self.width = width; self.height = height; self.caption = caption
            }
        }

        /// Page heading and title (default `imglab diff`).
        public var title: String
        /// The verdict line, replacing the gate's (text, and whether it is good).
        public var verdict: String?
        public var verdictOK: Bool
        /// Navigation links, shown under the heading.
        public var links: [Link]
        /// Facts shown as a table at the top: (field, value).
        public var facts: [(String, String)]
        /// The image strip shown before the viewer.
        public var figures: [Figure]
        /// The source the expected and actual images were made from: its metadata becomes the
        /// first column of the metadata table (pixel format in Quartz terms, orientation, ICC, frames).
        public var source: ImageSummary?

        public init(title: String = "imglab diff", verdict: String? = nil, verdictOK: Bool = true, links: [Link] = [],
                    facts: [(String, String)] = [], figures: [Figure] = [], source: ImageSummary? = nil) {
            self.title = title
            self.verdict = verdict
            self.verdictOK = verdictOK
            self.links = links
            self.facts = facts
            self.figures = figures
            self.source = source
        }
    }

    /// Encoded images to embed.
    public struct Images: Sendable {
        /// The expected image as compared (displayed orientation).
        public var expected: EmbeddedImage
        /// The actual image as compared.
        public var actual: EmbeddedImage
        /// PNG of the heat map, when the sizes are equal.
        public var heatMapPNG: [UInt8]?

        public init(expected: EmbeddedImage, actual: EmbeddedImage, heatMapPNG: [UInt8]?) {
            self.expected = expected
            self.actual = actual
            self.heatMapPNG = heatMapPNG
        }

        /// The images to embed for two compared sides. A side's original file is embedded as is
        /// when a browser shows it exactly as compared (PNG, JPEG, GIF or BMP, orientation up,
        /// one frame); otherwise the displayed pixels are encoded as PNG (formats PNG cannot store
        /// are converted to 8- or 16-bit RGB(A), for display only). Pure: bytes in, bytes out.
        /// - Parameters:
        ///   - expectedFile, actualFile: the original file bytes, when the caller has them.
        public static func make(expected: ComparedImage, actual: ComparedImage,
                                expectedFile: [UInt8]? = nil, actualFile: [UInt8]? = nil) throws(EncodeError) -> Images {
            func embedded(_ side: ComparedImage, _ file: [UInt8]?) throws(EncodeError) -> EmbeddedImage {
                try EmbeddedImage.displayed(side, file: file)
            }
            var heat: [UInt8]?
            let withAlpha = expected.image.format.hasAlpha || actual.image.format.hasAlpha
            let ev = ValueImage(expected.image, withAlpha: withAlpha), av = ValueImage(actual.image, withAlpha: withAlpha)
            if ev.width == av.width && ev.height == av.height {
                // Indexed (70 colours): a third of the bytes to filter and deflate, the same pixels.
                heat = try ImageCodecs.encode(Image(bitmap: HeatMap.indexedBitmap(expected: ev, actual: av)), as: .png)
            }
            return Images(expected: try embedded(expected, expectedFile), actual: try embedded(actual, actualFile), heatMapPNG: heat)
        }

        /// The displayed pixels of `image` as PNG.
        static func png(_ image: Image) throws(EncodeError) -> [UInt8] {
            var upright = Image(bitmap: image.orientation.apply(to: image.bitmap))
            do {
                return try ImageCodecs.encode(upright, as: .png)
            } catch {
                let f = upright.bitmap.format
                let target: PixelFormat = f.bitsPerComponent > 8 ? (f.hasAlpha ? .rgba16 : .rgb16) : (f.hasAlpha ? .rgba8 : .rgb8)
                do { upright.bitmap = try upright.bitmap.converted(to: target) } catch {
                    throw .unsupportedFormat(.png, f, suggestion: "convert to RGBA first")
                }
                return try ImageCodecs.encode(upright, as: .png)
            }
        }
    }

    /// Renders the page.
    /// - Parameters:
    ///   - gate: the gate's outcome, when one was given.
    ///   - canaryFailures: canary failures, when the canaries ran (empty = all passed).
    ///   - context: what a larger report adds (navigation, verdict, facts, image strip, source metadata).
    public static func html(_ c: Comparison, images: Images, gate: GateResult? = nil, canaryFailures: [Canaries.Failure]? = nil,
                            context: Context = Context()) -> String {
        let e = HTMLText.escape
        let verdictText = context.verdict ?? verdict(c, gate)
        let verdictCSS = context.verdict == nil ? verdictClass(c, gate) : (context.verdictOK ? "ok" : "bad")
        var h = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(e(context.title)): \(e(c.expected.name)) vs \(e(c.actual.name))</title>
        <style>\(css)</style></head>
        <body data-ready="0">
        <header><h1>\(e(context.title))</h1>
        """
        if !context.links.isEmpty {
            h += "<nav class=\"links\">" + context.links.map { l in
                "<a href=\"\(e(l.href))\"\(l.rel.map { " rel=\"\(e($0))\"" } ?? "")>\(e(l.label))</a>"
            }.joined(separator: " · ") + "</nav>"
        }
        h += """
        <p class="names"><span class="tag exp">expected</span> <code>\(e(c.expected.name))</code>
        <span class="tag act">actual</span> <code>\(e(c.actual.name))</code></p>
        <p class="verdict \(verdictCSS)">\(e(verdictText))</p>
        </header>
        """
        if !context.facts.isEmpty {
            h += "<table class=\"facts\">" + context.facts.map { "<tr><th>\(e($0.0))</th><td>\(e($0.1))</td></tr>" }.joined() + "</table>\n"
        }
        h += section("Diagnosis", diagnosisHTML(c.diagnosis))
        if !context.figures.isEmpty { h += section("Source, oracle, golden, output", figuresHTML(context.figures)) }
        h += viewerHTML(c, images)
        h += section("Metrics", metricTable(c, gate))
        h += section("Metadata", metadataTable(c, source: context.source))
        if let a = c.alphaViews { h += section("Alpha, three views", alphaHTML(a, c)) }
        if !c.bias.isEmpty || c.exact != nil { h += section("Exact difference and bias", exactHTML(c)) }
        var notes = c.notes
        notes.append("compared as \(c.comparedAs)")
        if let f = canaryFailures {
            notes.append(f.isEmpty ? "canaries: every metric told the must-differ pair from the must-match pairs" : "canaries FAILED: " + f.map(\.description).joined(separator: "; "))
        }
        h += section("Notes", "<ul>" + notes.map { "<li>\(e($0))</li>" }.joined() + "</ul>")
        h += "<footer>\(e(Comparison.version)) · \(e(Diagnosis.version)) · press <kbd>?</kbd> for keys</footer>"
        h += "<div id=\"help\" hidden><h3>Keys</h3><p><kbd>1</kbd>–<kbd>5</kbd> side by side, slider, blend, toggle, heat map · <kbd>space</kbd> toggle expected/actual · <kbd>+</kbd>/<kbd>−</kbd> zoom, <kbd>0</kbd> fit · <kbd>←</kbd>/<kbd>→</kbd> slider or blend · <kbd>n</kbd>/<kbd>p</kbd>/<kbd>u</kbd> next, previous, up (in a run report) · <kbd>?</kbd> this help</p></div>"
        h += "<script>\(script)</script></body></html>\n"
        return h
    }

    /// Renders the page of a judgement: its comparison, gate and canaries.
    public static func html(_ judgement: Judgement, images: Images, context: Context = Context()) -> String {
        html(judgement.comparison, images: images, gate: judgement.gate, canaryFailures: judgement.canaryFailures, context: context)
    }

    static func section(_ title: String, _ body: String) -> String {
        "<section><h2>\(HTMLText.escape(title))</h2>\(body)</section>\n"
    }

    static func verdict(_ c: Comparison, _ gate: GateResult?) -> String {
        if let gate { return gate.passed ? "within the gate: \(gate.expression)" : "FAILS the gate: \(gate.expression)" }
        if !c.sameSize { return "different sizes: \(c.expected.displayWidth)×\(c.expected.displayHeight) vs \(c.actual.displayWidth)×\(c.actual.displayHeight)" }
        return c.identical ? "identical by value" : "different"
    }

    static func verdictClass(_ c: Comparison, _ gate: GateResult?) -> String {
        if let gate { return gate.passed ? "ok" : "bad" }
        return c.identical ? "ok" : "bad"
    }

    static func format(_ v: Double?) -> String {
        guard let v else { return "—" }
        if v.isInfinite { return v > 0 ? "∞" : "−∞" }
        if v == v.rounded() && abs(v) < 1e12 { return String(Int(v)) }
        return String(format: abs(v) >= 100 ? "%.2f" : (abs(v) >= 1 ? "%.4f" : "%.6f"), v)
    }

    static func diagnosisHTML(_ d: Diagnosis) -> String {
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
            h += "<table class=\"rank\"><tr><th>candidate</th><th>explains</th><th>strength</th><th>meaning</th></tr>"
            for r in d.ranking {
                h += "<tr><td><code>\(e(r.id))</code></td><td>\(e(String(format: "%.1f%%", r.explained * 100)))</td><td>\(e(String(format: "%.2f", r.strength)))</td><td>\(e(r.name))</td></tr>"
            }
            h += "</table><p class=\"small\">scored on \(d.sampledPixels) pixels; \(e(d.version))</p>"
        }
        return h
    }

    static func figuresHTML(_ figures: [Context.Figure]) -> String {
        let e = HTMLText.escape
        var h = "<div class=\"figures\">"
        for f in figures {
            // An integer zoom that brings the longer side near 192 px (never below 1×).
            let longest = max(1, max(f.width, f.height))
            let k = max(1, 192 / longest)
            h += "<figure><img class=\"px\" alt=\"\(e(f.label))\" width=\"\(f.width * k)\" height=\"\(f.height * k)\" src=\"\(f.image.dataURI)\">"
            h += "<figcaption><b>\(e(f.label))</b> \(f.width)×\(f.height)\(k > 1 ? " at \(k)×" : "")"
            if !f.caption.isEmpty { h += "<br><span class=\"small\">\(e(f.caption))</span>" }
            h += "</figcaption></figure>"
        }
        return h + "</div>"
    }

    static func viewerHTML(_ c: Comparison, _ images: Images) -> String {
        let e = HTMLText.escape
        let exp = images.expected.dataURI, act = images.actual.dataURI
        var h = "<section id=\"viewer\" data-width=\"\(c.actual.displayWidth)\" data-height=\"\(c.actual.displayHeight)\"><h2>Images</h2>"
        h += "<nav class=\"views\">"
        let views = [("side", "1 side by side"), ("slider", "2 slider"), ("blend", "3 blend"), ("toggle", "4 toggle"), ("heat", "5 heat map")]
        for (id, label) in views where id != "heat" || images.heatMapPNG != nil {
            h += "<button type=\"button\" data-view=\"\(id)\">\(e(label))</button>"
        }
        h += "<span class=\"zoom\"><button type=\"button\" data-zoom=\"-1\">−</button><span id=\"zoomLabel\">1×</span><button type=\"button\" data-zoom=\"1\">+</button></span>"
        h += "<input id=\"amount\" type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"slider / blend position\">"
        h += "<span id=\"inspect\" class=\"small\">hover a pixel</span></nav>"
        h += "<div id=\"stage\" class=\"side\">"
        h += "<div class=\"pane\" id=\"paneExp\"><div class=\"label\">expected \(c.expected.displayWidth)×\(c.expected.displayHeight)</div><img id=\"imgExp\" alt=\"expected\" src=\"\(exp)\"></div>"
        h += "<div class=\"pane\" id=\"paneAct\"><div class=\"label\">actual \(c.actual.displayWidth)×\(c.actual.displayHeight)</div><img id=\"imgAct\" alt=\"actual\" src=\"\(act)\"></div>"
        if let heat = images.heatMapPNG {
            h += "<div class=\"pane\" id=\"paneHeat\"><div class=\"label\">heat map</div><img id=\"imgHeat\" alt=\"heat map\" src=\"data:image/png;base64,\(Data(heat).base64EncodedString())\"></div>"
        }
        h += "</div>"
        if images.heatMapPNG != nil {
            h += "<p class=\"legend\">"
            for r in HeatMap.ramp {
                h += "<span style=\"background:rgb(\(r.color.0),\(r.color.1),\(r.color.2))\"></span>\(e(r.label)) "
            }
            let hc = HeatMap.hiddenColor
            h += "<span style=\"background:rgb(\(hc.0),\(hc.1),\(hc.2))\"></span>hidden colour only (α = 0) · grey: unchanged · |Δ| in 8-bit code values, visible error</p>"
        }
        return h + "</section>\n"
    }

    static func metricTable(_ c: Comparison, _ gate: GateResult?) -> String {
        let e = HTMLText.escape
        var h = ""
        if let gate {
            h += "<p class=\"gate \(gate.passed ? "ok" : "bad")\">gate <code>\(e(gate.expression))</code>: \(gate.passed ? "passed" : "failed")</p><ul class=\"clauses\">"
            for cl in gate.clauses { h += "<li class=\"\(cl.passed ? "ok" : "bad")\">\(cl.passed ? "✓" : "✗") <code>\(e(cl.text))</code></li>" }
            h += "</ul>"
        }
        // Gate bounds by metric (a metric in several clauses shows each bound).
        var bounds: [String: [GateResult.Clause]] = [:]
        for cl in gate?.clauses ?? [] { if let m = cl.metric { bounds[m, default: []].append(cl) } }
        let gated = !bounds.isEmpty
        h += "<table class=\"metrics\"><tr><th>metric</th><th>value</th>" + (gated ? "<th>gate bound</th>" : "") + "<th>unit</th><th>meaning</th><th>definition</th></tr>"
        for d in MetricCatalog.all {
            guard let m = c.metrics[d.name] else { continue }
            let value = m.value.map { format($0) } ?? "— (\(m.missingReason ?? "undefined"))"
            let clauses = bounds[d.name] ?? []
            let row = clauses.isEmpty ? "" : (clauses.allSatisfy(\.passed) ? " class=\"gated ok\"" : " class=\"gated bad\"")
            h += "<tr\(row)><td><code>\(e(d.name))</code></td><td class=\"num\">\(e(value))</td>"
            if gated {
                h += "<td>" + clauses.map { "\($0.passed ? "✓" : "✗") \(e($0.bound ?? ""))" }.joined(separator: "<br>") + "</td>"
            }
            h += "<td>\(e(d.unit))</td><td>\(e(d.summary))</td><td class=\"small\">\(e(m.version))</td></tr>"
        }
        return h + "</table>"
    }

    static func metadataTable(_ c: Comparison, source: ImageSummary? = nil) -> String {
        let e = HTMLText.escape
        var h = "<table class=\"meta\"><tr><th>field</th>" + (source == nil ? "" : "<th>source</th>") + "<th>expected</th><th>actual</th></tr>"
        let sourceFacts = source?.facts
        for (i, (x, y)) in zip(c.expected.facts, c.actual.facts).enumerated() {
            h += "<tr class=\"\(x.1 == y.1 ? "" : "changed")\"><td>\(e(x.0))</td>"
            if let sourceFacts, i < sourceFacts.count { h += "<td>\(e(sourceFacts[i].1))</td>" }
            h += "<td>\(e(x.1))</td><td>\(e(y.1))</td></tr>"
        }
        h += "</table>"
        h += c.metadataDifferences.isEmpty ? "<p>no metadata differences</p>" : "<p>\(c.metadataDifferences.count) field(s) differ (highlighted)</p>"
        return h
    }

    static func alphaHTML(_ a: AlphaViews, _ c: Comparison) -> String {
        let e = HTMLText.escape
        return """
        <table class="alpha"><tr><th>view</th><th>max</th><th>mean</th><th>pixels</th><th></th></tr>
        <tr><td>1. visible (composited over black and white)</td><td class="num">\(e(format(a.visible.max)))</td><td class="num">\(e(format(a.visible.mean)))</td><td class="num">\(a.visible.pixels)</td><td>worse background: \(e(a.visible.background))</td></tr>
        <tr><td>2. alpha channel</td><td class="num">\(e(format(a.alpha.max)))</td><td class="num">\(e(format(a.alpha.mean)))</td><td></td><td></td></tr>
        <tr><td>3. colour in translucent pixels (straight)</td><td class="num">\(e(format(a.colour.translucentMax)))</td><td class="num">\(e(format(a.colour.translucentMean)))</td><td class="num">\(a.colour.translucentPixels)</td><td></td></tr>
        <tr><td>hidden colour changed (α = 0 in both; not visible)</td><td class="num">\(e(format(a.colour.hiddenMax)))</td><td></td><td class="num">\(a.colour.hiddenChanged)</td><td>\(a.colour.hiddenChanged > 0 ? "reported, not counted as visible error" : "")</td></tr>
        </table><p class="small">8-bit code values</p>
        """
    }

    static func exactHTML(_ c: Comparison) -> String {
        let e = HTMLText.escape
        var h = ""
        if let x = c.exact {
            h += "<table class=\"hist\"><tr><th>|Δ|</th>"
            for (i, edge) in x.bucketEdges.enumerated() {
                h += "<th>\(e(i == 0 ? "0" : "≤ \(format(edge))"))</th>"
            }
            h += "</tr><tr><td>pixels</td>" + x.histogram.map { "<td class=\"num\">\($0)</td>" }.joined() + "</tr></table>"
            h += "<p>max |Δ| per channel: \(e(x.maxPerChannel.map { format($0) }.joined(separator: ", "))) (R, G, B\(x.maxPerChannel.count > 3 ? ", A" : "")); \(x.differingPixels) pixels differ</p>"
        }
        if !c.bias.isEmpty {
            h += "<table class=\"bias\"><tr><th>alpha band (expected)</th><th>pixels</th><th>R</th><th>G</th><th>B</th><th>A</th></tr>"
            for b in c.bias {
                h += "<tr><td>\(e(b.band))</td><td class=\"num\">\(b.pixels)</td>" + b.mean.map { "<td class=\"num\">\(e(String(format: "%+.3f", $0)))</td>" }.joined() + "</tr>"
            }
            h += "</table><p class=\"small\">mean signed difference, actual − expected, 8-bit code values</p>"
        }
        if let cast = c.colourCast {
            h += "<p>colour cast: ΔL* \(e(String(format: "%+.3f", cast.dL))), Δa* \(e(String(format: "%+.3f", cast.da))), Δb* \(e(String(format: "%+.3f", cast.db))) — \(e(cast.direction))</p>"
        }
        return h
    }

    static let css = """
    body{font:14px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1400px;padding:0 16px;color:#222;background:#fafafa}
    h1{font-size:20px;margin:12px 0 4px}h2{font-size:16px;margin:18px 0 6px;border-bottom:1px solid #ddd}
    code{font:12px ui-monospace,monospace;background:#eee;padding:1px 3px;border-radius:3px;word-break:break-all}
    .tag{font-size:11px;padding:1px 5px;border-radius:3px;color:#fff}.exp{background:#357}.act{background:#753}
    .verdict{font-weight:600;padding:6px 10px;border-radius:4px}.ok{color:#174d17;background:#dcefdc}.bad{color:#7a1010;background:#f6dede}
    table{border-collapse:collapse;margin:4px 0}td,th{border:1px solid #ddd;padding:2px 6px;text-align:left;vertical-align:top}
    .num{text-align:right;font-variant-numeric:tabular-nums}.small{font-size:11px;color:#666}tr.changed td{background:#fff3c4}
    .views button,.zoom button{margin-right:4px}.views button.on{background:#357;color:#fff}#amount{vertical-align:middle}
    #stage{position:relative;overflow:auto;max-height:80vh;border:1px solid #ccc;background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px}
    #stage img{image-rendering:pixelated;display:block}.pane{display:inline-block;vertical-align:top;margin:4px;position:relative}
    .label{font-size:11px;background:#fffc;padding:0 4px}
    #stage.stack .pane{position:absolute;top:0;left:0;margin:0}#stage.stack .label{display:none}
    .legend span{display:inline-block;width:12px;height:12px;margin:0 2px 0 8px;vertical-align:middle;border:1px solid #999}
    #help{position:fixed;right:16px;bottom:16px;background:#fff;border:1px solid #999;padding:8px 12px;max-width:420px}
    kbd{border:1px solid #aaa;border-radius:3px;padding:0 3px;font-size:12px}footer{margin:24px 0;color:#888;font-size:12px}
    .figures figure{display:inline-block;vertical-align:top;margin:4px 12px 4px 0}.figures img,img.px{image-rendering:pixelated;border:1px solid #ccc;background:repeating-conic-gradient(#ddd 0 25%,#fff 0 50%) 0 0/16px 16px}
    table.facts th{background:#f0f0f0}tr.gated.bad td{background:#f6dede}tr.gated.ok td:first-child{background:#e6f3e6}nav.links{margin:4px 0}
    """

    /// The viewer script: a constant (no input text), reading sizes from data attributes.
    static let script = """
    (function(){
    'use strict';
    var errors=[];window.addEventListener('error',function(ev){errors.push(String(ev.message));document.body.setAttribute('data-errors',errors.join(' | '));});
    var stage=document.getElementById('stage'),amount=document.getElementById('amount');
    var exp=document.getElementById('paneExp'),act=document.getElementById('paneAct'),heat=document.getElementById('paneHeat');
    var imgs=Array.prototype.slice.call(stage.querySelectorAll('img'));
    var viewer=document.getElementById('viewer');
    var W=parseInt(viewer.getAttribute('data-width'),10)||1,H=parseInt(viewer.getAttribute('data-height'),10)||1;
    var zoom=1,view='side',showActual=true;
    function fit(){var avail=Math.max(200,stage.clientWidth-24),need=(view==='side'?2:1)*W;zoom=1;while(zoom>1/16&&need*zoom>avail){zoom/=2;}while(zoom<16&&need*zoom*2<=avail){zoom*=2;}}
    function apply(){
      imgs.forEach(function(im){im.style.width=(im.naturalWidth*zoom)+'px';im.style.height=(im.naturalHeight*zoom)+'px';});
      document.getElementById('zoomLabel').textContent=(zoom>=1?zoom+'×':'1/'+(1/zoom)+'×');
      var a=amount.value/100;
      exp.style.display='';act.style.display='';if(heat){heat.style.display='none';}
      act.style.clipPath='';act.style.opacity='';stage.className=view==='side'?'side':'stack';
      if(view==='slider'){act.style.clipPath='inset(0 0 0 '+(a*100)+'%)';}
      else if(view==='blend'){act.style.opacity=String(a);}
      else if(view==='toggle'){act.style.display=showActual?'':'none';exp.style.display=showActual?'none':'';}
      else if(view==='heat'&&heat){exp.style.display='none';act.style.display='none';heat.style.display='';}
      if(view==='side'&&heat){heat.style.display='none';}
      Array.prototype.forEach.call(document.querySelectorAll('[data-view]'),function(b){b.className=b.getAttribute('data-view')===view?'on':'';});
    }
    function setView(v){view=v;apply();}
    function setZoom(z){zoom=Math.min(64,Math.max(1/16,z));apply();}
    Array.prototype.forEach.call(document.querySelectorAll('[data-view]'),function(b){b.addEventListener('click',function(){setView(b.getAttribute('data-view'));});});
    Array.prototype.forEach.call(document.querySelectorAll('[data-zoom]'),function(b){b.addEventListener('click',function(){setZoom(b.getAttribute('data-zoom')==='1'?zoom*2:zoom/2);});});
    amount.addEventListener('input',apply);
    document.addEventListener('keydown',function(ev){
      if(ev.target&&ev.target.tagName==='INPUT'&&ev.key!==' '){return;}
      var k=ev.key,views=['side','slider','blend','toggle','heat'];
      if(k>='1'&&k<='5'){var v=views[parseInt(k,10)-1];if(v!=='heat'||heat){setView(v);}ev.preventDefault();}
      else if(k===' '){showActual=!showActual;if(view!=='toggle'){view='toggle';}apply();ev.preventDefault();}
      else if(k==='+'||k==='='){setZoom(zoom*2);}else if(k==='-'||k==='_'){setZoom(zoom/2);}else if(k==='0'){fit();apply();}
      else if(k==='ArrowLeft'||k==='ArrowRight'){amount.value=String(Math.min(100,Math.max(0,parseInt(amount.value,10)+(k==='ArrowLeft'?-5:5))));apply();ev.preventDefault();}
      else if(k==='?'){var h=document.getElementById('help');h.hidden=!h.hidden;}
      else if(k==='n'||k==='p'||k==='u'){var l=document.querySelector('nav.links a[rel="'+(k==='n'?'next':(k==='p'?'prev':'up'))+'"]');if(l){window.location.href=l.getAttribute('href');}}
    });
    var canvases={};
    function pixels(im){
      if(canvases[im.id]){return canvases[im.id];}
      var c=document.createElement('canvas');c.width=im.naturalWidth;c.height=im.naturalHeight;
      var g=c.getContext('2d');g.drawImage(im,0,0);var d=null;try{d=g.getImageData(0,0,c.width,c.height);}catch(err){d=null;}
      canvases[im.id]=d;return d;
    }
    function px(im,x,y){var d=pixels(im);if(!d||x<0||y<0||x>=d.width||y>=d.height){return '—';}var i=(y*d.width+x)*4;return d.data[i]+','+d.data[i+1]+','+d.data[i+2]+','+d.data[i+3];}
    stage.addEventListener('mousemove',function(ev){
      var t=ev.target;if(!t||t.tagName!=='IMG'){return;}var r=t.getBoundingClientRect();
      var x=Math.floor((ev.clientX-r.left)/zoom),y=Math.floor((ev.clientY-r.top)/zoom);
      document.getElementById('inspect').textContent='x '+x+', y '+y+' · expected '+px(document.getElementById('imgExp'),x,y)+' · actual '+px(document.getElementById('imgAct'),x,y)+' (RGBA, 8-bit as displayed)';
    });
    fit();apply();
    document.body.setAttribute('data-ready','1');
    })();
    """
}
