import ImageLab
import ImageCorpus
import Foundation
import ImageCore
import ImageMetrics

/// The `imglab reproduce` report: ONE self-contained HTML file (images as data URIs, inline CSS
/// and a constant script, a Content-Security-Policy that forbids any network access).
///
/// It opens with the verdict (reproduced or not) and each mutant's history (the real-world
/// report it reproduces) with its D/B references, then shows every pair: the oracle (the ideal
/// output), the correct output (the built-in resizer) and the buggy output side by side, with
/// the diff views of `imglab diff --report` (slider, blend and toggle between the correct and the
/// buggy output, the heat map of the buggy output against the oracle, pixel-exact zoom), the
/// number that exposes the bug beside the same number for the correct output (for a colour
/// cast: Δa*, Δb*, the hue angle and its direction in words), the gate's failed clauses and the
/// diagnosis (class, confidence, words).
///
/// Pure: results and evidence in, a `String` out; every string from the catalogue, the corpus,
/// a metric or a message goes through ``HTMLText/escape(_:)``, and the script reads only data
/// attributes, so no input text is ever placed in script.
public enum ReproduceReport {
    /// Renders the page.
    public static func html(_ outcome: Reproduction.Outcome) -> String {
        let r = outcome.results
        let e = HTMLText.escape
        var h = """
        <header><h1>imglab reproduce <code>\(e(r.topic))</code></h1>
        \(VerdictBadge.html(text: headline(r), ok: r.reproduced))
        <p class="small">corpus <code>\(e(r.corpus))</code> · \(r.pairs.count) pairs shown · oracle = the ideal output rendered from the analytic scene; correct = imglab's built-in resizer; buggy = the mutant</p>
        </header>

        """
        var bug = ""
        for m in r.mutants {
            bug += "<div class=\"mutant\"><h3><code>\(e(m.id))</code> — \(e(m.title))</h3>"
            bug += "<p class=\"history\">\(e(m.history))</p>"
            bug += "<p class=\"small\">references \(e(m.references.joined(separator: ", "))) · must be diagnosed as <code>\(e(m.bugClass))</code> · "
            bug += m.pairs == 0 ? "no pair of the corpus triggers it" : "caught on \(m.caught) of the \(m.pairs) pairs that trigger it, named on \(m.named), \(m.shown) shown below"
            if !m.diagnoses.isEmpty { bug += " · diagnoses: \(e(m.diagnoses.joined(separator: ", ")))" }
            bug += " · <b class=\"\(m.reproduced ? "ok" : "bad")\">\(m.reproduced ? "reproduced" : "NOT reproduced")</b></p>"
            bug += "</div>"
        }
        h += HTMLBlocks.section("The bug", bug)
        var table = "<table>" + HTMLBlocks.headerRow(["mutant", "pair", "caught", "diagnosis", "exposed by", "correct output"])
        for (i, p) in r.pairs.enumerated() {
            table += "<tr class=\"\(p.named ? "ok" : (p.caught ? "part" : "bad"))\"><td><code>\(e(p.mutant))</code></td><td><a href=\"#pair-\(i)\">\(e(p.pair))</a></td>"
            table += "<td>\(p.caught ? (p.named ? "caught, named" : "caught") : "missed")</td><td>\(e(p.namedAs ?? "—"))</td>"
            table += "<td>\(e(p.exposing.map { "\($0.metric.label): \($0.text)" } ?? "—"))</td><td>\(e(p.correct.verdict.rawValue))</td></tr>"
        }
        h += HTMLBlocks.section("Pairs", table + "</table>")
        for (i, p) in r.pairs.enumerated() {
            let ev: (buggy: PairEvidence?, correct: PairEvidence?) = i < outcome.evidence.count ? outcome.evidence[i] : (nil, nil)
            h += pairHTML(p, index: i, buggy: ev.buggy, correct: ev.correct)
        }
        h += HTMLBlocks.footer([ReproduceResults.schema, Comparison.version, Diagnosis.version])
        return HTMLPage(title: "imglab reproduce \(r.topic)", style: css, script: script, embedsImages: true).render(h)
    }

