/// The list of an index page (the run report's pairs, the folder diff's files), built to stay
/// quick at tens of thousands of rows: the rows travel as data (one JSON object a line in a
/// `<script type="application/json">` block, about 150–400 bytes a row) and the page's script
/// draws ``pageSize`` of them at a time, so the browser lays out one page of the table, never
/// the whole list. Filters (status boxes, family, text, a matrix cell in the URL fragment) run
/// over the data; ticks (the accept boxes) are kept per row across pages and filters.
///
/// Written in pieces so a run of any size streams it: ``opening(columns:noun:)``, then one
/// ``IndexRow/line`` per row, then ``closing``. Thumbnails are files beside the page (`thumbs/`),
/// loaded lazily for the page shown; the page's policy allows images from its own folder only.
enum IndexList {
    /// Rows drawn at a time.
    static let pageSize = 100

    /// The table with its header and an empty body, the pager, and the opening of the data block.
    /// - Parameter noun: what a row is, plural, for the "n of N … shown" line.
    static func opening(columns: [String], noun: String) -> String {
        "<table id=\"list\" data-noun=\"\(HTMLText.escape(noun))\"><thead>" + HTMLBlocks.headerRow(columns) + "</thead><tbody></tbody></table>\n"
            + "<nav id=\"pager\" class=\"small\"><button type=\"button\" id=\"page-prev\">‹ previous</button> <span id=\"page-at\"></span> "
            + "<button type=\"button\" id=\"page-next\">next ›</button> (\(pageSize) rows a page)</nav>\n"
            + "<noscript><p>The list is drawn by the page's script; the same rows are in the results file.</p></noscript>\n"
            + "<script type=\"application/json\" id=\"rows\">\n"
    }

    /// The end of the data block.
    static let closing = "</script>\n"

    /// The filters form above a list: a box per status (with its count when given), the family
    /// select, the text filter, clear, and the shown/cell lines the script fills.
    static func filters(statuses: [(value: String, label: String, count: Int?)], families: [String], familyLabel: String,
                        placeholder: String) -> String {
        let e = HTMLText.escape
        var h = "<form id=\"filters\" onsubmit=\"return false\">"
        for s in statuses {
            h += "<label class=\"chip v-\(e(s.value))\"><input type=\"checkbox\" name=\"verdict\" value=\"\(e(s.value))\" checked> \(e(s.label))"
                + (s.count.map { " \($0)" } ?? "") + "</label> "
        }
        h += "<select id=\"family\" aria-label=\"\(e(familyLabel))\"><option value=\"\">every \(e(familyLabel))</option>"
        h += families.map { "<option value=\"\(e($0))\">\(e($0))</option>" }.joined()
        h += "</select> <input id=\"text\" type=\"search\" placeholder=\"\(e(placeholder))\" aria-label=\"text filter\" size=\"32\"> "
        return h + "<button type=\"button\" id=\"clear\">clear</button> <span id=\"shown\" class=\"small\"></span> <span id=\"cell\" class=\"small\"></span></form>\n"
    }

    static let css = """
    #filters{margin:.5em 0}#filters label{cursor:pointer}#pager{margin:.4em 0}
    """

