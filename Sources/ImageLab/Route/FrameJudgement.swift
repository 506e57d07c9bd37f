import ImageCore
import ImageCorpus
import ImageMetrics

/// The compare → gate → diagnose stage of a resized pair (a corpus pair, an input pair, a scale
/// pair): every frame of the resizer's output judged against its expected frame by the family's
/// gate (``Judge``). Every frame is measured (the metrics are the worst over frames); the first
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
            let actualSide = actual(k)
            let firstFailure = outcome.judged.map { $0.judgement.passed } ?? true
            let floors = PairJudge.roundingFloors(kernelJudged: kernelJudged, output: actualSide.image.bitmap.format)
            let judge = Judge(gate: gate, canaries: .checked(canaries), diagnosing: firstFailure ? .whenFailing : .never,
                              roundingFloor: floors.visible, straightColourFloor: floors.straightColour, alphaFloor: floors.alpha)
            let judgement = judge.judge(expected: expectedSide, actual: actualSide, source: source) {
                counterfactuals(k, wanted.image, actualSide.image.bitmap)
            }
            for name in PairResult.headlineMetrics + gate.metricNames {
                guard let v = judgement.comparison.value(name) else { continue }
                let similar = MetricCatalog.definition(named: name)?.direction == .similarity
                if let w = outcome.worst[name] { outcome.worst[name] = similar ? min(w, v) : max(w, v) } else { outcome.worst[name] = v }
            }
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
}
