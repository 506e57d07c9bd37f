import Foundation
import ImageMetrics

/// The image viewer of the diff page: side by side, slider, blend, toggle and heat map (keys 1–5;
/// space toggles; + / − / 0 zoom, the page opening at the largest power-of-two zoom that fits;
/// ← / → move the slider or blend; ? help; n / p / u follow the page's links), pixel-exact
/// zoom (`image-rendering: pixelated`) and a pixel inspector. The script is a constant that
/// reads the sizes from data attributes, so no input text is ever placed in script.
enum DiffViewer {
    static func html(_ c: Comparison, _ images: DiffReport.Images) -> String {
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
        // Ignored pixels: the same hatched layer over both images, so every view shows them.
        let overlay = images.ignoredOverlayPNG.map { "<img class=\"ignored\" alt=\"ignored pixels\" src=\"\(EmbeddedImage(png: $0).dataURI)\">" } ?? ""
        h += "<div class=\"pane\" id=\"paneExp\"><div class=\"label\">expected \(c.expected.displayWidth)×\(c.expected.displayHeight)</div><img id=\"imgExp\" alt=\"expected\" src=\"\(exp)\">\(overlay)</div>"
        h += "<div class=\"pane\" id=\"paneAct\"><div class=\"label\">actual \(c.actual.displayWidth)×\(c.actual.displayHeight)</div><img id=\"imgAct\" alt=\"actual\" src=\"\(act)\">\(overlay)</div>"
        if let heat = images.heatMapPNG {
            h += "<div class=\"pane\" id=\"paneHeat\"><div class=\"label\">heat map</div><img id=\"imgHeat\" alt=\"heat map\" src=\"\(EmbeddedImage(png: heat).dataURI)\"></div>"
        }
        h += "</div>"
        if images.heatMapPNG != nil {
            h += "<p class=\"legend\">\(HeatMapLegend.swatches) · grey: unchanged · \(HeatMapLegend.unit)</p>"
        }
        if let coverage = images.ignoredCoverage {
            let each = coverage.each.map { "<li>\(e($0.name)): \($0.pixels) px</li>" }.joined()
            h += "<div id=\"ignoredList\"><p>Ignored, hatched in every view, counted as equal: <b>\(coverage.total)</b> pixels "
                + "(each region below counts its own; overlaps once in the total)</p><ul>\(each)</ul></div>"
        }
        return h + "</section>\n"
    }

    /// The key help shown by `?`.
    static let help = "<div id=\"help\" hidden><h3>Keys</h3><p><kbd>1</kbd>–<kbd>5</kbd> side by side, slider, blend, toggle, heat map · <kbd>space</kbd> toggle expected/actual · <kbd>+</kbd>/<kbd>−</kbd> zoom, <kbd>0</kbd> fit · <kbd>←</kbd>/<kbd>→</kbd> slider or blend · <kbd>n</kbd>/<kbd>p</kbd>/<kbd>u</kbd> next, previous, up (in a run report) · <kbd>?</kbd> this help</p></div>"

    /// The viewer's style. The stacked views (slider, blend, toggle, heat map) put every pane in
    /// the one cell of a grid sized to its content, so the stage is as large as the panes shown
    /// (toggle hides one image, the heat map both) and each pane as wide as its image, which the
    /// slider's clip and the blend's opacity are measured on. Panes taken out of flow
    /// (`position: absolute`) would leave the stage 2 px tall and the images off screen.
    static let css = """
    #amount{vertical-align:middle}
    #stage{position:relative;overflow:auto;max-height:80vh;border:1px solid #ccc;background:\(PageStyle.checkerboard)}
    #stage img{image-rendering:pixelated;display:block}.pane{position:relative}
    #stage img.ignored{position:absolute;left:0;bottom:0;pointer-events:none}
    .label{font-size:11px;background:#fffc;padding:0 4px}
    #stage.stack{display:grid;justify-content:start;align-content:start}
    #stage.stack .pane{grid-area:1/1;margin:0}#stage.stack .label{display:none}
    #help{position:fixed;right:16px;bottom:16px;background:#fff;border:1px solid #999;padding:8px 12px;max-width:420px}
    kbd{border:1px solid #aaa;border-radius:3px;padding:0 3px;font-size:12px}

    """

    /// The viewer script.
    static let script = """
    (function(){
    'use strict';
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
      act.style.clipPath='';act.style.opacity='';exp.style.clipPath='';stage.className=view==='side'?'side':'stack';
      if(view==='slider'){act.style.clipPath='inset(0 0 0 '+(a*100)+'%)';exp.style.clipPath='inset(0 '+((1-a)*100)+'% 0 0)';}
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
    })();
    """
}
