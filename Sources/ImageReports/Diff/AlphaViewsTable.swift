import ImageMetrics

/// The three alpha views as a table (8-bit code values): the visible error composited over
/// black and white, the alpha channel's error, the colour of translucent pixels, and the colour
/// changed under α = 0 (reported, never counted as visible).
enum AlphaViewsTable {
    static func html(_ a: AlphaViews) -> String {
        let e = HTMLText.escape, format = DiffReport.format
        return """
        <table class="alpha">\(HTMLBlocks.headerRow(["view", "max", "mean", "pixels", ""]))
        <tr><td>1. visible (composited over black and white)</td><td class="num">\(e(format(a.visible.max)))</td><td class="num">\(e(format(a.visible.mean)))</td><td class="num">\(a.visible.pixels)</td><td>worse background: \(e(a.visible.background))</td></tr>
        <tr><td>2. alpha channel</td><td class="num">\(e(format(a.alpha.max)))</td><td class="num">\(e(format(a.alpha.mean)))</td><td></td><td></td></tr>
        <tr><td>3. colour in translucent pixels (straight)</td><td class="num">\(e(format(a.colour.translucentMax)))</td><td class="num">\(e(format(a.colour.translucentMean)))</td><td class="num">\(a.colour.translucentPixels)</td><td></td></tr>
        <tr><td>hidden colour changed (α = 0 in both; not visible)</td><td class="num">\(e(format(a.colour.hiddenMax)))</td><td></td><td class="num">\(a.colour.hiddenChanged)</td><td>\(a.colour.hiddenChanged > 0 ? "reported, not counted as visible error" : "")</td></tr>
        </table><p class="small">8-bit code values</p>
        """
    }
}