    /// One sentence: `Reproduced: …` or `NOT reproduced: …`, with the counts and the diagnosis classes.
    public static func headline(_ r: ReproduceResults) -> String {
        let total = r.mutants.reduce(0) { $0 + $1.pairs }, caught = r.mutants.reduce(0) { $0 + $1.caught }
        let named = r.mutants.reduce(0) { $0 + $1.named }
        let classes = Set(r.mutants.map(\.bugClass)).sorted().joined(separator: ", ")
        if r.reproduced {
            return "Reproduced: the lab caught the bug on \(caught) of the \(total) pairs that trigger it and named it \(classes) on \(named)."
        }
        return "NOT reproduced: the lab caught \(caught) of the \(total) pairs that trigger the bug and named \(classes) on \(named); "
            + "every mutant must be caught at least once and named on at least 90 % of its catches."
    }

    static func pairHTML(_ p: ReproducedPair, index: Int, buggy: PairEvidence?, correct: PairEvidence?) -> String {
        let e = HTMLText.escape
        var h = "<section class=\"pair\" id=\"pair-\(index)\"><h2><code>\(e(p.mutant))</code> on <code>\(e(p.pair))</code></h2>"
        let b = p.buggy
        let verdict: String
        switch b.verdict {
        case .pass, .changedCloser, .changedFurther: verdict = "missed: the buggy output passes the gate"  // no goldens here
        case .fail: verdict = "caught: the buggy output fails the gate" + (p.named ? ", and the diagnosis names the bug" : ", but the diagnosis names another class")
        case .error: verdict = "caught: the buggy resizer threw" + (p.named ? " the bug's error" : " an unexpected error")
        }
        h += VerdictBadge.html(text: verdict, ok: p.named)
        if let d = b.diagnosis {
            h += "<p class=\"diag\">diagnosis <strong>\(e(d.bugClass ?? "none"))</strong>"
            if let name = d.name { h += " — \(e(name))" }
            h += " <span class=\"small\">confidence \(e(String(format: "%.2f", d.confidence)))</span><br>\(e(d.summary))</p>"
        }
        if let message = b.message { h += "<p class=\"message\">\(e(b.verdict == .error ? "error" : "gate")): <code>\(e(message))</code></p>" }
        h += "<table class=\"measures\">" + HTMLBlocks.headerRow(["exposed by", "buggy output", "correct output"])
        for m in p.measures where m.metric != .outputSize || m.shows {
            let other = p.correctMeasures.first { $0.metric == m.metric }
            let lead = p.exposing?.metric == m.metric
            h += "<tr class=\"\(lead ? "lead" : "")\"><td>\(e(m.metric.label))</td><td>\(e(m.text))</td><td>\(e(other?.text ?? "—"))</td></tr>"
        }
        h += "</table>"
        if let cast = p.measures.first(where: { $0.cast != nil })?.cast, p.measures.contains(where: { $0.metric == .colourCast && $0.shows }) {
            h += castHTML(cast)
        }
        h += viewerHTML(oracle: correct?.expected ?? buggy?.expected, correct: correct?.actual, buggy: buggy?.actual)
        h += "<p class=\"small\">correct output: \(e(p.correct.verdict.rawValue))"
        if let g = p.correct.gate { h += " · gate <code>\(e(g.expression))</code>" }
        if let m = p.correct.message { h += " · \(e(m))" }
        return h + "</p></section>\n"
    }

    /// The cast vector drawn on the a*b* plane (an inline SVG: +a* right, +b* up), with its numbers.
    static func castHTML(_ c: ExposedValue.Cast) -> String {
        let e = HTMLText.escape
        let length = (c.da * c.da + c.db * c.db).squareRoot()
        let scale = length > 0 ? 40 / max(length, 5) : 0
        let x = 50 + c.da * scale, y = 50 - c.db * scale
        return """
        <div class="cast"><svg width="100" height="100" viewBox="0 0 100 100" role="img" aria-label="colour cast on the a*b* plane">\
        <circle cx="50" cy="50" r="45" fill="none" stroke="#ccc"/><line x1="5" y1="50" x2="95" y2="50" stroke="#ccc"/><line x1="50" y1="5" x2="50" y2="95" stroke="#ccc"/>\
        <text x="88" y="46" font-size="9">+a*</text><text x="53" y="12" font-size="9">+b*</text>\
        <line x1="50" y1="50" x2="\(String(format: "%.1f", x))" y2="\(String(format: "%.1f", y))" stroke="#b0208a" stroke-width="3"/></svg>\
        <p>colour cast (buggy − oracle, mean over the image): Δa* <b>\(e(String(format: "%+.2f", c.da)))</b>, Δb* <b>\(e(String(format: "%+.2f", c.db)))</b>, ΔL* \(e(String(format: "%+.2f", c.dL)))<br>\
        hue angle <b>\(e(String(format: "%.0f°", c.hue)))</b> (0° = +a*, red/magenta; 90° = +b*, yellow; 180° = green; 270° = blue) → <b>\(e(c.direction))</b></p></div>
        """
    }

