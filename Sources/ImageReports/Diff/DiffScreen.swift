import Foundation
import ImageMetrics

/// The one-screen terminal summary of `imglab diff`: the two files in Quartz terms, the
/// metadata differences, the verdict, the headline metrics (8-bit code values, PSNR in dB), the
/// alpha views, bias and cast, the diagnosis, the gate's clauses and the report's path.
public enum DiffScreen {
    /// The screen's lines, joined by newlines (no trailing newline).
    public static func render(_ judgement: Judgement, reportPath: String?) -> String {
        let c = judgement.comparison, gate = judgement.gate
        var lines: [String] = []
        func add(_ key: String, _ value: String) {
            lines.append(key.padding(toLength: 11, withPad: " ", startingAt: 0) + value)
        }
        func f(_ name: String, _ digits: Int = 4) -> String {
            guard let v = c.value(name) else { return "—" }
            if v.isInfinite { return "∞" }
            return String(format: "%.\(digits)f", v)
        }
        for (label, s) in [("expected", c.expected), ("actual", c.actual)] {
            let size = s.width == s.displayWidth && s.height == s.displayHeight ? "\(s.width)×\(s.height)" : "\(s.width)×\(s.height) stored, \(s.displayWidth)×\(s.displayHeight) displayed"
            add(label, "\(s.name)  \(s.container?.uppercased() ?? "?") \(size), \(s.format.summary)")
        }
        if c.metadataDifferences.isEmpty {
            add("metadata", "same")
        } else {
            for (i, d) in c.metadataDifferences.enumerated() {
                add(i == 0 ? "metadata" : "", "\(d.field): \(d.expected) → \(d.actual)")
            }
        }
        add("compared", c.comparedAs + (c.notes.isEmpty ? "" : "; " + c.notes.joined(separator: "; ")))
        if let colour = judgement.colour, colour.isNotable { add("colour", colour.summary) }
        if let resized = judgement.resized { add("resized", resized) }
        if !c.sameSize {
            add("verdict", "DIFFERENT SIZES: \(c.expected.displayWidth)×\(c.expected.displayHeight) vs \(c.actual.displayWidth)×\(c.actual.displayHeight) as displayed")
            add("aligned", judgement.alignmentSummary ?? "no crop, pad, shift or 2×/½× scale lines them up (--size-policy align)")
        } else if c.identical {
            add("verdict", "identical by value")
        } else if let x = c.exact, x.differingPixels == 0 {
            add("verdict", "no visible or alpha difference; hidden colour changed under α = 0 in \(c.alphaViews?.colour.hiddenChanged ?? 0) px (gate on visible.max to accept)")
        } else if let x = c.exact {
            let total = x.histogram.reduce(0, +)
            add("verdict", String(format: "different: %d of %d pixels (%.2f%%), max |Δ| %@", x.differingPixels, total,
                                  100 * Double(x.differingPixels) / Double(max(total, 1)), f("exact.max", 2)))
            add("histogram", zip(x.bucketEdges, x.histogram).enumerated().map { i, p in (i == 0 ? "=0" : "≤\(Int(p.0))") + ":\(p.1)" }.joined(separator: " "))
        }
        if c.sameSize {
            add("metrics", "PSNR \(f("psnr", 2)) dB · SSIM \(f("ssim")) (RGB \(f("ssim.rgb")), MS \(f("msssim"))) · SSIMULACRA2 \(f("ssimulacra2", 2))")
            add("", "ΔE00 mean \(f("deltaE00.mean", 3)) p95 \(f("deltaE00.p95", 3)) p99 \(f("deltaE00.p99", 3)) max \(f("deltaE00.max", 3))")
            if let a = c.alphaViews {
                add("alpha", String(format: "visible max %.2f mean %.3f (worse: %@) · alpha max %.2f mean %.3f", a.visible.max, a.visible.mean, a.visible.background, a.alpha.max, a.alpha.mean))
                if a.colour.translucentPixels > 0 || a.colour.hiddenChanged > 0 {
                    add("", String(format: "translucent colour max %.2f mean %.3f (%d px) · hidden colour changed: %d px (not visible)", a.colour.translucentMax, a.colour.translucentMean, a.colour.translucentPixels, a.colour.hiddenChanged))
                }
            }
            for b in c.bias where b.mean.contains(where: { $0 != 0 }) {
                add(b.band == c.bias.first?.band ? "bias" : "", "\(b.band) (\(b.pixels) px): " + zip(["R", "G", "B", "A"], b.mean).map { String(format: "%@ %+.3f", $0, $1) }.joined(separator: " "))
            }
            if let cast = c.colourCast {
                add("cast", String(format: "ΔL* %+.3f Δa* %+.3f Δb* %+.3f: %@", cast.dL, cast.da, cast.db, cast.direction))
            }
        }
        add("diagnosis", c.diagnosis.sentence)
        if let gate {
            add("gate", "\(gate.passed ? "PASSED" : "FAILED"): \(gate.expression)")
            for cl in gate.clauses where !cl.passed || gate.clauses.count <= 6 {
                add("", "\(cl.passed ? "✓" : cl.excused == true ? "–" : "✗") \(cl.text)")
            }
        }
        if let reportPath { add("report", reportPath) }
        return lines.joined(separator: "\n")
    }
}
