import Foundation

/// Applies every candidate of ``CandidateCatalog`` and the ``AlphaEdgeHalo`` to the expected
/// image and scores it against the actual one (see ``Diagnosis`` for the definitions); only the
/// candidates that can apply to the two files, and to the source when the caller knows it
/// (``DiagnosisContext``), are offered.
///
/// On large images the sums are estimated on a deterministic sample: pixels that differ and
/// pixels that do not are each taken at a regular stride (at most ``sampleBudget`` of each)
/// and weighted by their stride, so both the difference and the pixels a candidate must leave
/// alone are represented. The sample depends only on the images.
///
/// When no candidate explains half of the difference and the sizes are equal, sRGB averaging of
/// sub-pixel detail is tested once more by its ``FineDetailToneSignature`` (flat areas off by
/// the transfer curve), then nearest-neighbour sampling by its ``AliasingSignature`` (edges
/// without mixed pixels); neither needs a prediction.
///
/// Speed (not behaviour): one ``DifferenceScan`` of the two images draws the sample and sums
/// the tone signature's screen; the expected image's 3×3 neighbourhoods of the samples are
/// gathered once (``SampleNeighbourhoods``) for the candidates that read only there; exact
/// candidates stop being scored once they provably cannot change the result
/// (``CandidateScoring``).
enum Diagnoser {
    /// Largest number of sampled pixels of each kind (differing, unchanged).
    static let sampleBudget = 1 << 15
    static let minimumExplained = 0.5
    static let minimumConfidence = 0.5
    static let separationScale = 0.25
    /// Largest residual (RMS per visible value over the changed pixels, 8-bit code values) that
    /// counts as rounding: a candidate that leaves no more than this need not separate from the
    /// content-free prediction.
    static let roundingResidual = 1.0

    /// A sampled pixel and its weight.
    struct Sample: Sendable { var x: Int, y: Int, weight: Double }

