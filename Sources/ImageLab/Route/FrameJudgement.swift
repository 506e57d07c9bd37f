import ImageCore
import ImageCodecs
import ImageCorpus
import ImageMetrics

/// The compare → gate → diagnose stage of a resized pair (a corpus pair, an input pair, a scale
/// pair): every frame of the resizer's output judged against its expected frame by the family's
/// gate (``Judge``), an output that states its colours in sRGB through them. Every frame is measured (the metrics are the worst over frames); the first
/// failing frame, else frame 0, is the one judged, diagnosed and shown.
struct FrameJudgement {
    /// The gate family that judges the pair.
    var family: String
    var gate: GateExpression
    /// The metric canaries' failures, checked once by the run (empty: they passed).
    var canaries: [Canaries.Failure]
    /// Whether the expected side is the kernel-exact oracle (its rounding floors are tighter).
    var kernelJudged: Bool

    /// One frame's judgement with its two sides.
    struct Frame {
        var judgement: Judgement
        var expected: ComparedImage
        var actual: ComparedImage
        /// The expected frame's file, when it is one (embedded in the report as is).
        var expectedFile: [UInt8]?
    }

    /// What the stage found: the worst value of each headline and gate metric over the frames,
    /// and the frame judged.
    struct Outcome {
        var worst: [String: Double] = [:]
        var judged: Frame?
    }

    /// Judges `frames` frames and records the finding in `result` (its verdict becomes `fail` and
    /// its message the failed clauses or the sizes; a pass leaves it as it is).
    /// - Parameters:
    ///   - expected: frame `k`'s expected image, its name and its file (when it is one).
    ///   - actual: frame `k` of the output.
    ///   - source: the pixel format of the source (the diagnosis offers only candidates that apply).
    ///   - counterfactuals: frame `k`'s predictions under bug hypotheses, for the diagnosis.
    /// - Throws: ``PairStageError`` when an expected frame cannot be had, a gate metric has no
    ///   value, or the canaries failed.
    func judge(frames: Int, expected: (Int) throws(PairStageError) -> (image: Image, name: String, file: [UInt8]?),
               actual: (Int) -> ComparedImage, source: PixelFormat?,
               counterfactuals: (_ frame: Int, _ expected: Image, _ actual: Bitmap) -> [Counterfactual],
               into result: inout PairResult) throws(PairStageError) -> Outcome {
        var outcome = Outcome()
        for k in 0..<frames {
            let wanted = try expected(k)
            let expectedSide = ComparedImage(image: wanted.image, name: wanted.name, container: .png)
            let output = actual(k)
            let actualSide = Self.shownInSRGB(output)
            let firstFailure = outcome.judged.map { $0.judgement.passed } ?? true
            var judgement = judge(expected: expectedSide, actual: actualSide, output: output.image.bitmap.format, source: source,
                                  diagnosing: firstFailure ? .whenFailing : .never) {
                counterfactuals(k, wanted.image, output.image.bitmap)
            }
            if actualSide.image.bitmap != output.image.bitmap, !judgement.passed, judgement.diagnosed {
                judgement.comparison.diagnosis = FileComparison.storedValuesReading(of: judgement.comparison.diagnosis, expected: wanted.image,
                                                                                   output: output.image)
            }
            outcome.worst = Self.worst(outcome.worst, judgement.comparison, gate: gate)
            if judgement.kind == .error { throw PairStageError(reason: "family '\(family)': " + (judgement.finding ?? "")) }
            if case .differentSizes = judgement.verdict {
                result.verdict = .fail
                result.message = judgement.finding
            }
            guard outcome.judged == nil || (!judgement.passed && firstFailure) else { continue }
            outcome.judged = Frame(judgement: judgement, expected: expectedSide, actual: actualSide, expectedFile: wanted.file)
            if !judgement.passed {
                result.verdict = .fail
                if result.message == nil, judgement.gate != nil {
                    result.message = (frames > 1 ? "frame \(k): " : "") + (judgement.finding ?? "")
                }
            }
        }
        return outcome
    }

    /// One frame through ``Judge`` with the gate, the run's canaries and the rounding floors of
    /// the oracle kind (``roundingFloors(kernelJudged:output:)``) for an output stored as `output`
    /// (`nil`: as `actual` is).
    func judge(expected: ComparedImage, actual: ComparedImage, output: PixelFormat? = nil, source: PixelFormat?,
               diagnosing: Judge.Diagnosing, counterfactuals: () -> [Counterfactual] = { [] }) -> Judgement {
        let floors = Self.roundingFloors(kernelJudged: kernelJudged, output: output ?? actual.image.bitmap.format)
        let judge = Judge(gate: gate, canaries: .checked(canaries), diagnosing: diagnosing, roundingFloor: floors.visible,
                          straightColourFloor: floors.straightColour, alphaFloor: floors.alpha)
        return judge.judge(expected: expected, actual: actual, source: source, counterfactuals: counterfactuals)
    }

    /// An output that states its colours other than sRGB's (a resizer that keeps the source's
    /// profile) as it shows them: rendered in sRGB at 16 bits through the statement
    /// (``SRGBRendering``), since every oracle is in sRGB. Other outputs, and one whose statement
    /// Little CMS cannot apply (then read as sRGB, as a viewer would), as they are.
    static func shownInSRGB(_ output: ComparedImage) -> ComparedImage {
        guard SRGBRendering.needsConversion(output.image), let rendered = try? SRGBRendering.render(output.image, sixteenBit: true) else {
            return output
        }
        return ComparedImage(image: rendered, name: output.name + " (rendered in sRGB through the colours it states)", container: output.container)
    }

    /// `worst` with each headline and gate metric of `comparison` folded in: the lowest of a
    /// similarity, the highest of a difference.
    static func worst(_ worst: [String: Double], _ comparison: Comparison, gate: GateExpression) -> [String: Double] {
        var worst = worst
        for name in PairResult.headlineMetrics + gate.metricNames {
            guard let v = comparison.value(name) else { continue }
            let similar = MetricCatalog.definition(named: name)?.direction == .similarity
            worst[name] = worst[name].map { similar ? min($0, v) : max($0, v) } ?? v
        }
        return worst
    }

    /// What counts as rounding before a diagnosis is attempted (8-bit code units): against the
    /// kernel-exact oracle, the kernel families' bounds (a 16-bit code for 16-bit and float
    /// outputs; in 8-bit outputs alpha to its rounding, half a code, and straight colour too in
    /// straight outputs); otherwise 1 code (`nil` alpha: the visible floor).
    static func roundingFloors(kernelJudged: Bool, output: PixelFormat) -> (visible: Double, straightColour: Double?, alpha: Double?) {
        guard kernelJudged else { return (1, nil, nil) }
        if output.bitsPerComponent >= 16 { return (1.0 / 257, 2.5 / 257, nil) }
        return (1, output.isPremultiplied ? nil : 0.51, 0.51)
    }
}
