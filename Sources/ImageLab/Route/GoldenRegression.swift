import ImageCore
import ImageMetrics

/// The golden stage of a corpus pair whose gate passed: the judged frame against the pair's
/// blessed goldens (`imglab bless`), which decide only among outputs the gate accepts.
enum GoldenRegression {
    /// The judged frame against the pair's goldens.
    struct Outcome: Sendable, Hashable {
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
    static func classify(_ image: Image, distance: Double?, goldens: [GoldenStore.Golden]) -> Outcome {
        guard !goldens.isEmpty else { return Outcome(verdict: .pass, text: "no golden", golden: nil) }
        guard let hash = try? GoldenStore.pixelHash(image) else {
            return Outcome(verdict: .error, text: "changed (the output cannot be hashed)", golden: nil)
        }
        if let g = goldens.first(where: { $0.hash == hash }) { return Outcome(verdict: .pass, text: "matches golden \(g.hash)", golden: g) }
        let measured = goldens.compactMap { g in g.oracleDistance["visible.mean"].map { (golden: g, distance: $0) } }
        guard measured.count == goldens.count, let best = measured.min(by: { $0.distance < $1.distance }),
              let worst = measured.max(by: { $0.distance < $1.distance }), let distance else {
            return Outcome(verdict: .error, text: "changed (no oracle distance to compare with the goldens)", golden: nil)
        }
        if distance > worst.distance {
            let numbers = String(format: "visible.mean %.4g vs %.4g of the furthest accepted golden", distance, worst.distance)
            return Outcome(verdict: .changedFurther, text: "changed, further from the oracle than every golden (\(numbers))", golden: best.golden)
        }
        let numbers = String(format: "visible.mean %.4g vs the best golden's %.4g", distance, best.distance)
        return Outcome(verdict: .changedCloser, text: "changed, closer to the oracle (\(numbers)); accept it with 'imglab bless'", golden: best.golden)
    }
}
