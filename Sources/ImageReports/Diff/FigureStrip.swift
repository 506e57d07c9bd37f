/// The strip of images a lab pair page shows before the viewer (source, oracle, golden, output,
/// heat map), each at the integer zoom that brings its longer side near 192 pixels, with
/// pixelated rendering over the checkerboard.
enum FigureStrip {
    static func html(_ figures: [DiffReport.Context.Figure]) -> String {
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

    static let css = """
    .figures figure{display:inline-block;vertical-align:top;margin:4px 12px 4px 0}.figures img,img.px{image-rendering:pixelated;border:1px solid #ccc;background:\(PageStyle.checkerboard)}

    """
}
