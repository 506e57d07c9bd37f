import ImageCorpus
import Foundation
import ImageCore
import ImageCodecs
import ImageMetrics

/// What the report page of a pair shows: the judged frame's judgement and its two sides,
/// plus the source and the golden the output was measured against.
public struct PairEvidence: Sendable {
    /// The judged frame's judgement (the first failing frame's, diagnosed; else frame 0's).
    public var judgement: Judgement
    /// The judged frame's comparison.
    public var comparison: Comparison {
        get { judgement.comparison }
        set { judgement.comparison = newValue }
    }
    /// The oracle frame.
    public var expected: ComparedImage
    /// The resizer's output frame.
    public var actual: ComparedImage
    /// The oracle frame's PNG file (embedded in the report as is).
    public var expectedFile: [UInt8]?
    /// The decoded source file (as stored; the report shows it as displayed), with its file bytes.
    public var source: ComparedImage?
    public var sourceFile: [UInt8]?
    /// The golden named by ``PairResult/goldenHash``, when the run had a golden store.
    public var golden: ComparedImage?
}

/// Judges one pair: decode the source, apply the resizer, and judge every frame against its
/// oracle with the family's gate (``Judge``); the first failing frame is diagnosed, with the
/// counterfactual oracles of the source. Pure apart from reading the corpus files.
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

    func judge(_ pair: LabPair, with resizer: any Resizer) -> (result: PairResult, evidence: PairEvidence?) {
        let record = pair.record, entry = pair.entry
        var result = PairResult(pair: pair.id, caseID: record.id, operation: entry.id, encoding: record.encoding,
                                container: record.container, orientation: record.orientation, family: nil, verdict: .error,
                                gate: nil, frames: entry.oracle.count, expectedSize: [entry.outputWidth, entry.outputHeight],
                                actualSize: nil, metrics: [:], diagnosis: nil, message: nil)
        func erred(_ message: String) -> (PairResult, PairEvidence?) {
            result.verdict = .error
            result.message = message
            return (result, nil)
        }

        var source: Image, sourceFile: [UInt8]
        do {
            sourceFile = try read(record.file)
            source = try ImageCodecs.decode(sourceFile)
        } catch { return erred("cannot decode the source \(record.file): \(error)") }
        // No container here records the points-to-pixels scale; the case declares it (`@2x`).
        if record.scale != 1 { source.metadata.scale = Double(record.scale) }
        guard let operation = entry.operation.operation else { return erred("the manifest's operation \(entry.id) is incomplete") }
        // Declared policies (ResizerPolicy): what is fed, which oracle, how many frames.
        let declared: DeclaredJudgement
        do { declared = try DeclaredJudgement(pair, source: source, operation: operation, policy: resizer.policy, corpus: corpus) } catch {
            return erred("\(error)")
        }
        if !declared.labels.isEmpty { result.policy = declared.labels }
        guard let familyIndex = gates.family(of: pair, oracle: declared.oracleKind) else {
            return erred("no gate family takes this pair judged against the \(declared.oracleKind.rawValue) oracle (see \(GateBook.fileName))")
        }
        let family = gates.file.families[familyIndex], gate = gates.gates[familyIndex]
        result.family = family.name
        result.expectedSize = declared.expectedSize
        let output: Image
        do { output = try resizer.apply(operation, to: declared.input, file: declared.inputFile) } catch { return erred("resizer \(resizer.name): \(error)") }
        let displayed = output.displaySize
        result.actualSize = [displayed.width, displayed.height]
        if resizer.policy.firstFrameOnly ? output.frameCount < declared.frames : output.frameCount != declared.frames {
            result.verdict = .fail
            result.message = "\(output.frameCount) frame(s), expected \(declared.frames)"
        }

        var worst: [String: Double] = [:]
        var invarianceFailed = false
        var judged: (judgement: Judgement, expected: ComparedImage, actual: ComparedImage, expectedFile: [UInt8]?)?
        let frames = min(output.frameCount, declared.frames)
        for k in 0..<frames {
            let expectedImage: Image, expectedFile: [UInt8]?
            if declared.rendersOracle {
                do { expectedImage = try declared.oracle(frame: k) } catch { return erred("\(error)") }
                expectedFile = nil
            } else {
                do {
                    let bytes = try read(entry.oracle[k])
                    expectedImage = try ImageCodecs.decode(bytes)
                    expectedFile = bytes
                } catch { return erred("cannot decode the oracle \(entry.oracle[k]): \(error)") }
            }
            let actualBitmap = output.animation.map { $0.frames[k].canvas } ?? output.bitmap
            let expected = ComparedImage(image: expectedImage, name: declared.oracleName(frame: k), container: .png)
            let actual = ComparedImage(image: Image(bitmap: actualBitmap, orientation: output.orientation, metadata: output.metadata),
                                       name: "\(resizer.name): \(pair.id)" + (frames > 1 ? " frame \(k)" : ""))
            // Every frame is measured (the metrics are the worst over frames); the first failing
            // frame, else frame 0, is the one judged, diagnosed and shown.
            let firstFailure = judged.map { $0.judgement.passed } ?? true
            let floors = Self.roundingFloors(kernelJudged: declared.oracleKind == .kernel, output: actualBitmap.format)
            let judge = Judge(gate: gate, canaries: .checked(canaries), diagnosing: firstFailure ? .whenFailing : .never,
                              roundingFloor: floors.visible, straightColourFloor: floors.straightColour, alphaFloor: floors.alpha)
            // Against the kernel-exact oracle, the diagnosis tests bug hypotheses predicted exactly
            // from the source (KernelCounterfactuals). Against the box oracle, it tests the oracle
            // re-computed under bug hypotheses (CounterfactualOracle), with the built-in resizer's
            // output on the same input as the reference of the `.reference` forms (none when it
            // throws); not against a declared-policy oracle, which already is a re-computation.
            let judgement = judge.judge(expected: expected, actual: actual, source: source.format) {
                declared.kernelCounterfactuals(source: source, frame: k, output: actualBitmap.format) ?? (declared.rendersOracle ? [] :
                    CounterfactualOracle.counterfactuals(source: source, frame: k, operation: operation, expected: expectedImage,
                                                         reference: try? BuiltinResizer().apply(operation, to: declared.input, file: declared.inputFile)))
            }
            for name in PairResult.headlineMetrics + gate.metricNames {
                guard let v = judgement.comparison.value(name) else { continue }
                let similar = MetricCatalog.definition(named: name)?.direction == .similarity
                if let w = worst[name] { worst[name] = similar ? min(w, v) : max(w, v) } else { worst[name] = v }
            }
            switch judgement.verdict {
            case .pass, .fail: break
            case .differentSizes:
                result.verdict = .fail
                result.message = judgement.sizeFinding
            case .gateUnusable(let error): return erred("family '\(family.name)': \(error)")
            case .canariesFailed: return erred("metric canaries failed: " + canaries.map(\.description).joined(separator: "; "))
            }
            guard judged == nil || (!judgement.passed && firstFailure) else { continue }
            judged = (judgement, expected, actual, expectedFile)
            if !judgement.passed {
                result.verdict = .fail
                if result.message == nil, judgement.gate != nil {
                    result.message = (frames > 1 ? "frame \(k): " : "") + judgement.failedClauses.joined(separator: "; ")
                }
            }
        }
        // Invisible-pixel invariance: the case's twin differs only in the colour under α = 0, so
        // a resizer that premultiplies gives the same visible output for both.
        if let twin = record.hiddenTwin, let invariance = gates.invariance {
            let delta: Double
            do { delta = try hiddenDelta(twin: twin, scale: record.scale, operation: operation, resizer: resizer, declared: declared, output: output) } catch {
                return erred("\(error)")
            }
            worst["hidden.delta"] = delta
            if let check = try? invariance.evaluate({ $0 == "hidden.delta" ? delta : nil }), !check.passed, result.verdict != .fail {
                result.verdict = .fail
                result.message = "invisible-pixel invariance: the output changes with the colour hidden under α = 0 (" + check.failedClauses.joined(separator: "; ") + ")"
                invarianceFailed = true
            }
        }
        if result.verdict == .error && result.message == nil { result.verdict = .pass }
        // A JPEG thumbnail the contract lets a resizer decode at 1/d: the full decode's oracle is
        // not the only right answer; the one rendered from the file decoded at 1/d is too.
        if result.verdict == .fail, !invarianceFailed, frames == 1, output.frameCount == 1, let failed = judged, failed.judgement.gate != nil,
           declared.inputFile != nil, !declared.rendersOracle,
           let contract = ThumbnailContractJudgement.judge(pair, file: sourceFile, source: source, operation: operation, actual: failed.actual,
                                                           policy: resizer.policy, gates: gates, canaries: canaries, fullDecodeFailure: failed.judgement) {
            result.policy = (result.policy ?? []) + [contract.label]
            result.family = gates.file.families[contract.family].name
            result.verdict = .pass
            result.message = nil
            worst = [:]
            for name in PairResult.headlineMetrics + gates.gates[contract.family].metricNames {
                if let v = contract.judgement.comparison.value(name) { worst[name] = v }
            }
            judged = (contract.judgement, contract.expected, failed.actual, nil)
        }
        result.metrics = worst
        guard let (judgement, expected, actual, expectedFile) = judged else { return (result, nil) }
        let comparison = judgement.comparison
        result.gate = judgement.gate
        var goldenImage: ComparedImage?
        if let goldens {
            let regression = Self.regression(actual.image, distance: comparison.value("visible.mean"), goldens: goldens.goldens[pair.id] ?? [])
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
        if result.verdict == .fail {
            let d = comparison.diagnosis
            result.diagnosis = .init(bugClass: d.bugClass, name: d.name, confidence: d.confidence, summary: d.summary)
            if invarianceFailed && d.bugClass == nil {
                // Hidden colour reaching visible pixels is what resampling straight colour does.
                result.diagnosis = .init(bugClass: "premultiplication", name: "colour hidden under α = 0 reaches visible pixels",
                                         confidence: 1, summary: "premultiplication: the output of the hidden-colour twin differs (hidden.delta \(String(format: "%.3g", worst["hidden.delta"] ?? 0))): colour under α = 0 is resampled into visible pixels, as straight-alpha resampling does (B4)")
            }
        }
        guard keepEvidence else { return (result, nil) }
        let sourceSide = ComparedImage(image: source, name: "source: \(record.file)", container: ContainerFormat(sniffing: sourceFile))
        return (result, PairEvidence(judgement: judgement, expected: expected, actual: actual, expectedFile: expectedFile,
                                     source: sourceSide, sourceFile: sourceFile, golden: goldenImage))
    }

    /// `hidden.delta`: the largest visible or alpha |Δ| (8-bit code units, over every frame)
    /// between `output` and the resizer's output of the case's hidden-colour twin, fed the same
    /// way as the source (the file, or its upright pixels when the resizer does not orient).
    private func hiddenDelta(twin: String, scale: Int, operation: LabOperation, resizer: any Resizer, declared: DeclaredJudgement,
                             output: Image) throws -> Double {
        var twinImage: Image
        do { twinImage = try ImageCodecs.decode(try read(twin)) } catch { throw DeclaredJudgementError(reason: "cannot decode the twin \(twin): \(error)") }
        if scale != 1 { twinImage.metadata.scale = Double(scale) }
        let fedFile = declared.inputFile != nil
        let twinOutput: Image
        do {
            twinOutput = try resizer.apply(operation, to: fedFile ? twinImage : twinImage.oriented(),
                                           file: fedFile ? corpus.appendingPathComponent(twin).path : nil)
        } catch { throw DeclaredJudgementError(reason: "resizer \(resizer.name) on the twin \(twin): \(error)") }
        guard twinOutput.frameCount == output.frameCount, twinOutput.displaySize == output.displaySize else { return .infinity }
        var delta = 0.0
        for k in 0..<output.frameCount {
            func frame(_ image: Image) -> ComparedImage {
                ComparedImage(image: Image(bitmap: image.animation.map { $0.frames[k].canvas } ?? image.bitmap, orientation: image.orientation,
                                           metadata: image.metadata), name: "")
            }
            let c = Comparison(expected: frame(output), actual: frame(twinOutput), options: ComparisonOptions(diagnose: false, structural: false))
            delta = max(delta, c.value("visible.max") ?? .infinity, c.value("alpha.max") ?? .infinity)
        }
        return delta
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

    /// The judged frame against the pair's goldens.
    struct Regression: Sendable, Hashable {
        /// The verdict when the gate passed: `pass` (no golden, or equal to one),
        /// `changed-closer`, `changed-further`, or `error` (cannot be compared).
        var verdict: PairResult.Verdict?
        /// In words, for ``PairResult/golden``.
        var text: String
        /// The golden it equals, else the one nearest to the oracle.
        var golden: GoldenStore.Golden?
    }

    /// Classifies the judged frame against the pair's goldens. An equal pixel hash is a match
    /// (`pass`). Otherwise the output changed: it is `changed-further` when its `visible.mean`
    /// distance to the oracle (8-bit code values) is larger than every accepted golden's (a
    /// regression), else `changed-closer` (as close as, or closer than, some golden: bless it).
    /// No goldens: `pass`, "no golden". A hash or distance that cannot be had: `error`.
    static func regression(_ image: Image, distance: Double?, goldens: [GoldenStore.Golden]) -> Regression {
        guard !goldens.isEmpty else { return Regression(verdict: .pass, text: "no golden", golden: nil) }
        guard let hash = try? GoldenStore.pixelHash(image) else {
            return Regression(verdict: .error, text: "changed (the output cannot be hashed)", golden: nil)
        }
        if let g = goldens.first(where: { $0.hash == hash }) { return Regression(verdict: .pass, text: "matches golden \(g.hash)", golden: g) }
        let measured = goldens.compactMap { g in g.oracleDistance["visible.mean"].map { (golden: g, distance: $0) } }
        guard measured.count == goldens.count, let best = measured.min(by: { $0.distance < $1.distance }),
              let worst = measured.max(by: { $0.distance < $1.distance }), let distance else {
            return Regression(verdict: .error, text: "changed (no oracle distance to compare with the goldens)", golden: nil)
        }
        if distance > worst.distance {
            let numbers = String(format: "visible.mean %.4g vs %.4g of the furthest accepted golden", distance, worst.distance)
            return Regression(verdict: .changedFurther, text: "changed, further from the oracle than every golden (\(numbers))", golden: best.golden)
        }
        let numbers = String(format: "visible.mean %.4g vs the best golden's %.4g", distance, best.distance)
        return Regression(verdict: .changedCloser, text: "changed, closer to the oracle (\(numbers)); accept it with 'imglab bless'", golden: best.golden)
    }

    private func read(_ path: String) throws -> [UInt8] {
        let url = corpus.appendingPathComponent(path)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: url.path])
        }
        return [UInt8](data)
    }
}
