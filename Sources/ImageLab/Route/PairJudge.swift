import Foundation
import ImageCore
import ImageCodecs
import ImageCorpus
import ImageMetrics

/// The route of a corpus pair (the corpus, `--inputs` folders, selftest and reproduce), one named
/// stage after another: read and decode the source (``CorpusFiles``); what the resizer's declared
/// policies change (``DeclaredJudgement``); the gate family; apply the resizer; judge every frame
/// (``FrameJudgement``: compare, gate, diagnose with the counterfactual oracles of the source);
/// the invisible-pixel invariance (``HiddenInvariance``); the thumbnail contract's second chance
/// (``ThumbnailContractJudgement``); the goldens (``GoldenRegression``); the evidence a report
/// page shows (``PairEvidence``). Pure apart from reading the corpus files.
struct PairJudge: Sendable {
    var corpus: URL
    var gates: GateBook
    /// The metric canaries' failures, checked once by the run before any pair (empty: they passed).
    var canaries: [Canaries.Failure]
    /// Whether to keep what the report page needs (the judged frame's comparison and images).
    var keepEvidence: Bool
    /// The blessed goldens, when the run checks for regressions.
    var goldens: GoldenStore.Index? = nil
    /// Where their images are (read for the report page only).
    var goldenStore: GoldenStore? = nil

    /// Runs the metric canaries once for a run (fail closed).
    /// - Throws: ``RunError/metricCanaries(_:)`` when one fails: no gate can be trusted.
    static func metricCanaries() throws(RunError) -> [Canaries.Failure] {
        let failures = Canaries.check()
        guard failures.isEmpty else { throw .metricCanaries(failures.map(\.description)) }
        return failures
    }

    /// Judges `pair` through `resizer`: the result, and the evidence when ``keepEvidence``.
    func judge(_ pair: LabPair, with resizer: any Resizer) -> (result: PairResult, evidence: PairEvidence?) {
        var result = PairResult(opening: pair)
        do {
            return try route(pair, with: resizer, into: &result)
        } catch {
            result.verdict = .error
            result.message = error.reason
            return (result, nil)
        }
    }

