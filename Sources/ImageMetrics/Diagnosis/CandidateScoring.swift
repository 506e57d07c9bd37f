import Foundation

/// The explained fractions of the candidates on the diagnosis's samples (definitions in
/// ``Diagnosis``): the visible vectors (`dim` = 3 values per sample, straight colour × α in
/// 8-bit units, or 6 with the composite over white as well) of the actual image and of the
/// baseline, the baseline sum, and the scoring of each candidate.
///
/// **Exact candidates whose score cannot matter are not scored to the end.** A candidate's
/// residual Σ wᵢ·Σₖ(actual − prediction)² is summed sample by sample in a fixed order, and every
/// term is ≥ 0, so the running sum after any prefix of the samples is a lower bound of the
/// final sum *as computed* (adding a non-negative number never decreases a sum under
/// round-to-nearest), and `u = 1 − prefix / baseline` is an upper bound of the final explained
/// fraction (division and subtraction are monotone; when the prefix has not changed any value
/// yet, the bound is `max(u, 0)`, as a candidate that changes nothing explains 0). The diagnosis
/// reads a candidate's score only if it is among the five best of the ranking (printed with its
/// explained fraction), or the best (named, or not), or the rival (the best candidate of another
/// class: its explained fraction sets the confidence and the "ambiguous" summary). Let S be the
/// scored candidates that can be ranked (controls and counterfactuals not admitted excluded) and
/// T the largest value such that the members of S explaining ≥ T number at least five and span
/// at least two classes. A candidate with u < T ranks below those five, so it is not among the
/// five best and not the best; whatever the best's class, one of them is of another class and
/// ranks above it, so it is not the rival either. Its scoring stops there and it leaves the
/// ranking; every output is the same as with every candidate scored.
///
/// The fitted candidates (their strength needs every sample first), the lab's counterfactuals
/// and their controls are always scored in full. The exact catalogue candidates are first
/// scored on a prefix of the samples (one sixteenth) in parallel, then finished in order of
/// their bound, best first, on every core, checking the bound against the current T every
/// ``chunk`` samples. Which candidates stop depends on the order the cores finish others, but
/// not the output, as shown above.
struct CandidateScoring: Sendable {
    /// The samples (pixel positions of the actual image, with weights).
    let samples: [Diagnoser.Sample]
    /// Values per sample in the visible vectors (3 or 6).
    let dim: Int
    /// Whether the images have the same size (the baseline is then the expected image).
    let sameSize: Bool
    /// Whether the actual image has no alpha (byte-layout candidates then predict α = 1).
    let dropAlpha: Bool
    /// The expected image.
    let view: ExpectedView
    /// The gathered neighbourhoods (equal sizes only).
    let neighbourhoods: SampleNeighbourhoods?
    /// Visible vectors of the actual image and of the baseline (`dim` values per sample).
    let actualVisible: [Double], baselineVisible: [Double]
    /// Σ wᵢ·|actual − baseline|², the denominator of every explained fraction.
    let baseline: Double
    /// Σ wᵢ over the samples whose visible vectors differ (every sample when the sizes differ):
    /// the pixels a residual is spread over.
    let changedWeight: Double
    /// The explained fraction of the content-free prediction "the actual image's mean visible
    /// vector everywhere" (equal sizes; 0 when the sizes differ, where the baseline is that
    /// prediction's own residual).
    let uniformExplained: Double

    /// Samples between two checks of a candidate's bound.
    static let chunk = 1024

