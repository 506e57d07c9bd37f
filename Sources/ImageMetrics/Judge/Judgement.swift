/// What ``Judge`` decided about two images, with everything a report shows: the comparison
/// (diagnosed when the judge ran the diagnosis), the gate's clauses with their observed values,
/// and the canaries' outcome.
public struct Judgement: Sendable {
    /// The decision.
    public enum Verdict: Sendable, Hashable {
        /// Within the gate; without a gate, identical by value.
        case pass
        /// Outside the gate; without a gate, different by value.
        case fail
        /// The displayed sizes differ: no pixel metric has a value; a finding, like a fail.
        case differentSizes
        /// A metric canary failed: the metrics cannot be trusted, the gate was not evaluated.
        case canariesFailed
        /// The gate names a metric that has no value for these images (e.g. `msssim` below
        /// 176 pixels): it cannot be evaluated, and does not pass by omission.
        case gateUnusable(GateError)
    }

    public var verdict: Verdict
    /// The comparison the verdict rests on.
    public var comparison: Comparison
    /// Whether ``comparison`` carries a diagnosis (otherwise it says "not run").
    public var diagnosed: Bool
    /// The gate's outcome, when it was evaluated.
    public var gate: GateResult?
    /// The canaries' failures, when they ran (empty: every canary passed).
    public var canaryFailures: [Canaries.Failure]?
    /// What the colour stage did (profiles read, sides converted), when the pair took the
    /// judge route of user images (``FileComparison/judge(_:_:by:ignoring:colour:)``).
    public var colour: ColourHandling?
    /// Images of different sizes under ``Judge/SizePolicy/align``: how they line up (a crop,
    /// pad, shift or 2×/½× scale, named), when an alignment explains the size change.
    public var alignment: SizeAlignment?
    /// Under ``Judge/SizePolicy/resize``: the sentence saying the actual image was resized to the
    /// expected's size before the judge (``ResizeStage``), when it was.
    public var resized: String?
    /// The comparison of the two images cut to ``alignment``'s overlap (an offset's), without a
    /// diagnosis: every metric over the part both show. The verdict stays ``Verdict/differentSizes``.
    public var overlap: Comparison?

    public init(verdict: Verdict, comparison: Comparison, diagnosed: Bool, gate: GateResult? = nil,
                canaryFailures: [Canaries.Failure]? = nil) {
        self.verdict = verdict
        self.comparison = comparison
        self.diagnosed = diagnosed
        self.gate = gate
        self.canaryFailures = canaryFailures
    }

    /// Whether the verdict is ``Verdict/pass``.
    public var passed: Bool { verdict == .pass }

    /// The verdict in the one vocabulary (``ImageMetrics/Verdict``): different sizes fail; failed
    /// canaries and an unusable gate are errors (the images could not be judged).
    public var kind: ImageMetrics.Verdict {
        switch verdict {
        case .pass: return .pass
        case .fail, .differentSizes: return .fail
        case .canariesFailed, .gateUnusable: return .error
        }
    }

    /// Why the images do not pass, in one line, the same words for every command: the failed gate
    /// clauses; without a gate, how many pixels differ; the sizes; the canaries that failed; why
    /// the gate cannot be evaluated. `nil` for a pass.
    public var finding: String? {
        switch verdict {
        case .pass: return nil
        case .fail:
            if gate != nil { return failedClauses.joined(separator: "; ") }
            guard let x = comparison.exact else { return "different by value" }
            let total = x.histogram.reduce(0, +)
            return "\(x.differingPixels) of \(total) pixels differ, max |Δ| " + GateExpression.format(comparison.value("exact.max") ?? .nan)
        case .differentSizes: return sizeFinding
        case .canariesFailed:
            return "metric canaries failed, the gate was not evaluated: " + (canaryFailures ?? []).map(\.description).joined(separator: "; ")
        case .gateUnusable(let error): return error.description
        }
    }

    /// The text of each gate clause that failed, e.g. `exact.max (200) <= 1`.
    public var failedClauses: [String] { gate?.failedClauses ?? [] }

    /// The alignment of images of different sizes in one line: `the bottom row cropped (80×59
    /// overlap at 0,0 of the expected image: mean |Δ| 0.00, PSNR ∞ dB, SSIM 1.0000)`; `nil` without one.
    public var alignmentSummary: String? {
        guard let a = alignment else { return nil }
        var words = a.name
        if a.kind == .offset {
            let r = a.expectedRegion
            words += " (\(r.width)×\(r.height) overlap at \(r.x),\(r.y) of the expected image: mean |Δ| "
                + String(format: "%.2f", a.meanError)
            if let o = overlap {
                let psnr = o.value("psnr").map { $0.isInfinite ? "∞" : String(format: "%.2f", $0) } ?? "—"
                words += ", PSNR \(psnr) dB, SSIM " + (o.value("ssim").map { String(format: "%.4f", $0) } ?? "—")
            }
            words += ")"
        } else {
            words += String(format: " (2×2 blocks of the larger image against the smaller: mean |Δ| %.2f)", a.meanError)
        }
        return words
    }

    /// The displayed sizes as a finding: `size 2×2, expected 64×32`.
    public var sizeFinding: String {
        let c = comparison
        return "size \(c.actual.displayWidth)×\(c.actual.displayHeight), expected \(c.expected.displayWidth)×\(c.expected.displayHeight)"
    }
}
