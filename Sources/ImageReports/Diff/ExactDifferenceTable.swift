import Foundation
import ImageMetrics

/// The exact difference: the histogram of |Δ| (8-bit code values), the largest |Δ| per
/// channel, the mean signed difference per alpha band of the expected image, and the colour cast.
enum ExactDifferenceTable {
    static func html(_ c: Comparison) -> String {
        let e = HTMLText.escape, format = DiffReport.format
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
            h += "<table class=\"bias\">" + HTMLBlocks.headerRow(["alpha band (expected)", "pixels", "R", "G", "B", "A"])
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
}
