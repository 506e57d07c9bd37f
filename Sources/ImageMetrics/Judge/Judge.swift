import ImageCore

/// The one judge of two images, used by `imglab diff`, the lab's pairs (`imglab run`, `selftest`,
/// `reproduce`) and `expectImage`: compare by value (``Comparison``), check the metric canaries
/// (``Canaries``, fail closed), evaluate the gate (``GateExpression``), diagnose when needed,
/// and return a ``Judgement``: the verdict and everything a report shows.
///
/// The steps, in order; a step that decides stops the judging:
/// 1. Compare, without the diagnosis unless ``diagnosing`` is ``Diagnosing/always`` (the
///    diagnosis is the slow part and most judged images pass).
/// 2. With a gate: the canaries (``canaries``). A failure is ``Judgement/Verdict/canariesFailed``:
///    the gate is not evaluated, since a metric that cannot tell a pair apart cannot pass one.
/// 3. Different displayed sizes: ``Judgement/Verdict/differentSizes`` (no pixel metric has a
///    value, so the gate is not evaluated).
/// 4. The gate: ``Judgement/Verdict/pass`` or ``Judgement/Verdict/fail``, or
///    ``Judgement/Verdict/gateUnusable(_:)`` when a metric it names has no value. Without a
///    gate: pass when identical by value, else fail.
/// 5. A fail or different sizes under ``Diagnosing/whenFailing``: compare again with the
///    diagnosis, testing the caller's counterfactuals beside the diagnosis's own candidates.
///
/// Pure: images in, a value out (the canaries compute their own small images).
public struct Judge: Sendable {
    /// When the judge runs the diagnosis.
    public enum Diagnosing: Sendable, Hashable {
        /// In the one comparison, whatever the verdict (`imglab diff` prints it either way).
        case always
        /// Only after a fail or different sizes, in a second comparison.
        case whenFailing
        /// Never (the lab's later failing frames: only the first failing frame is diagnosed).
        case never
    }

    /// Whether and how the metric canaries guard the gate (they never run without a gate).
    public enum CanaryCheck: Sendable, Hashable {
        /// No canaries.
        case skip
        /// Run ``Canaries/check(using:)`` before the gate.
        case run
        /// The failures of a check already run: a run checks once, then judges every pair with it.
        case checked([Canaries.Failure])
    }

    /// The gate; `nil`: pass only when identical by value.
    public var gate: GateExpression?
    /// |Δ| above which a pixel counts in `exact.count`, in 8-bit code values.
    public var tolerance: Double
    public var canaries: CanaryCheck
    public var diagnosing: Diagnosing
    /// What counts as rounding before a diagnosis is attempted (``ComparisonOptions/roundingFloor``,
    /// ``ComparisonOptions/straightColourFloor`` and ``ComparisonOptions/alphaFloor``), 8-bit code units.
    public var roundingFloor: Double
    public var straightColourFloor: Double?
    public var alphaFloor: Double?
    /// Pixels left out of the comparison (``ComparisonOptions/ignored``); `nil`: none.
    public var ignored: PixelMask?
    /// Whether the `exact.over.N.nonAA` counts are computed (``ComparisonOptions/antiAliasingCounts``);
    /// always when the gate names one of them.
    public var antiAliasingCounts: Bool
    /// What images of different displayed sizes get besides the verdict ``Judgement/Verdict/differentSizes``.
    public var sizePolicy: SizePolicy = .fail

    /// What the judge does with images of different displayed sizes (`imglab diff --size-policy`).
    public enum SizePolicy: String, Sendable, Hashable, CaseIterable {
        /// The verdict and the diagnosis only (the lab's pairs).
        case fail
        /// Also the best alignment (``SizeAlignment``: crop, pad, shift, 2×/½× scale, named) and the
        /// metrics over its overlap (``Judgement/overlap``); the verdict is still different sizes.
        case align
        /// The actual image resized to the expected's size first (``ResizeStage``, applied by the
        /// caller before the judge), then judged as images of one size; sizes that still differ
        /// (no resampler) are aligned.
        case resize
    }

