import Foundation

/// Applies every candidate of ``CandidateCatalog`` to the expected image and scores it against
/// the actual one (see ``Diagnosis`` for the definitions).
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
enum Diagnoser {
    /// Largest number of sampled pixels of each kind (differing, unchanged).
    static let sampleBudget = 1 << 15
    static let minimumExplained = 0.5
    static let minimumConfidence = 0.5
    static let separationScale = 0.25

    /// A sampled pixel and its weight.
    struct Sample: Sendable { var x: Int, y: Int, weight: Double }

    /// Diagnoses `actual` against `expected`. `counterfactuals` (the lab's predictions under bug
    /// hypotheses, see ``Counterfactual``) join the catalogue's candidates, after them.
    static func diagnose(expected: ValueImage, actual: ValueImage, context: DiagnosisContext,
                         counterfactuals: [Counterfactual] = []) -> Diagnosis {
        let sameSize = expected.width == actual.width && expected.height == actual.height
        let view = ExpectedView(expected)
        let opaqueOnly = !context.expectedHasAlpha && !context.actualHasAlpha
        let withAlpha = expected.channels == 4
        let controls = counterfactuals.compactMap { $0.controlCandidate(withAlpha: withAlpha) }
        let offered = CandidateCatalog.all + counterfactuals.map { $0.candidate(withAlpha: withAlpha) } + controls
        let candidates = offered.filter { c in
            let s = c.size(expected.width, expected.height)
            return s.width == actual.width && s.height == actual.height && c.applies(context)
        }
        if candidates.isEmpty {
            return .none(sameSize ? "no candidate applies" :
                "the sizes differ (\(expected.width)×\(expected.height) vs \(actual.width)×\(actual.height)) and no orientation or 2×/½× scale maps one onto the other")
        }
        let samples = sameSize ? differenceSamples(expected, actual) : gridSamples(actual)
        guard !samples.isEmpty else { return .none("identical: nothing to explain") }

        // Visible vectors (flat, `dim` values per sample) of the actual image and the baseline.
        let dim = opaqueOnly ? 3 : 6
        @Sendable func visible(_ p: SIMD4<Double>, into out: inout [Double], at o: Int) {
            let a = p.w
            out[o] = p.x * a * 255; out[o + 1] = p.y * a * 255; out[o + 2] = p.z * a * 255
            if dim == 6 {
                out[o + 3] = (p.x * a + 1 - a) * 255; out[o + 4] = (p.y * a + 1 - a) * 255; out[o + 5] = (p.z * a + 1 - a) * 255
            }
        }
        let count = samples.count
        let actualView = ExpectedView(actual)
        var actualVectors = [Double](repeating: 0, count: count * dim)
        var baselineVectors = [Double](repeating: 0, count: count * dim)
        for (i, s) in samples.enumerated() {
            visible(actualView.pixel(s.x, s.y), into: &actualVectors, at: i * dim)
            if sameSize { visible(view.pixel(s.x, s.y), into: &baselineVectors, at: i * dim) }
        }
        var baseline = 0.0
        if sameSize {
            for (i, s) in samples.enumerated() {
                var d2 = 0.0
                for k in 0..<dim { let d = actualVectors[i * dim + k] - baselineVectors[i * dim + k]; d2 += d * d }
                baseline += s.weight * d2
            }
        } else {
            var mean = [Double](repeating: 0, count: dim)
            var total = 0.0
            for (i, s) in samples.enumerated() {
                total += s.weight
                for k in 0..<dim { mean[k] += s.weight * actualVectors[i * dim + k] }
            }
            for k in 0..<dim { mean[k] /= max(total, 1) }
            for (i, s) in samples.enumerated() {
                var d2 = 0.0
                for k in 0..<dim { let d = actualVectors[i * dim + k] - mean[k]; d2 += d * d }
                baseline += s.weight * d2
            }
        }
        guard baseline > 0 else { return .none("identical: nothing to explain", sampled: samples.count) }
        let baselineSum = baseline, baselineVisible = baselineVectors, actualVisible = actualVectors

        let dropAlpha = !context.actualHasAlpha
        let scores = Parallel.map(candidates.count) { ci -> Diagnosis.CandidateScore in
            let c = candidates[ci]
            var predictions = [Double](repeating: 0, count: count * dim)
            for (i, s) in samples.enumerated() {
                var p = c.predict(view, s.x, s.y)
                if dropAlpha && c.followsActualStorage { p.w = 1 }
                visible(p, into: &predictions, at: i * dim)
            }
            var strength = 1.0
            if c.kind == .fitted && sameSize {
                // λ = <r, t> / <t, t> with r = actual − expected, t = T(expected) − expected.
                var rt = 0.0, tt = 0.0
                for (i, s) in samples.enumerated() {
                    for k in (i * dim)..<(i * dim + dim) {
                        let t = predictions[k] - baselineVisible[k], r = actualVisible[k] - baselineVisible[k]
                        rt += s.weight * r * t; tt += s.weight * t * t
                    }
                }
                strength = tt > 0 ? max(0, rt / tt) : 0
                for k in 0..<predictions.count {
                    predictions[k] = baselineVisible[k] + strength * (predictions[k] - baselineVisible[k])
                }
            }
            var residual = 0.0
            var changes = !sameSize
            for (i, s) in samples.enumerated() {
                var d2 = 0.0
                for k in (i * dim)..<(i * dim + dim) {
                    let d = actualVisible[k] - predictions[k]; d2 += d * d
                    if !changes && predictions[k] != baselineVisible[k] { changes = true }
                }
                residual += s.weight * d2
            }
            // A candidate that predicts no change explains nothing.
            let explained = changes ? 1 - residual / baselineSum : 0
            return Diagnosis.CandidateScore(id: c.id, bugClass: c.bugClass, name: c.name, explained: explained, strength: strength)
        }
        // Controls are not candidates: they only remove the counterfactuals that do not
        // separate from them (see ``Counterfactual``).
        let controlIDs = Set(controls.map(\.id))
        let controlScores = Dictionary(scores.filter { controlIDs.contains($0.id) }.map { ($0.id, $0.explained) }, uniquingKeysWith: { a, _ in a })
        let admitted = scores.filter { s in
            guard !controlIDs.contains(s.id) else { return false }
            guard let c = controlScores[Counterfactual.controlID(of: s.id)] else { return true }
            return max(0, s.explained) * separation(s.explained, from: c) >= minimumConfidence
        }
        let ranked = admitted.enumerated().sorted { a, b in
            a.element.explained != b.element.explained ? a.element.explained > b.element.explained : a.offset < b.offset
        }.map(\.element)
        let top = Array(ranked.prefix(5))
        guard let best = ranked.first else { return .none("no candidate applies", sampled: samples.count) }
        // The rival is the best candidate of another class: two candidates of one class that
        // explain a difference equally (R↔B swap vs a rotation of the channels on a two-colour
        // image, alpha dropped over black vs hidden colour where the hidden colour is black)
        // agree on the bug class, which is what the diagnosis names.
        let rival = ranked.dropFirst().first { $0.bugClass != best.bugClass }
        let runnerUp = rival?.explained ?? 0
        // Separation: the margin over the rival, absolute (÷ 0.25) or relative to what the
        // rival leaves unexplained, whichever is larger — a candidate that leaves a third of
        // the rival's residual or less is told apart even when both explain most of it.
        let confidence = max(0, best.explained) * separation(best.explained, from: runnerUp)
        let percent = String(format: "%.0f%%", max(0, best.explained) * 100)
        if best.explained >= minimumExplained && confidence >= minimumConfidence,
           let c = candidates.first(where: { $0.id == best.id }) {
            let strengthNote = c.kind == .fitted ? String(format: " (fitted strength %.2f)", best.strength) : ""
            return Diagnosis(bugClass: best.bugClass, candidate: best.id, name: best.name, references: c.references,
                             confidence: confidence, explained: best.explained,
                             summary: "\(best.name): explains \(percent) of the difference\(strengthNote)",
                             ranking: top, sampledPixels: samples.count)
        }
        // sRGB averaging of detail finer than a pixel leaves flat areas whose tone is off by
        // exactly the transfer curve (188 → 128); no edge is left to predict it from. Only
        // when no candidate predicts half of the difference.
        if sameSize, best.explained < minimumExplained, let c = candidates.first(where: { $0.id == CandidateCatalog.lightSpace.id }),
           FineDetailToneSignature.mayName(expected: expected, actual: actual) {
            let signature = FineDetailToneSignature(expected: expected, actual: actual)
            if signature.names {
                let pixelwise = scores.first { $0.id == c.id }?.explained ?? 0
                return Diagnosis(bugClass: c.bugClass, candidate: c.id, name: c.name, references: c.references,
                                 confidence: min(1, signature.explained * signature.share / FineDetailToneSignature.minimumShare),
                                 explained: pixelwise,
                                 summary: "\(c.name): flat areas encoded e where linear light gives e' = toLinear(e) — detail finer than a pixel averaged in sRGB (\(signature.pixels) flat pixels carry \(String(format: "%.0f%%", signature.share * 100)) of the difference, the tone curve explains \(String(format: "%.0f%%", signature.explained * 100)) of it there)",
                                 ranking: top, sampledPixels: samples.count)
            }
        }
        // Point sampling's aliased detail is not predictable pixel by pixel; its edges are. Only
        // when no candidate predicts half of the difference (an ambiguous pair stays ambiguous).
        if sameSize, best.explained < minimumExplained, let c = candidates.first(where: { $0.id == CandidateCatalog.nearestNeighbour.id }) {
            let signature = AliasingSignature(expected: expected, actual: actual)
            if signature.names {
                let pixelwise = scores.first { $0.id == c.id }?.explained ?? 0
                let lost = String(format: "%.0f%%", signature.lostMixing * 100)
                return Diagnosis(bugClass: c.bugClass, candidate: c.id, name: c.name, references: c.references,
                                 confidence: min(1, signature.lostMixing), explained: pixelwise,
                                 summary: "\(c.name): hard steps where the expected image has mixed edge pixels (\(lost) of their mixing lost; the aliased detail itself is not predictable, pixel-wise the candidate explains \(String(format: "%.0f%%", max(0, pixelwise) * 100)))",
                                 ranking: top, sampledPixels: samples.count)
            }
        }
        let why = best.explained < minimumExplained
            ? "no candidate explains half of the difference (best: \(best.id), \(percent)); it looks like noise, lossy re-encoding or a change of content"
            : "ambiguous: \(best.id) explains \(percent) but \(rival?.id ?? "another candidate") explains \(String(format: "%.0f%%", max(0, runnerUp) * 100))"
        return .none("no diagnosis: " + why, ranking: top, sampled: samples.count)
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

    /// Differing and unchanged pixels, each at a stride keeping at most ``sampleBudget``.
    /// Both passes run in fixed row bands on every core; the second starts each band with the
    /// counts of the bands before it, so the samples are those of one pass in pixel order.
    static func differenceSamples(_ e: ValueImage, _ a: ValueImage) -> [Sample] {
        let n = e.channels, w = e.width, h = e.height
        let bands = Parallel.bands(rows: h, rowsPerBand: max(64, h / 16))
        @Sendable func differs(_ es: UnsafeBufferPointer<UInt16>, _ as_: UnsafeBufferPointer<UInt16>, _ p: Int) -> Bool {
            for c in 0..<n where es[p * n + c] != as_[p * n + c] { return true }
            return false
        }
        let bandDiffering = Parallel.map(bands.count) { b -> Int in
            var count = 0
            e.samples.withUnsafeBufferPointer { es in
                a.samples.withUnsafeBufferPointer { as_ in
                    for p in (bands[b].lowerBound * w)..<(bands[b].upperBound * w) where differs(es, as_, p) { count += 1 }
                }
            }
            return count
        }
        let differing = bandDiffering.reduce(0, +)
        let unchanged = w * h - differing
        guard differing > 0 else { return [] }
        let strideD = max(1, (differing + sampleBudget - 1) / sampleBudget)
        let strideU = max(1, (unchanged + sampleBudget - 1) / sampleBudget)
        var firstD: [Int] = [], seen = 0
        for count in bandDiffering { firstD.append(seen); seen += count }
        let starts = firstD
        let parts = Parallel.map(bands.count) { b -> [Sample] in
            var out: [Sample] = []
            let first = bands[b].lowerBound * w
            var seenD = starts[b], seenU = first - starts[b]
            e.samples.withUnsafeBufferPointer { es in
                a.samples.withUnsafeBufferPointer { as_ in
                    for p in first..<(bands[b].upperBound * w) {
                        if differs(es, as_, p) {
                            if seenD % strideD == 0 { out.append(Sample(x: p % w, y: p / w, weight: Double(strideD))) }
                            seenD += 1
                        } else {
                            if seenU % strideU == 0 { out.append(Sample(x: p % w, y: p / w, weight: Double(strideU))) }
                            seenU += 1
                        }
                    }
                }
            }
            return out
        }
        var out: [Sample] = []
        out.reserveCapacity(min(differing, sampleBudget) + min(unchanged, sampleBudget))
        for part in parts { out += part }
        return out
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