    /// The list's script: a constant that reads the data block and the DOM. It defines
    /// `imglabList` (ticked keys, tick every shown row, untick all, a change listener) for the
    /// scripts that follow it in the page.
    static let script = """
    var imglabList=(function(){
    'use strict';
    var table=document.getElementById('list'),body=table.tBodies[0],noun=table.getAttribute('data-noun')||'rows';
    var text=document.getElementById('rows').textContent.trim();
    var rows=text?JSON.parse('['+text.split('\\n').join(',')+']'):[];
    var boxes=Array.prototype.slice.call(document.querySelectorAll('#filters input[name=verdict]'));
    var family=document.getElementById('family'),query=document.getElementById('text'),shown=document.getElementById('shown'),cellLabel=document.getElementById('cell');
    var prev=document.getElementById('page-prev'),next=document.getElementById('page-next'),at=document.getElementById('page-at');
    var size=\(pageSize),page=0,matching=[],cell={},ticked={},listeners=[];
    rows.forEach(function(r){
      var words=[];
      r.c.forEach(function(c){if(typeof c==='string'){words.push(c);}else if(c){['t','n','tt','k'].forEach(function(k){if(c[k]){words.push(c[k]);}});}});
      if(r.q){words.push(r.q);}
      r.q=words.join(' ').toLowerCase();
    });
    function changed(){listeners.forEach(function(f){f();});}
    function td(c){
      var d=document.createElement('td');
      if(c===null||c===undefined){d.textContent='\\u2014';return d;}
      if(typeof c==='string'){d.textContent=c;return d;}
      if(c.k!==undefined){
        var b=document.createElement('input');b.type='checkbox';b.className='accept';b.value=c.k;b.checked=!!ticked[c.k];
        b.setAttribute('aria-label','accept '+c.k);
        b.addEventListener('change',function(){if(b.checked){ticked[c.k]=true;}else{delete ticked[c.k];}changed();});
        d.appendChild(b);return d;
      }
      if(c.i!==undefined){
        if(!c.i){d.textContent='\\u2014';return d;}
        var img=document.createElement('img');img.className='thumb'+(c.x?' '+c.x:'');img.alt='';img.loading='lazy';img.src=c.i;
        d.appendChild(img);return d;
      }
      if(c.h){var a=document.createElement('a');a.href=c.h;a.textContent=c.t||'';d.appendChild(a);}
      else if(c.t){d.appendChild(document.createTextNode(c.t));}
      if(c.n){var s=document.createElement('div');s.className='small';s.textContent=c.n;d.appendChild(s);}
      if(c.tt){d.title=c.tt;}
      return d;
    }
    function draw(){
      var pages=Math.max(1,Math.ceil(matching.length/size));page=Math.min(Math.max(0,page),pages-1);
      var frag=document.createDocumentFragment(),from=page*size,to=Math.min(matching.length,from+size);
      for(var i=from;i<to;i++){
        var r=rows[matching[i]],tr=document.createElement('tr');tr.className=r.s;tr.setAttribute('data-verdict',r.s);
        r.c.forEach(function(c){tr.appendChild(td(c));});frag.appendChild(tr);
      }
      body.textContent='';body.appendChild(frag);
      at.textContent=matching.length?('rows '+(from+1)+'\\u2013'+to+' of '+matching.length+' \\u00b7 page '+(page+1)+' of '+pages):'no row matches';
      prev.disabled=page===0;next.disabled=page>=pages-1;
    }
    function readHash(){
      cell={};var h=window.location.hash.replace(/^#/,'');if(!h||h==='pairs'){return;}
      h.split('&').forEach(function(kv){var i=kv.indexOf('=');if(i>0){var k=kv.slice(0,i);if(/^[a-z]+$/.test(k)){try{cell[k]=decodeURIComponent(kv.slice(i+1));}catch(err){}}}});
    }
    function apply(){
      var verdicts={};boxes.forEach(function(b){verdicts[b.value]=b.checked;});
      var fam=family.value,q=query.value.trim().toLowerCase(),keys=Object.keys(cell);matching=[];
      rows.forEach(function(r,n){
        var ok=verdicts[r.s]!==false;
        if(ok&&fam){ok=r.f===fam;}
        if(ok&&q){ok=r.q.indexOf(q)>=0;}
        for(var i=0;ok&&i<keys.length;i++){ok=!!r.a&&r.a[keys[i]]===cell[keys[i]];}
        if(ok){matching.push(n);}
      });
      shown.textContent=matching.length+' of '+rows.length+' '+noun+' shown';
      cellLabel.textContent=keys.length?('cell: '+keys.map(function(k){return k+' '+cell[k];}).join(', ')):'';
      page=0;draw();
    }
    function keyOf(r){for(var i=0;i<r.c.length;i++){var c=r.c[i];if(c&&c.k!==undefined){return c.k;}}return null;}
    boxes.forEach(function(b){b.addEventListener('change',apply);});
    family.addEventListener('change',apply);query.addEventListener('input',apply);
    prev.addEventListener('click',function(){page--;draw();});next.addEventListener('click',function(){page++;draw();});
    document.getElementById('clear').addEventListener('click',function(){boxes.forEach(function(b){b.checked=true;});family.value='';query.value='';if(window.location.hash){window.location.hash='pairs';}cell={};apply();});
    window.addEventListener('hashchange',function(){readHash();apply();if(Object.keys(cell).length){document.getElementById('pairs').scrollIntoView();}});
    readHash();apply();
    return {
      ticked:function(){return rows.map(keyOf).filter(function(k){return k!==null&&ticked[k];});},
      tickable:function(){return rows.map(keyOf).filter(function(k){return k!==null;}).length;},
      tickShown:function(){matching.forEach(function(n){var k=keyOf(rows[n]);if(k!==null){ticked[k]=true;}});draw();changed();},
      untickAll:function(){ticked={};draw();changed();},
      onChange:function(f){listeners.push(f);}
    };
    })();
    """
}