    /// Prepares the scoring of `samples` of `actual` against `expected`.
    init(expected: ValueImage, actual: ValueImage, samples: [Diagnoser.Sample], dim: Int, dropAlpha: Bool) {
        let sameSize = expected.width == actual.width && expected.height == actual.height
        let view = ExpectedView(expected), actualView = ExpectedView(actual)
        let hoods = sameSize ? SampleNeighbourhoods(expected: view, actual: actualView, samples: samples) : nil
        let count = samples.count
        var actualVectors = [Double](repeating: 0, count: count * dim)
        var baselineVectors = [Double](repeating: 0, count: count * dim)
        actualVectors.withUnsafeMutableBufferPointer { av in
            baselineVectors.withUnsafeMutableBufferPointer { bv in
                for (i, s) in samples.enumerated() {
                    if let hoods {
                        Self.visible(hoods.actual[i], dim: dim, into: av, at: i * dim)
                        Self.visible(hoods.expected[4 * count + i], dim: dim, into: bv, at: i * dim)
                    } else {
                        Self.visible(actualView.pixel(s.x, s.y), dim: dim, into: av, at: i * dim)
                    }
                }
            }
        }
        // The actual image's mean visible vector and the residual of predicting it everywhere.
        var mean = [Double](repeating: 0, count: dim)
        var total = 0.0
        for (i, s) in samples.enumerated() {
            total += s.weight
            for k in 0..<dim { mean[k] += s.weight * actualVectors[i * dim + k] }
        }
        for k in 0..<dim { mean[k] /= max(total, 1) }
        var uniform = 0.0
        for (i, s) in samples.enumerated() {
            var d2 = 0.0
            for k in 0..<dim { let d = actualVectors[i * dim + k] - mean[k]; d2 += d * d }
            uniform += s.weight * d2
        }
        var baseline = 0.0, changed = 0.0
        if sameSize {
            for (i, s) in samples.enumerated() {
                var d2 = 0.0
                for k in 0..<dim { let d = actualVectors[i * dim + k] - baselineVectors[i * dim + k]; d2 += d * d }
                baseline += s.weight * d2
                if d2 > 0 { changed += s.weight }
            }
        } else {
            baseline = uniform
            changed = total
        }
        self.samples = samples
        self.dim = dim
        self.sameSize = sameSize
        self.dropAlpha = dropAlpha
        self.view = view
        neighbourhoods = hoods
        actualVisible = actualVectors
        baselineVisible = baselineVectors
        self.baseline = baseline
        changedWeight = changed
        uniformExplained = sameSize && baseline > 0 ? 1 - uniform / baseline : 0
    }

    /// The root mean square of what a candidate explaining `explained` leaves, per visible value
    /// of the changed samples, in 8-bit code values: `√((1 − explained) · baseline / (changed weight · dim))`.
    func residualRMS(explained: Double) -> Double {
        guard changedWeight > 0 else { return 0 }
        return (max(0, 1 - explained) * baseline / (changedWeight * Double(dim))).squareRoot()
    }

    /// The visible vector of straight RGBA `p`: colour × α × 255, then (dim 6) composited
    /// over white × 255, written at `out[o...]`.
    @inline(__always)
    static func visible(_ p: SIMD4<Double>, dim: Int, into out: UnsafeMutableBufferPointer<Double>, at o: Int) {
        let a = p.w
        out[o] = p.x * a * 255; out[o + 1] = p.y * a * 255; out[o + 2] = p.z * a * 255
        if dim == 6 {
            out[o + 3] = (p.x * a + 1 - a) * 255; out[o + 4] = (p.y * a + 1 - a) * 255; out[o + 5] = (p.z * a + 1 - a) * 255
        }
    }