    /// The largest power of two at which the biggest pane is at most 256 pixels wide or high.
    static func zoom(_ images: [ComparedImage?]) -> Int {
        let side = images.compactMap { $0.map { max($0.image.displaySize.width, $0.image.displaySize.height) } }.max() ?? 1
        var z = 1
        while side * z * 2 <= 256 && z < 32 { z *= 2 }
        return z
    }

    static func viewerHTML(oracle: ComparedImage?, correct: ComparedImage?, buggy: ComparedImage?) -> String {
        let e = HTMLText.escape
        guard let oracle else { return "<p class=\"small\">no image: the oracle could not be read</p>" }
        var panes: [(cls: String, label: String, image: ComparedImage, png: [UInt8])] = []
        var heat: [UInt8]?
        if let correct, let images = try? DiffReport.Images.make(expected: oracle, actual: correct) {
            panes.append(("oracle", "oracle (ideal)", oracle, images.expected.bytes))
            panes.append(("correct", "correct (built-in)", correct, images.actual.bytes))
        }
        if let buggy, let images = try? DiffReport.Images.make(expected: oracle, actual: buggy) {
            if panes.isEmpty { panes.append(("oracle", "oracle (ideal)", oracle, images.expected.bytes)) }
            panes.append(("buggy", "buggy (mutant)", buggy, images.actual.bytes))
            heat = images.heatMapPNG
        }
        guard !panes.isEmpty else { return "<p class=\"small\">no image could be encoded for this pair</p>" }
        let z = zoom([oracle, correct, buggy])
        let size = { (c: ComparedImage) in c.image.displaySize }
        var stackable = false
        if let correct, let buggy { stackable = size(correct) == size(buggy) }
        var h = "<div class=\"viewer\" data-zoom=\"\(z)\"><nav>"
        var views = [("side", "side by side")]
        if stackable { views += [("slider", "slider"), ("blend", "blend"), ("toggle", "toggle")] }
        if heat != nil { views.append(("heat", "heat map")) }
        for (id, label) in views { h += "<button type=\"button\" data-view=\"\(id)\">\(e(label))</button>" }
        h += " <button type=\"button\" data-zoom=\"-1\">−</button><span class=\"zoomLabel\">\(z)×</span><button type=\"button\" data-zoom=\"1\">+</button>"
        if stackable { h += " <input type=\"range\" min=\"0\" max=\"100\" value=\"50\" aria-label=\"slider / blend position\"> <span class=\"toggleLabel small\"></span>" }
        h += "</nav><div class=\"stage side\">"
        for pane in panes {
            let s = size(pane.image)
            h += "<figure class=\"pane \(pane.cls)\"><figcaption>\(e(pane.label)) \(s.width)×\(s.height)</figcaption>"
            h += "<img alt=\"\(e(pane.label))\" data-w=\"\(s.width)\" data-h=\"\(s.height)\" width=\"\(s.width * z)\" height=\"\(s.height * z)\" src=\"\(EmbeddedImage(png: pane.png).dataURI)\"></figure>"
        }
        if let heat, let buggy {
            let s = size(buggy)
            h += "<figure class=\"pane heat\"><figcaption>heat map: buggy vs oracle</figcaption>"
            h += "<img alt=\"heat map\" data-w=\"\(s.width)\" data-h=\"\(s.height)\" width=\"\(s.width * z)\" height=\"\(s.height * z)\" src=\"\(EmbeddedImage(png: heat).dataURI)\"></figure>"
        }
        h += "</div>"
        if heat != nil {
            h += "<p class=\"legend small\">heat map: \(HeatMapLegend.swatches) · \(HeatMapLegend.unit)</p>"
        }
        return h + "</div>"
    }

