import ImageMetrics

/// The key to ``HeatMap``'s colours, shown under every heat map: a swatch per ramp step with its
/// label, and the colour of pixels whose only change is colour under α = 0.
enum HeatMapLegend {
    /// The swatches and their labels (HTML, inside a `.legend` element).
    static var swatches: String {
        var h = ""
        for r in HeatMap.ramp { h += swatch(r.color) + HTMLText.escape(r.label) + " " }
        return h + swatch(HeatMap.hiddenColor) + "hidden colour only (α = 0) "
            + "<span style=\"background:repeating-linear-gradient(45deg,rgb(\(HeatMap.hatchColor.0),\(HeatMap.hatchColor.1),\(HeatMap.hatchColor.2)) 0 3px,rgb(40,40,40) 3px 6px)\"></span>ignored (masks, regions)"
    }

    /// What the colours measure.
    static let unit = "|Δ| in 8-bit code values, visible error"

    static func swatch(_ c: (UInt8, UInt8, UInt8)) -> String { "<span style=\"background:rgb(\(c.0),\(c.1),\(c.2))\"></span>" }
}
