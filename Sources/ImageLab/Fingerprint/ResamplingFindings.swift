import ImageCore
import ImageCorpus

/// The findings of the fitted resampling design (``DesignFit``): kernel, light space,
/// antialiasing, edge rule, pixel centres, output rounding and channel order. A finding's
/// confidence compares the best design with the best one that differs in that property.
enum ResamplingFindings {
    typealias Finding = ContractFingerprint.Finding

    /// `1 − best / alternative`, in 0…1 (1 when nothing else comes close).
    static func confidence(_ best: Double, _ alternative: Double?) -> Double {
        guard let alternative, alternative > 0 else { return 1 }
        return min(1, max(0, 1 - best / alternative))
    }

    static func codes(_ v: Double) -> String { String(format: "%.2f", v) }

    static func findings(best: DesignFit.Scored, ranked: [DesignFit.Scored]) -> [Finding] {
        let d = best.design
        /// The finding of one property: the best design's value against the best other value.
        func finding<V: Equatable>(_ aspect: String, _ value: KeyPath<DesignFit.Candidate, V>, _ words: String,
                                   _ kind: Finding.Kind) -> Finding {
            let other = ranked.first { $0.candidate[keyPath: value] != best.candidate[keyPath: value] }
            let evidence = "fits the outputs to \(codes(best.distance)) codes (shrink + enlargement)"
                + (other.map { "; the best design without it: \(codes($0.distance)) codes" } ?? "")
            return Finding(aspect: aspect, value: words, kind: kind,
                           confidence: confidence(best.distance, other?.distance), evidence: evidence)
        }
        let light: (String, Finding.Kind) = switch (d.lightSpace, d.gamma) {
        case (.linear, nil): ("linear light", .correct)
        case (.srgb, _): ("sRGB-encoded values (fine detail darkens)", .design)
        case (.linear, let g?): ("linear light through a pure power \(g) curve, not the sRGB curve", .defect)
        }
        var out = [
            finding("kernel", \.design.kernel, d.enlargingKernel.map { "\(d.kernel.rawValue) to shrink, \($0.rawValue) to enlarge" }
                    ?? d.kernel.rawValue, .design),
            finding("light space", \.design.lightSpace, light.0, light.1),
        ]
        if d.lightSpace == .linear {
            out[1] = finding("light space", \.design.gamma, light.0, light.1)
        }
        if d.kernel != .nearest {
            out.append(finding("antialiasing", \.design.widensWhenShrinking,
                               d.widensWhenShrinking ? "the kernel widens when shrinking" : "none: a fixed support aliases",
                               d.widensWhenShrinking ? .correct : .design))
        }
        out.append(finding("edges", \.design.edge, d.edge.rawValue, d.edge == .wrap ? .defect : d.edge == .clamp ? .design : .correct))
        let bits = d.intermediateBits
        if d.arithmetic == .libvipsReduce {
            out.append(finding("precision", \.design.arithmetic, "libvips' fixed-point reduce (6-bit vertical and 12-bit horizontal "
                               + "weights on 8-bit samples, positions in 1/64 pixel, a box pre-shrink, one factor for both axes)", .design))
        } else {
            out.append(finding("precision", \.design.intermediateBits,
                               bits.map { "\($0)-bit values between the two passes (rounding adds up to a few codes)" } ?? "no loss between passes",
                               bits == nil ? .correct : .design))
        }
        let centres = best.candidate.centres
        out.append(finding("pixel centres", \.centres, centres == .aligned ? "at i + ½ (centre-aligned)"
                           : centres == .halfPixel ? "at i (shifted by half a pixel)" : "at i across, i + ½ down (shifted across)",
                           centres == .aligned ? .correct : .defect))
        let truncates = best.bias < -0.3
        out.append(Finding(aspect: "output rounding", value: truncates ? "truncated (values low by up to a code)" : "rounded",
                           kind: truncates ? .defect : .correct, confidence: min(1, abs(best.bias + 0.25) / 0.25),
                           evidence: "mean signed difference from the fitted design on opaque pixels: \(codes(best.bias)) codes"))
        return out
    }

    /// Red and blue in place, or exchanged: the shrink's output against the fitted design, as is
    /// and with red and blue swapped.
    static func channelOrder(shrink: Image?, best: DesignFit.Candidate) -> Finding {
        let probe = CalibrationImages.shrink
        guard let shrink, let actual = DesignFit.Pixels(shrink),
              let oracle = DesignFit.render(probe.source, probe.operation, best),
              let asIs = DesignFit.distance(actual, DesignFit.Pixels(oracle)),
              let swapped = DesignFit.distance(actual.swappingRedAndBlue, DesignFit.Pixels(oracle)) else {
            return Finding(aspect: "channel order", value: "not found out", kind: .unknown, confidence: 0,
                           evidence: "the shrink's output could not be compared")
        }
        let inOrder = asIs.mean <= swapped.mean
        return Finding(aspect: "channel order", value: inOrder ? "RGB" : "red and blue swapped", kind: inOrder ? .correct : .defect,
                       confidence: confidence(min(asIs.mean, swapped.mean), max(asIs.mean, swapped.mean)),
                       evidence: "\(codes(asIs.mean)) codes as is, \(codes(swapped.mean)) with red and blue exchanged")
    }
}