    public init(gate: GateExpression?, tolerance: Double = 0, canaries: CanaryCheck = .skip, diagnosing: Diagnosing = .whenFailing,
                roundingFloor: Double = 1, straightColourFloor: Double? = nil, alphaFloor: Double? = nil, ignored: PixelMask? = nil,
                antiAliasingCounts: Bool = true) {
        self.ignored = ignored
        self.antiAliasingCounts = antiAliasingCounts || gate?.metricNames.contains { $0.hasSuffix(".nonAA") } == true
        self.gate = gate
        self.tolerance = tolerance
        self.canaries = canaries
        self.diagnosing = diagnosing
        self.roundingFloor = roundingFloor
        self.straightColourFloor = straightColourFloor
        self.alphaFloor = alphaFloor
    }

    /// Judges `actual` against `expected`.
    /// - Parameters:
    ///   - source: the pixel format of the image both sides were made from, when the caller knows
    ///     it (the lab): the diagnosis offers only candidates that can apply to it.
    ///   - counterfactuals: predictions of the actual image under bug hypotheses from a caller that
    ///     knows the source (the lab); called only when the diagnosis runs.
    public func judge(expected: ComparedImage, actual: ComparedImage, source: PixelFormat? = nil,
                      counterfactuals: () -> [Counterfactual] = { [] }) -> Judgement {
        func compare(diagnose: Bool, _ counterfactuals: [Counterfactual] = []) -> Comparison {
            Comparison(expected: expected, actual: actual,
                       options: ComparisonOptions(tolerance: tolerance, diagnose: diagnose, roundingFloor: roundingFloor,
                                                  straightColourFloor: straightColourFloor, alphaFloor: alphaFloor, ignored: ignored,
                                                  antiAliasingCounts: antiAliasingCounts),
                       source: source, counterfactuals: counterfactuals)
        }
        let always = diagnosing == .always
        var judgement = Judgement(verdict: .pass, comparison: compare(diagnose: always, always ? counterfactuals() : []), diagnosed: always)
        let comparison = judgement.comparison
        if gate != nil {
            switch canaries {
            case .skip: break
            case .run: judgement.canaryFailures = Canaries.check()
            case .checked(let failures): judgement.canaryFailures = failures
            }
            if judgement.canaryFailures?.isEmpty == false {
                judgement.verdict = .canariesFailed
                return judgement
            }
        }
        if !comparison.sameSize {
            judgement.verdict = .differentSizes
            if sizePolicy != .fail { align(&judgement, expected, actual) }
        } else if let gate {
            do {
                let result = try gate.evaluate { comparison.value($0) }
                judgement.gate = result
                judgement.verdict = result.passed ? .pass : .fail
            } catch {
                judgement.verdict = .gateUnusable(error)
                return judgement
            }
        } else {
            judgement.verdict = comparison.identical ? .pass : .fail
        }
        if !judgement.passed && diagnosing == .whenFailing {
            judgement.comparison = compare(diagnose: true, counterfactuals())
            judgement.diagnosed = true
        }
        return judgement
    }
}

extension Judge {
    /// The alignment of two images of different sizes and the comparison of their overlap
    /// (without masks: they are drawn on the expected image's whole size).
    func align(_ judgement: inout Judgement, _ expected: ComparedImage, _ actual: ComparedImage) {
        let withAlpha = expected.image.format.hasAlpha || actual.image.format.hasAlpha
        guard let found = SizeAlignment.find(expected: ValueImage(expected.image, withAlpha: withAlpha),
                                             actual: ValueImage(actual.image, withAlpha: withAlpha)) else { return }
        judgement.alignment = found
        if let (e, a) = found.overlapImages(expected, actual) {
            judgement.overlap = Comparison(expected: e, actual: a, options: ComparisonOptions(tolerance: tolerance, diagnose: false,
                                                                                             antiAliasingCounts: antiAliasingCounts))
        }
    }
}

extension Judge.CanaryCheck {
    /// The check a command that judges many pairs with one gate makes once, before the first
    /// pair: ``run`` becomes ``checked(_:)`` with the canaries' failures; without a gate, ``skip``
    /// (the canaries guard a gate).
    public func once(gate: GateExpression?) -> Judge.CanaryCheck {
        guard gate != nil else { return .skip }
        if case .run = self { return .checked(Canaries.check()) }
        return self
    }
}