/// One row of an index's list: its status (the row's class and the status filter), family (the
/// family filter), attributes (matched by a matrix cell's link, `#name=value&…`) and cells.
struct IndexRow: Sendable {
    var status: String
    var family: String
    var attributes: [(name: String, value: String)] = []
    /// Text the text filter matches beyond the cells' (an identifier spelled another way).
    var search: String?
    var cells: [IndexCell]

    /// The row as one line of the data block: a JSON object (`s`, `f`, `a`, `q`, `c`) and a newline,
    /// with `<` written `\u003c` so no text can close the block.
    var line: String {
        var out = "{\"s\":" + JSONText.quoted(status) + ",\"f\":" + JSONText.quoted(family)
        if !attributes.isEmpty {
            out += ",\"a\":{" + attributes.map { JSONText.quoted($0.name) + ":" + JSONText.quoted($0.value) }.joined(separator: ",") + "}"
        }
        if let search { out += ",\"q\":" + JSONText.quoted(search) }
        return out + ",\"c\":[" + cells.map(\.json).joined(separator: ",") + "]}\n"
    }
}

/// A cell of an ``IndexRow``.
enum IndexCell: Sendable {
    /// Text, with an optional tooltip.
    case text(String, title: String? = nil)
    /// Text linked to `href` when given, with a small note under it.
    case link(String, href: String?, note: String?)
    /// A thumbnail (a path relative to the page; `nil`: a dash), with an extra class.
    case image(String?, class: String? = nil)
    /// An accept box for `key`.
    case accept(String)
    /// Nothing.
    case empty

    var json: String {
        let q = JSONText.quoted
        switch self {
        case .text(let t, nil): return q(t)
        case .text(let t, let title?): return "{\"t\":\(q(t)),\"tt\":\(q(title))}"
        case .link(let t, let href, let note):
            return "{\"t\":\(q(t))" + (href.map { ",\"h\":" + q($0) } ?? "") + (note.map { ",\"n\":" + q($0) } ?? "") + "}"
        case .image(let path, let extra): return "{\"i\":\(path.map(q) ?? "null")" + (extra.map { ",\"x\":" + q($0) } ?? "") + "}"
        case .accept(let key): return "{\"k\":\(q(key))}"
        case .empty: return "\"\""
        }
    }
}

/// JSON string literals for text placed inside an HTML `<script>` data block.
enum JSONText {
    /// `s` as a JSON string: quotes, backslashes and control characters escaped, and `<` as
    /// `\u003c` (so neither `</script>` nor `<!--` can appear).
    static func quoted(_ s: String) -> String {
        var out = "\""
        for ch in s.unicodeScalars {
            switch ch {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "<": out += "\\u003c"
            default:
                if ch.value < 0x20 || ch == "\u{2028}" || ch == "\u{2029}" {
                    out += "\\u" + String(repeating: "0", count: 4 - String(ch.value, radix: 16).count) + String(ch.value, radix: 16)
                } else {
                    out.unicodeScalars.append(ch)
                }
            }
        }
        return out + "\""
    }
}
