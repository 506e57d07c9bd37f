import ImageMetrics

/// The metadata of both images (and of the source they were made from, when known) side by
/// side, one row per fact in Quartz terms, rows that differ highlighted.
enum MetadataTable {
    static func html(_ c: Comparison, source: ImageSummary? = nil) -> String {
        let e = HTMLText.escape
        var h = "<table class=\"meta\">" + HTMLBlocks.headerRow(["field"] + (source == nil ? [] : ["source"]) + ["expected", "actual"])
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

    static let css = """
    tr.changed td{background:#fff3c4}

    """
}