    private func route(_ pair: LabPair, with resizer: any Resizer,
                       into result: inout PairResult) throws(PairStageError) -> (result: PairResult, evidence: PairEvidence?) {
        let record = pair.record, entry = pair.entry, files = CorpusFiles(folder: corpus)
        // Read and decode.
        var (source, sourceFile) = try files.decoded(record.file, what: "the source")
        // No container here records the points-to-pixels scale; the case declares it (`@2x`).
        if record.scale != 1 { source.metadata.scale = Double(record.scale) }
        guard let operation = entry.operation.operation else {
            throw PairStageError(reason: "the manifest's operation \(entry.id) is incomplete")
        }
        // Declared policies (ResizerPolicy): what is fed, which oracle, how many frames.
        let declared = try DeclaredJudgement(pair, source: source, operation: operation, policy: resizer.policy, corpus: corpus)
        if !declared.labels.isEmpty {
            result.policy = declared.labels.map { label in
                var label = label
                label.inferred = resizer.policy.inferred && label.kind != .thumbnailScaledDecode
                return label
            }
        }
        // The gate.
        guard let familyIndex = gates.family(of: pair, oracle: declared.oracleKind) else {
            throw PairStageError(reason: "no gate family takes this pair judged against the \(declared.oracleKind.rawValue) oracle "
                                 + "(see \(GateBook.fileName))")
        }
        let family = gates.file.families[familyIndex]
        result.family = family.name
        result.expectedSize = declared.expectedSize
        // Apply the resizer.
        let output: Image
        do { output = try resizer.apply(operation, to: declared.input, file: declared.inputFile) } catch {
            throw PairStageError(reason: "resizer \(resizer.name): \(error)")
        }
        result.actualSize = [output.displaySize.width, output.displaySize.height]
        if resizer.policy.firstFrameOnly ? output.frameCount < declared.frames : output.frameCount != declared.frames {
            result.verdict = .fail
            result.message = "\(output.frameCount) frame(s), expected \(declared.frames)"
        }
        // Compare, gate and diagnose every frame.
        let frames = min(output.frameCount, declared.frames)
        let stage = FrameJudgement(family: family.name, gate: gates.gates[familyIndex], canaries: canaries,
                                   kernelJudged: declared.oracleKind == .kernel)
        var judged = try stage.judge(frames: frames, expected: { k throws(PairStageError) in
            if declared.rendersOracle {
                do { return (try declared.oracle(frame: k), declared.oracleName(frame: k), nil) } catch { throw PairStageError(reason: "\(error)") }
            }
            let oracle = try files.decoded(entry.oracle[k], what: "the oracle")
            return (oracle.image, declared.oracleName(frame: k), oracle.bytes)
        }, actual: { k in
            let bitmap = output.animation.map { $0.frames[k].canvas } ?? output.bitmap
            return ComparedImage(image: Image(bitmap: bitmap, orientation: output.orientation, metadata: output.metadata),
                                 name: "\(resizer.name): \(pair.id)" + (frames > 1 ? " frame \(k)" : ""))
        }, source: source.format, counterfactuals: { k, expected, actual in
            // Against the kernel-exact oracle, the diagnosis tests bug hypotheses predicted exactly
            // from the source (KernelCounterfactuals). Against the box oracle, it tests the oracle
            // re-computed under bug hypotheses (CounterfactualOracle), with the built-in resizer's
            // output on the same input as the reference of the `.reference` forms (none when it
            // throws); not against a declared-policy oracle, which already is a re-computation.
            (declared.kernelCounterfactuals(source: source, frame: k, output: actual.format,
                                            outputStatesColours: SRGBRendering.needsConversion(output)) ?? (declared.rendersOracle ? [] :
                CounterfactualOracle.counterfactuals(source: source, frame: k, operation: operation, expected: expected,
                                                     reference: try? BuiltinResizer().apply(operation, to: declared.input, file: declared.inputFile))
                + ProfileCounterfactuals.predictions(correct: expected, source: source, outputStatesColours: SRGBRendering.needsConversion(output))))
            + EmbeddedThumbnailCounterfactuals.predictions(source: source, width: expected.displaySize.width, height: expected.displaySize.height)
        }, into: &result)
        // Invisible-pixel invariance.
        var invarianceFailed = false
        if let twin = record.hiddenTwin, let invariance = gates.invariance {
            let delta = try HiddenInvariance(corpus: files).delta(twin: twin, scale: record.scale, operation: operation, resizer: resizer,
                                                                  declared: declared, output: output)
            judged.worst["hidden.delta"] = delta
            if let check = try? invariance.evaluate({ $0 == "hidden.delta" ? delta : nil }), !check.passed, result.verdict != .fail {
                result.verdict = .fail
                result.message = "invisible-pixel invariance: the output changes with the colour hidden under α = 0 ("
                    + check.failedClauses.joined(separator: "; ") + ")"
                invarianceFailed = true
            }
        }
        if result.verdict == .error && result.message == nil { result.verdict = .pass }
        // A JPEG thumbnail the contract lets a resizer decode at 1/d: the full decode's oracle is
        // not the only right answer; the one rendered from the file decoded at 1/d is too.
        if result.verdict == .fail, !invarianceFailed, frames == 1, output.frameCount == 1, let failed = judged.judged,
           failed.judgement.gate != nil, declared.inputFile != nil, !declared.rendersOracle,
           let contract = ThumbnailContractJudgement.judge(pair, file: sourceFile, source: source, operation: operation, actual: failed.actual,
                                                           policy: resizer.policy, gates: gates, canaries: canaries,
                                                           fullDecodeFailure: failed.judgement) {
            result.policy = (result.policy ?? []) + [contract.label]
            result.family = gates.file.families[contract.family].name
            result.verdict = .pass
            result.message = nil
            judged.worst = FrameJudgement.worst([:], contract.judgement.comparison, gate: gates.gates[contract.family])
            judged.judged = .init(judgement: contract.judgement, expected: contract.expected, actual: failed.actual, expectedFile: nil)
        }
        result.metrics = judged.worst
        guard let frame = judged.judged else { return (result, nil) }
        result.gate = frame.judgement.gate
        // The goldens.
        var goldenImage: ComparedImage?
        if let goldens {
            let regression = GoldenRegression.classify(frame.actual.image, distance: frame.judgement.comparison.value("visible.mean"),
                                                       goldens: goldens.goldens[pair.id] ?? [])
            result.golden = regression.text
            result.goldenHash = regression.golden?.hash
            // A gate failure stays `fail`; the goldens decide only among outputs the gate accepts.
            if result.verdict == .pass, let verdict = regression.verdict {
                result.verdict = verdict
                if verdict != .pass { result.message = regression.text }
            }
            if keepEvidence, let store = goldenStore, let g = regression.golden, let image = try? store.image(g) {
                goldenImage = ComparedImage(image: image, name: "golden \(g.hash) (\(g.resizer))", container: .png)
            }
        }
        // The diagnosis.
        if result.verdict == .fail {
            let diagnosis = frame.judgement.comparison.diagnosis
            result.diagnosis = .init(Orientation(exifValue: record.orientation).map(diagnosis.stated(againstSourceTag:)) ?? diagnosis)
            if invarianceFailed && frame.judgement.comparison.diagnosis.bugClass == nil {
                result.diagnosis = HiddenInvariance.finding(delta: judged.worst["hidden.delta"] ?? 0)
            }
        }
        // The evidence.
        guard keepEvidence else { return (result, nil) }
        let sourceSide = ComparedImage(image: source, name: "source: \(record.file)", container: ContainerFormat(sniffing: sourceFile))
        return (result, PairEvidence(judgement: frame.judgement, expected: frame.expected, actual: frame.actual, expectedFile: frame.expectedFile,
                                     source: sourceSide, sourceFile: sourceFile, golden: goldenImage))
    }
}
