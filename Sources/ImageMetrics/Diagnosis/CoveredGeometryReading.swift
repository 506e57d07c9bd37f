/// A fitted geometry read where the moved picture covers the frame. A shift or zoom reveals at
/// the edges content the expected image does not hold (what a crop window at another anchor
/// takes in, what a roll wraps round); no prediction reaches it, and on a flat picture that band
/// can hold most of the difference though the geometry is exact everywhere else.
///
/// The samples whose source position lies at least ``margin`` pixels inside the expected image
/// are scored again on their own. The geometry is named when the covered part is at least
/// ``minimumCoverage`` of the image's area, carries at least ``minimumInteriorShare`` of the
/// difference energy (a pair that differs only at its edges is not a shift), and the geometry
/// explains at least ``minimumExplained`` of the difference there.
struct CoveredGeometryReading: Sendable {
    /// Share of the image's area the moved picture covers, 0…1.
    var coverage: Double
    /// Share of the difference energy (squared visible differences) inside the covered part, 0…1.
    var interiorShare: Double
    /// Share of the covered part's difference the geometry explains (≤ 1).
    var explained: Double

    /// Distance from the expected image's edge, in pixels, a source position keeps to count as
    /// covered (Catmull-Rom interpolation reads two pixels each way).
    static let margin = 2.0
    /// Smallest ``coverage`` that is read.
    static let minimumCoverage = 0.5
    /// Smallest ``interiorShare`` that is read.
    static let minimumInteriorShare = 0.1
    /// Smallest ``explained`` that names the geometry.
    static let minimumExplained = 0.9

    /// Whether the reading names the geometry.
    var names: Bool {
        coverage >= Self.minimumCoverage && interiorShare >= Self.minimumInteriorShare && explained >= Self.minimumExplained
    }

    /// Whether the geometry with `parameters` (``GeometryFit``'s `scale.x`, `scale.y`, `dx`,
    /// `dy`; absent ones 1 or 0) reads actual pixel (x, y) from inside a `width`×`height` image.
    static func covers(_ parameters: [String: Double], width: Int, height: Int) -> @Sendable (Int, Int) -> Bool {
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        let ax = parameters["scale.x"] ?? 1, ay = parameters["scale.y"] ?? 1, dx = parameters["dx"] ?? 0, dy = parameters["dy"] ?? 0
        let right = Double(width - 1) - margin, bottom = Double(height - 1) - margin
        return { x, y in
            let u = ax * (Double(x) - cx) + cx - dx, v = ay * (Double(y) - cy) + cy - dy
            return u >= margin && u <= right && v >= margin && v <= bottom
        }
    }

    /// Reads `candidate` (a fitted geometry of `expected` and `actual`, equal sizes) on the
    /// `samples` it covers; `nil` when it covers none that differ.
    init?(candidate: Candidate, expected: ValueImage, actual: ValueImage, samples: [Diagnoser.Sample], whole: CandidateScoring,
          dim: Int, dropAlpha: Bool) {
        let covers = Self.covers(candidate.parameters, width: expected.width, height: expected.height)
        let step = max(1, Int((Double(expected.width * expected.height) / 4096).squareRoot().rounded(.up)))
        var inside = 0, all = 0
        for y in Swift.stride(from: step / 2, to: expected.height, by: step) {
            for x in Swift.stride(from: step / 2, to: expected.width, by: step) {
                all += 1
                if covers(x, y) { inside += 1 }
            }
        }
        let covered = samples.filter { covers($0.x, $0.y) }
        guard all > 0, !covered.isEmpty, whole.baseline > 0 else { return nil }
        let scoring = CandidateScoring(expected: expected, actual: actual, samples: covered, dim: dim, dropAlpha: dropAlpha)
        guard scoring.baseline > 0 else { return nil }
        coverage = Double(inside) / Double(all)
        interiorShare = scoring.baseline / whole.baseline
        explained = scoring.score(candidate).explained
    }
}