    /// The score of candidate `c` computed on every sample (fitted candidates choose their
    /// strength first).
    func score(_ c: Candidate) -> Diagnosis.CandidateScore {
        guard c.kind == .fitted else {
            var progress = Progress()
            advance(c, &progress, to: samples.count)
            return finished(c, progress)
        }
        let count = samples.count
        var predictions = [Double](repeating: 0, count: count * dim)
        predictions.withUnsafeMutableBufferPointer { out in
            forEachPrediction(c, 0..<count) { i, p in Self.visible(p, dim: dim, into: out, at: i * dim) }
        }
        var strength = 1.0
        if sameSize {
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
        let explained = changes ? 1 - residual / baseline : 0
        return Diagnosis.CandidateScore(id: c.id, bugClass: c.bugClass, name: c.name, explained: explained, strength: strength)
    }

    /// The scores of the exact candidates `candidates` that can matter (nil for the others, see
    /// the type's notes), given `ranked`, the scores already computed in full that can be ranked.
    func scoresThatMatter(_ candidates: [Candidate], besides ranked: [Diagnosis.CandidateScore]) -> [Diagnosis.CandidateScore?] {
        let count = samples.count
        let prefix = min(count, max(Self.chunk, count / 16))
        let started = Parallel.map(candidates.count) { j -> Progress in
            var progress = Progress()
            advance(candidates[j], &progress, to: prefix)
            return progress
        }
        let order = started.indices.sorted { a, b in
            let ua = bound(started[a]), ub = bound(started[b])
            return ua != ub ? ua > ub : a < b
        }
        let board = CutoffBoard(ranked, order: order)
        let workers = Parallel.map(2) { _ -> [(Int, Diagnosis.CandidateScore)] in
            var done: [(Int, Diagnosis.CandidateScore)] = []
            while let j = board.take() {
                let c = candidates[j]
                var progress = started[j]
                var cut = false
                while progress.next < count {
                    if let t = board.cutoff, bound(progress) < t { cut = true; break }
                    advance(c, &progress, to: min(count, progress.next + Self.chunk))
                }
                guard !cut else { continue }
                let score = finished(c, progress)
                board.add(score)
                done.append((j, score))
            }
            return done
        }
        var scores = [Diagnosis.CandidateScore?](repeating: nil, count: candidates.count)
        for (j, score) in workers.joined() { scores[j] = score }
        return scores
    }

    /// A candidate's sums over the samples `0..<next`.
    struct Progress: Sendable {
        var next = 0
        var residual = 0.0
        var changes = false
    }

    /// The upper bound of the explained fraction of a candidate with `progress` (type's notes).
    private func bound(_ progress: Progress) -> Double {
        let u = 1 - progress.residual / baseline
        return progress.changes || !sameSize ? u : max(u, 0)
    }

    /// The score of an exact candidate scored on every sample.
    private func finished(_ c: Candidate, _ progress: Progress) -> Diagnosis.CandidateScore {
        // A candidate that predicts no change explains nothing.
        let explained = progress.changes || !sameSize ? 1 - progress.residual / baseline : 0
        return Diagnosis.CandidateScore(id: c.id, bugClass: c.bugClass, name: c.name, explained: explained, strength: nil)
    }

    /// Adds the samples `progress.next..<end` to an exact candidate's sums.
    private func advance(_ c: Candidate, _ progress: inout Progress, to end: Int) {
        let dim = dim, followsStorage = dropAlpha && c.followsActualStorage
        var residual = progress.residual, changes = progress.changes
        actualVisible.withUnsafeBufferPointer { av in
            baselineVisible.withUnsafeBufferPointer { bv in
                forEachPrediction(c, progress.next..<end) { i, prediction in
                    var p = prediction
                    if followsStorage { p.w = 1 }
                    let a = p.w, o = i * dim
                    var d2 = 0.0
                    @inline(__always) func add(_ v: Double, _ k: Int) {
                        let d = av[o + k] - v; d2 += d * d
                        if v != bv[o + k] { changes = true }
                    }
                    add(p.x * a * 255, 0); add(p.y * a * 255, 1); add(p.z * a * 255, 2)
                    if dim == 6 {
                        add((p.x * a + 1 - a) * 255, 3); add((p.y * a + 1 - a) * 255, 4); add((p.z * a + 1 - a) * 255, 5)
                    }
                    residual += samples[i].weight * d2
                }
            }
        }
        progress = Progress(next: end, residual: residual, changes: changes)
    }

    /// Calls `body(i, prediction)` for the samples `range` in order, reading the gathered
    /// neighbourhoods where the candidate reads only there.
    @inline(__always)
    private func forEachPrediction(_ c: Candidate, _ range: Range<Int>, _ body: (Int, SIMD4<Double>) -> Void) {
        switch c.reading {
        case .neighbourhood(let predict):
            if let hoods = neighbourhoods {
                hoods.expected.withUnsafeBufferPointer { planes in
                    for i in range { body(i, predict(Neighbourhood(planes: planes, index: i, stride: hoods.count))) }
                }
            } else {
                for i in range { body(i, c.predict(view, samples[i].x, samples[i].y)) }
            }
        case .anywhere(let predict):
            for i in range { body(i, predict(view, samples[i].x, samples[i].y)) }
        }
    }
}

/// What the cores finishing the bounded candidates share: the queue of candidates (best bound
/// first) and the scores that can be ranked, from which the cut-off T of ``CandidateScoring``
/// follows.
private final class CutoffBoard: @unchecked Sendable {
    private let lock = NSLock()
    private var ranked: [(explained: Double, bugClass: String)]
    private var queue: [Int]
    private var position = 0
    private var value: Double?

    init(_ ranked: [Diagnosis.CandidateScore], order: [Int]) {
        self.ranked = ranked.map { ($0.explained, $0.bugClass) }
        queue = order
        value = Self.cutoff(self.ranked)
    }

    /// The next candidate to finish, if any.
    func take() -> Int? {
        lock.lock(); defer { lock.unlock() }
        guard position < queue.count else { return nil }
        position += 1
        return queue[position - 1]
    }

    /// The current T, if the scores so far define one.
    var cutoff: Double? {
        lock.lock(); defer { lock.unlock() }
        return value
    }

    /// Adds a candidate scored in full.
    func add(_ score: Diagnosis.CandidateScore) {
        lock.lock(); defer { lock.unlock() }
        ranked.append((score.explained, score.bugClass))
        value = Self.cutoff(ranked)
    }

    /// The largest T such that the scores ≥ T number at least five and span two classes.
    private static func cutoff(_ ranked: [(explained: Double, bugClass: String)]) -> Double? {
        let sorted = ranked.filter { !$0.explained.isNaN }.sorted { $0.explained > $1.explained }
        var classes = Set<String>()
        for (k, s) in sorted.enumerated() {
            classes.insert(s.bugClass)
            if k + 1 >= 5 && classes.count >= 2 { return s.explained }
        }
        return nil
    }
}