    /// Diagnoses `actual` against `expected`. `counterfactuals` (the lab's predictions under bug
    /// hypotheses, see ``Counterfactual``) join the catalogue's candidates, after them.
    static func diagnose(expected: ValueImage, actual: ValueImage, context: DiagnosisContext,
                         counterfactuals: [Counterfactual] = []) -> Diagnosis {
        let sameSize = expected.width == actual.width && expected.height == actual.height
        let opaqueOnly = !context.expectedHasAlpha && !context.actualHasAlpha
        let withAlpha = expected.channels == 4
        let controls = counterfactuals.compactMap { $0.controlCandidate(withAlpha: withAlpha) }
        let catalogue = CandidateCatalog.all + [AlphaEdgeHalo.candidate(expected: expected, actual: actual)].compactMap { $0 }
        let offered = catalogue + counterfactuals.map { $0.candidate(withAlpha: withAlpha) } + controls
        let fits = { (c: Candidate) -> Bool in
            let s = c.size(expected.width, expected.height)
            return s.width == actual.width && s.height == actual.height && c.applies(context)
        }
        let candidates = offered.filter(fits)
        // The catalogue's candidates come first.
        let catalogueCount = catalogue.filter(fits).count
        if candidates.isEmpty {
            return .none(sameSize ? "no candidate applies" :
                "the sizes differ (\(expected.width)×\(expected.height) vs \(actual.width)×\(actual.height)) and no orientation, 2×/½× scale or row or column lost or added maps one onto the other")
        }
        let scan = sameSize ? DifferenceScan(expected: expected, actual: actual) : nil
        let samples = scan?.samples() ?? gridSamples(actual)
        guard !samples.isEmpty else { return .none("identical: nothing to explain") }

        // Visible vectors (`dim` values per sample) of the actual image and the baseline.
        let scoring = CandidateScoring(expected: expected, actual: actual, samples: samples, dim: opaqueOnly ? 3 : 6,
                                       dropAlpha: !context.actualHasAlpha)
        guard scoring.baseline > 0 else { return .none("identical: nothing to explain", sampled: samples.count) }

        // Fitted candidates, counterfactuals and controls are scored in full; the exact
        // catalogue candidates only as far as they can matter (``CandidateScoring``).
        let bounded = candidates.indices.filter { candidates[$0].kind == .exact && $0 < catalogueCount }
        let unbounded = candidates.indices.filter { !(candidates[$0].kind == .exact && $0 < catalogueCount) }
        let full = Parallel.map(unbounded.count) { j in scoring.score(candidates[unbounded[j]]) }
        var scores = [Diagnosis.CandidateScore?](repeating: nil, count: candidates.count)
        for (j, i) in unbounded.enumerated() { scores[i] = full[j] }
        // Controls are not candidates: they only remove the counterfactuals that do not
        // separate from them (see ``Counterfactual``).
        let controlIDs = Set(controls.map(\.id))
        let controlScores = Dictionary(full.filter { controlIDs.contains($0.id) }.map { ($0.id, $0.explained) }, uniquingKeysWith: { a, _ in a })
        func isAdmitted(_ s: Diagnosis.CandidateScore) -> Bool {
            guard !controlIDs.contains(s.id) else { return false }
            guard let c = controlScores[Counterfactual.controlID(of: s.id)] else { return true }
            return max(0, s.explained) * separation(s.explained, from: c) >= minimumConfidence
        }
        let cutScores = scoring.scoresThatMatter(bounded.map { candidates[$0] }, besides: full.filter(isAdmitted))
        for (j, i) in bounded.enumerated() { scores[i] = cutScores[j] }
        // Candidates whose scoring stopped cannot be in the ranking's first five, the best or
        // the rival (``CandidateScoring``): they leave the ranking.
        let admitted = scores.compactMap { $0 }.filter(isAdmitted)
        var ranked = admitted.enumerated().sorted { a, b in
            a.element.explained != b.element.explained ? a.element.explained > b.element.explained : a.offset < b.offset
        }.map(\.element)
        // A candidate fitted pixel by pixel (the halo) yields to the best candidate of its class
        // among the five best (always scored in full, ``CandidateScoring``) when it leaves at
        // least half of that one's residual: the other states the transform exactly, while a
        // per-pixel fit also absorbs some of the rounding and noise.
        if let first = ranked.first, candidates.first(where: { $0.id == first.id })?.fitsEachPixel == true,
           let j = ranked.indices.dropFirst().prefix(4).first(where: { ranked[$0].bugClass == first.bugClass }),
           1 - first.explained >= 0.5 * (1 - ranked[j].explained) {
            ranked.insert(ranked.remove(at: j), at: 0)
        }
        // A profile mistake is built from the two files' own tags, evidence the catalogue lacks:
        // where it explains as much as the best (within a point), it is named, and a catalogued
        // candidate predicting the same pixels (a stripped profile that swaps red and green is
        // also a channel swap) is not its rival.
        let fromTags = ranked.firstIndex { $0.id.hasPrefix(ColourStage.mistakePrefix) }
            .flatMap { j in ranked[j].explained >= (ranked.first?.explained ?? 0) - 0.01 ? j : nil }
        if let fromTags { ranked.insert(ranked.remove(at: fromTags), at: 0) }
        guard let best = ranked.first else { return .none("no candidate applies", sampled: samples.count) }
        // The rival is the best candidate of another class: two candidates of one class that
        // explain a difference equally (R↔B swap vs a rotation of the channels on a two-colour
        // image, alpha dropped over black vs hidden colour where the hidden colour is black)
        // agree on the bug class, which is what the diagnosis names.
        let rival = ranked.dropFirst().first {
            $0.bugClass != best.bugClass && !(fromTags != nil && best.explained - $0.explained <= 0.01)
        }
        let runnerUp = rival?.explained ?? 0
        // Separation: the margin over the rival, absolute (÷ 0.25) or relative to what the
        // rival leaves unexplained, whichever is larger — a candidate that leaves a third of
        // the rival's residual or less is told apart even when both explain most of it.
        let confidence = max(0, best.explained) * separation(best.explained, from: runnerUp)
        // A candidate must explain more than the content-free prediction (the actual image's
        // mean colour everywhere), unless it leaves only rounding: a bug that erased the content
        // (a near-black or near-white actual) is matched by any candidate that darkens or
        // brightens, and naming one that does worse than "everything is one colour" is a guess.
        let residual = scoring.residualRMS(explained: best.explained)
        let uniform = residual <= roundingResidual ? -Double.infinity : scoring.uniformExplained
        let percent = String(format: "%.0f%%", max(0, best.explained) * 100)
        // The fitted families must beat the catalogue by 10 points, or leave a quarter of its
        // residual: neither can when it explains 90 % or more and leaves only rounding, so a pair
        // a catalogued bug explains does not pay for the fits.
        let fitted = sameSize && (best.explained <= 0.9 || residual > roundingResidual)
            ? FittedFamilies(expected: expected, actual: actual, samples: samples, scoring: scoring) : FittedFamilies()
        // Every score, for the ranking and the runner-up: the catalogue's beside the fitted ones.
        let everything = ranked + fitted.colourScores + fitted.geometryScores
        func rivalOf(_ named: Diagnosis.CandidateScore) -> Diagnosis.CandidateScore? {
            everything.filter { $0.bugClass != named.bugClass && $0.id != named.id }.max { $0.explained < $1.explained }
        }
        // A global colour transform must explain 90 %: a transform of every value is then the
        // better account than a bug that happens to move values the same way (a transfer curve is
        // not "2-bit samples widened by a shift"), while a catalogued bug that explains the pair
        // stays named (a channel swap is also a 3×3 matrix). Content revealed at an edge by a
        // shift is not predictable, so geometry needs only half.
        for (family, minimum) in [(fitted.colourScores, 0.9), (fitted.geometryScores, minimumExplained)] {
            if var named = fittedDiagnosis(family, fitted.candidates, minimum: minimum, scoring: scoring, catalogueBest: best,
                                           rival: family.first.flatMap(rivalOf)) {
                named.ranking = Diagnosis.listed(everything, named: family.first)
                named.sampledPixels = samples.count
                named.noteRunnerUp(family.first.flatMap(rivalOf))
                return named
            }
        }
        // The nearest-neighbour candidate's direction, E + λ·(E − blur E), is that of any
        // sharpening; point sampling is told from a sharper filter or an unsharp mask by its hard
        // steps, while those keep the expected image's mixed edge pixels.
        let sharpened: AliasingSignature? = {
            guard sameSize, best.id == CandidateCatalog.nearestNeighbour.id, best.explained >= minimumExplained else { return nil }
            let signature = AliasingSignature(expected: expected, actual: actual)
            return signature.edgeSamples >= AliasingSignature.minimumEdgeSamples && signature.lostMixing < AliasingSignature.sharpenedBelow
                ? signature : nil
        }()
        if best.explained >= minimumExplained && confidence >= minimumConfidence && best.explained > uniform, sharpened == nil,
           let c = candidates.first(where: { $0.id == best.id }) {
            let strengthNote = best.strength.map { String(format: " (fitted strength %.2f)", $0) } ?? ""
            var named = Diagnosis(bugClass: best.bugClass, candidate: best.id, name: best.name, references: c.references,
                                  confidence: confidence, explained: best.explained,
                                  summary: "\(best.name): explains \(percent) of the difference\(strengthNote)",
                                  ranking: Diagnosis.listed(everything, named: best), sampledPixels: samples.count)
            named.parameters = c.parameters.isEmpty ? nil : c.parameters
            named.noteRunnerUp(rivalOf(best))
            return named
        }
        func pixelwise(_ c: Candidate) -> Diagnosis.CandidateScore {
            scores.lazy.compactMap { $0 }.first { $0.id == c.id }
                ?? Diagnosis.CandidateScore(id: c.id, bugClass: c.bugClass, name: c.name, explained: 0, strength: nil)
        }
        // sRGB averaging of detail finer than a pixel leaves flat areas whose tone is off by
        // exactly the transfer curve (188 → 128); no edge is left to predict it from. Only
        // when no candidate predicts half of the difference.
        if sameSize, best.explained < minimumExplained, let c = candidates.first(where: { $0.id == CandidateCatalog.lightSpace.id }),
           scan?.fineDetailToneMayName == true {
            let signature = FineDetailToneSignature(expected: expected, actual: actual)
            if signature.names {
                let score = pixelwise(c)
                return Diagnosis(bugClass: c.bugClass, candidate: c.id, name: c.name, references: c.references,
                                 confidence: min(1, signature.explained * signature.share / FineDetailToneSignature.minimumShare),
                                 explained: score.explained,
                                 summary: "\(c.name): flat areas encoded e where linear light gives e' = toLinear(e) — detail finer than a pixel averaged in sRGB (\(signature.pixels) flat pixels carry \(String(format: "%.0f%%", signature.share * 100)) of the difference, the tone curve explains \(String(format: "%.0f%%", signature.explained * 100)) of it there)",
                                 ranking: Diagnosis.listed(everything, named: score), sampledPixels: samples.count)
            }
        }
        // Point sampling's aliased detail is not predictable pixel by pixel; its edges are. Only
        // when no candidate predicts half of the difference (an ambiguous pair stays ambiguous).
        if sameSize, best.explained < minimumExplained, let c = candidates.first(where: { $0.id == CandidateCatalog.nearestNeighbour.id }) {
            let signature = AliasingSignature(expected: expected, actual: actual)
            if signature.names {
                let score = pixelwise(c)
                let lost = String(format: "%.0f%%", signature.lostMixing * 100)
                return Diagnosis(bugClass: c.bugClass, candidate: c.id, name: c.name, references: c.references,
                                 confidence: min(1, signature.lostMixing), explained: score.explained,
                                 summary: "\(c.name): hard steps where the expected image has mixed edge pixels (\(lost) of their mixing lost; the aliased detail itself is not predictable, pixel-wise the candidate explains \(String(format: "%.0f%%", max(0, score.explained) * 100)))",
                                 ranking: Diagnosis.listed(everything, named: score), sampledPixels: samples.count)
            }
        }
        // A geometry whose revealed edges hold most of the difference (a flat picture shifted)
        // is read where the moved picture covers the frame. Only when nothing above named the pair.
        if sameSize, best.explained < minimumExplained, fitted.geometryScores.first.map({ $0.explained < minimumExplained }) == true {
            let read = fitted.candidates.filter { c in fitted.geometryScores.contains { $0.id == c.id } }.compactMap { c in
                CoveredGeometryReading(candidate: c, expected: expected, actual: actual, samples: samples).map { (c, $0) }
            }
            if let (c, reading) = read.filter({ $0.1.names }).max(by: { $0.1.explained < $1.1.explained }),
               let score = fitted.geometryScores.first(where: { $0.id == c.id }) {
                func percent(_ v: Double) -> String { String(format: "%.0f%%", max(0, v) * 100) }
                var named = Diagnosis(bugClass: c.bugClass, candidate: c.id, name: c.name, references: [],
                                      confidence: min(1, reading.explained), explained: score.explained,
                                      summary: "\(c.name): explains \(percent(reading.explained)) of the difference where the moved picture covers the frame (\(percent(reading.coverage)) of it); the band it reveals at the edges, which the expected image does not hold, carries \(percent(1 - reading.interiorShare)) of the difference (over the whole frame the geometry explains \(percent(score.explained)))",
                                      ranking: Diagnosis.listed(everything, named: score), sampledPixels: samples.count)
                named.parameters = c.parameters.isEmpty ? nil : c.parameters
                return named
            }
        }
        // A geometry whose fine detail differs beyond prediction (two samplings of one picture)
        // is read in the coarse band. Only when nothing above named the pair.
        if sameSize, best.explained < minimumExplained, fitted.geometryScores.first.map({ $0.explained < minimumExplained }) == true {
            let read = GeometryFit.coarseCandidates(expected: expected, actual: actual).compactMap { c -> (Diagnosis.CandidateScore, Candidate, CoarseGeometrySignature)? in
                guard CoarseGeometrySignature.largestMove(c.parameters, width: expected.width, height: expected.height) >= CoarseGeometrySignature.minimumMove
                else { return nil }
                return (scoring.score(c), c, CoarseGeometrySignature(expected: expected, actual: actual, candidate: c))
            }
            if let (score, c, signature) = read.filter({ $0.2.names }).max(by: { $0.2.explained < $1.2.explained }) {
                let coarse = String(format: "%.0f%%", signature.explained * 100), share = String(format: "%.0f%%", signature.coarseShare * 100)
                let block = CoarseGeometrySignature.block
                var named = Diagnosis(bugClass: c.bugClass, candidate: c.id, name: c.name, references: [],
                                      confidence: min(1, signature.explained), explained: score.explained,
                                      summary: "\(c.name): explains \(coarse) of the coarse difference (means of \(block)×\(block) pixels, \(share) of the difference); the fine detail differs beyond prediction, as two samplings of one picture at other positions do (pixel-wise the geometry explains \(String(format: "%.0f%%", max(0, score.explained) * 100)))",
                                      ranking: Diagnosis.listed(everything, named: score), sampledPixels: samples.count)
                named.parameters = c.parameters.isEmpty ? nil : c.parameters
                return named
            }
        }
        let overall = everything.max { $0.explained < $1.explained } ?? best
        let families = fitted.ran ? "no known bug, global colour transform or geometric change" : "no known bug"
        let why: String
        if let sharpened, overall.id == best.id {
            why = "detail at higher contrast than expected, as a sharper filter or an unsharp mask gives (\(best.id)'s direction explains \(percent)); the edges keep the expected image's mixed pixels (\(String(format: "%.0f%%", max(0, sharpened.lostMixing) * 100)) of their mixing lost), so it is not nearest-neighbour sampling"
        } else if overall.explained < Diagnosis.listedShare {
            why = "\(families) explains a tenth of the difference (the best, \(overall.id), explains \(String(format: "%.0f%%", max(0, overall.explained) * 100)))" + Diagnosis.unexplainedGuess
        } else if overall.explained < minimumExplained {
            why = "no candidate explains half of the difference (best: \(overall.id) (\(overall.bugClass)), \(String(format: "%.0f%%", overall.explained * 100)))" + Diagnosis.unexplainedGuess
        } else if overall.id != best.id {
            // A fitted candidate explains half or more, yet was not named: not 10 points over the
            // catalogue's best, or not told apart from another class.
            let other = rivalOf(overall) ?? best
            why = "ambiguous: \(overall.id) explains \(String(format: "%.0f%%", overall.explained * 100)) but \(other.id) explains \(String(format: "%.0f%%", max(0, other.explained) * 100))"
        } else if best.explained <= uniform {
            let lost = String(format: "%.0f%%", max(0, uniform) * 100), left = String(format: "%.1f", residual)
            why = "the actual image's own mean colour explains \(lost), at least as much as the best candidate (\(best.id), \(percent), leaving \(left) codes RMS): the content is lost, not transformed by a known bug"
        } else {
            why = "ambiguous: \(best.id) explains \(percent) but \(rival?.id ?? "another candidate") explains \(String(format: "%.0f%%", max(0, runnerUp) * 100))"
        }
        return .none("no diagnosis: " + why, ranking: Diagnosis.listed(everything), sampled: samples.count)
    }

