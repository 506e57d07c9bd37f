import ImageMetrics

/// The metric table: the gate and its clauses (✓ / ✗ with the observed values), then every
/// metric of ``MetricCatalog`` with its value (or why it has none), the gate's bound on it when
/// gated (the row shaded by whether the bound held), its unit, meaning and definition version.
enum MetricTable {
    static func html(_ c: Comparison, _ gate: GateResult?) -> String {
        let e = HTMLText.escape
        var h = ""
        if let gate {
            h += "<p class=\"gate \(gate.passed ? "ok" : "bad")\">gate <code>\(e(gate.expression))</code>: \(gate.passed ? "passed" : "failed")</p><ul class=\"clauses\">"
            for cl in gate.clauses { h += "<li class=\"\(cl.passed ? "ok" : cl.excused == true ? "excused" : "bad")\">\(cl.passed ? "✓" : cl.excused == true ? "–" : "✗") <code>\(e(cl.text))</code>\(cl.excused == true ? " (an alternative held)" : "")</li>" }
            h += "</ul>"
        }
        // Gate bounds by metric (a metric in several clauses shows each bound).
        var bounds: [String: [GateResult.Clause]] = [:]
        for cl in gate?.clauses ?? [] { if let m = cl.metric { bounds[m, default: []].append(cl) } }
        let gated = !bounds.isEmpty
        h += "<table class=\"metrics\">" + HTMLBlocks.headerRow(["metric", "value"] + (gated ? ["gate bound"] : []) + ["unit", "meaning", "definition"])
        for d in MetricCatalog.all {
            guard let m = c.metrics[d.name] else { continue }
            let value = m.value.map { DiffReport.format($0) } ?? "— (\(m.missingReason ?? "undefined"))"
            let clauses = bounds[d.name] ?? []
            let row = clauses.isEmpty ? "" : (clauses.allSatisfy { $0.passed || $0.excused == true } ? " class=\"gated ok\"" : " class=\"gated bad\"")
            h += "<tr\(row)><td><code>\(e(d.name))</code></td><td class=\"num\">\(e(value))</td>"
            if gated {
                h += "<td>" + clauses.map { "\($0.passed ? "✓" : $0.excused == true ? "–" : "✗") \(e($0.bound ?? ""))" }.joined(separator: "<br>") + "</td>"
            }
            h += "<td>\(e(d.unit))</td><td>\(e(d.summary))</td><td class=\"small\">\(e(m.version))</td></tr>"
        }
        return h + "</table>"
    }

    static let css = """
    .num{text-align:right;font-variant-numeric:tabular-nums}tr.gated.bad td{background:#f6dede}tr.gated.ok td:first-child{background:#e6f3e6}

    """
}