    static let css = PageStyle.viewer + """
    h2{font-size:16px;margin:22px 0 6px;border-bottom:1px solid #ddd}h3{font-size:14px;margin:10px 0 2px}
    tr.part td{background:#fff3c4}tr.lead td{font-weight:600}.history{max-width:70em}
    .cast{display:flex;gap:12px;align-items:center}.cast svg{flex:none;background:#fff;border:1px solid #ddd}
    .stage{position:relative;display:inline-block;border:1px solid #ccc;background:\(PageStyle.checkerboard)}
    .stage img{image-rendering:pixelated;display:block}
    figcaption{font-size:11px;background:#fffc;padding:0 4px}
    .stage .pane.heat{display:none}.stage.heat .pane{display:none}.stage.heat .pane.heat{display:inline-block}
    .stage.stack .pane{display:none}.stage.stack .pane.correct,.stage.stack .pane.buggy{display:block;margin:0}
    .stage.stack .pane.buggy{position:absolute;left:0;top:0}.stage.stack figcaption{display:none}
    """

    /// The viewer script: a constant (no input text) that reads sizes and zoom from data attributes.
    static let script = """
    (function(){
    'use strict';
    Array.prototype.forEach.call(document.querySelectorAll('.viewer'),function(v){
      var stage=v.querySelector('.stage'),amount=v.querySelector('input[type=range]');
      var buggy=v.querySelector('.pane.buggy'),under=v.querySelector('.pane:not(.buggy):not(.heat)'),label=v.querySelector('.toggleLabel');
      var imgs=v.querySelectorAll('img'),zoom=parseInt(v.getAttribute('data-zoom'),10)||1,view='side',showBuggy=true;
      function apply(){
        Array.prototype.forEach.call(imgs,function(im){
          im.width=(parseInt(im.getAttribute('data-w'),10)||1)*zoom;im.height=(parseInt(im.getAttribute('data-h'),10)||1)*zoom;});
        v.querySelector('.zoomLabel').textContent=zoom+'×';
        var stack=view==='slider'||view==='blend'||view==='toggle';
        stage.className='stage '+(stack?'stack':view);
        if(buggy){buggy.style.clipPath='';buggy.style.opacity='';buggy.style.visibility='';}
        if(under){under.style.clipPath='';under.style.visibility='';}
        var a=amount?amount.value/100:0.5;
        // Each side shows one image only, so translucent pixels are never the two composited.
        if(buggy&&view==='slider'){buggy.style.clipPath='inset(0 0 0 '+(a*100)+'%)';if(under){under.style.clipPath='inset(0 '+((1-a)*100)+'% 0 0)';}}
        else if(buggy&&view==='blend'){buggy.style.opacity=String(a);}
        else if(buggy&&view==='toggle'){buggy.style.visibility=showBuggy?'visible':'hidden';if(under){under.style.visibility=showBuggy?'hidden':'visible';}}
        if(label){label.textContent=view==='toggle'?(showBuggy?'showing buggy (click the image)':'showing correct (click the image)'):(view==='slider'?'left: correct, right: buggy':(view==='blend'?'0: correct … 100: buggy':''));}
        Array.prototype.forEach.call(v.querySelectorAll('button[data-view]'),function(b){b.className=b.getAttribute('data-view')===view?'on':'';});
      }
      v.addEventListener('click',function(ev){
        var t=ev.target;if(!t||!t.closest){return;}
        var b=t.closest('button');
        if(b){
          if(b.hasAttribute('data-view')){view=b.getAttribute('data-view');}
          else if(b.hasAttribute('data-zoom')){zoom=b.getAttribute('data-zoom')==='1'?Math.min(64,zoom*2):Math.max(1,Math.floor(zoom/2));}
          apply();
        }else if(view==='toggle'&&t.closest('.stage')){showBuggy=!showBuggy;apply();}
      });
      if(amount){amount.addEventListener('input',apply);}
      apply();
    });
    })();
    """
}