    /// The global colour transforms (``GlobalColourFit``) and geometric changes
    /// (``GeometryFit``) fitted to a pair of equal sizes, scored like the catalogue's candidates.
    struct FittedFamilies {
        /// Whether they were fitted (not when a catalogue candidate explains 90 %).
        var ran = false
        var candidates: [Candidate] = []
        /// Best first.
        var colourScores: [Diagnosis.CandidateScore] = [], geometryScores: [Diagnosis.CandidateScore] = []

        init() {}

        init(expected: ValueImage, actual: ValueImage, samples: [Sample], scoring: CandidateScoring) {
            let colour = GlobalColourFit.candidates(expected: expected, actual: actual, samples: samples)
            let moved = GeometryFit.candidates(expected: expected, actual: actual)
            ran = true
            candidates = colour + moved
            colourScores = GlobalColourFit.simplest(colour.map(scoring.score)).sorted { $0.explained > $1.explained }
            geometryScores = moved.map(scoring.score).sorted { $0.explained > $1.explained }
        }
    }

    /// Largest share of the best catalogue candidate's residual a fitted candidate may leave to
    /// be named over it when it does not beat it by 10 points.
    static let fittedResidualShare = 0.25

    /// The diagnosis naming the best of `scores` (fitted `candidates`, best first) when it
    /// explains at least `minimum` and 10 points more than the best catalogue candidate (or
    /// leaves at most ``fittedResidualShare`` of its residual), and is
    /// told apart from `rival` (the best candidate of another class, fitted or catalogued);
    /// `nil` otherwise. Its ranking is left to the caller.
    static func fittedDiagnosis(_ scores: [Diagnosis.CandidateScore], _ candidates: [Candidate], minimum: Double,
                                scoring: CandidateScoring, catalogueBest: Diagnosis.CandidateScore,
                                rival: Diagnosis.CandidateScore?) -> Diagnosis? {
        // Better than the catalogue by 10 points, or (a transfer curve) by leaving at most a
        // quarter of what it leaves: a curve explaining 99.9 % is the account of a pair that
        // "1-bit samples widened by a shift" explains 97 % of. Not the linear families: they nest
        // the catalogue's gains and shifts, and after a resize's rounding a gain and offset
        // absorbs more of a catalogued bit-depth shift than the shift itself.
        guard let best = scores.first, best.explained >= minimum,
              best.explained >= catalogueBest.explained + 0.1
                || (best.bugClass == GlobalColourFit.transferCurveClass
                    && 1 - best.explained <= fittedResidualShare * (1 - catalogueBest.explained)) else { return nil }
        // As for the catalogue: more than the content-free prediction (the actual's own mean
        // colour everywhere), or the content is lost, not transformed.
        guard scoring.residualRMS(explained: best.explained) <= roundingResidual || best.explained > scoring.uniformExplained else { return nil }
        // Told apart from another class; the catalogue's best of the same class agrees on it.
        let confidence = best.explained * separation(best.explained, from: rival?.explained ?? 0)
        let percent = String(format: "%.0f%%", best.explained * 100)
        guard confidence >= minimumConfidence else { return nil }
        var named = Diagnosis(bugClass: best.bugClass, candidate: best.id, name: best.name, references: [], confidence: confidence,
                              explained: best.explained, summary: "\(best.name): explains \(percent) of the difference",
                              ranking: [], sampledPixels: 0)
        let parameters = candidates.first { $0.id == best.id }?.parameters ?? [:]
        named.parameters = parameters.isEmpty ? nil : parameters
        return named
    }

    /// Separation of a candidate explaining `explained` from a rival explaining `rival`: the
    /// margin, absolute (÷ ``separationScale``) or relative to what the rival leaves
    /// unexplained (× 1.5), whichever is larger, in 0…1.
    static func separation(_ explained: Double, from rival: Double) -> Double {
        let margin = explained - max(rival, 0)
        let rivalResidual = 1 - max(rival, 0)
        let relative = rivalResidual > 0 ? margin / rivalResidual : 0
        return min(1, max(0, max(margin / separationScale, relative * 1.5)))
    }

    /// A regular grid over the actual image (different sizes).
    static func gridSamples(_ a: ValueImage) -> [Sample] {
        let step = max(1, Int((Double(a.width * a.height) / Double(sampleBudget)).squareRoot().rounded(.up)))
        var out: [Sample] = []
        for y in Swift.stride(from: 0, to: a.height, by: step) {
            for x in Swift.stride(from: 0, to: a.width, by: step) {
                out.append(Sample(x: x, y: y, weight: Double(step * step)))
            }
        }
        return out
    }
}
