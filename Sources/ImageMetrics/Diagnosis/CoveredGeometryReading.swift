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
        let fit = GeometryFit.Fit(parameters: parameters)
        let right = Double(width - 1) - margin, bottom = Double(height - 1) - margin
        return { x, y in
            let (u, v) = fit.source(Double(x), Double(y), width: width, height: height)
            return u >= margin && u <= right && v >= margin && v <= bottom
        }
    }

    /// Reads `candidate` (a fitted geometry of `expected` and `actual`, equal sizes) on the
    /// `samples` it covers, over premultiplied RGB (0…1), each sample by its weight; `nil` when
    /// the samples do not differ. Reads pixels where it needs them: no buffer is allocated.
    init?(candidate: Candidate, expected: ValueImage, actual: ValueImage, samples: [Diagnoser.Sample]) {
        let covers = Self.covers(candidate.parameters, width: expected.width, height: expected.height)
        let step = max(1, Int((Double(expected.width * expected.height) / 4096).squareRoot().rounded(.up)))
        var inside = 0, all = 0
        for y in Swift.stride(from: step / 2, to: expected.height, by: step) {
            for x in Swift.stride(from: step / 2, to: expected.width, by: step) {
                all += 1
                if covers(x, y) { inside += 1 }
            }
        }
        let e = ExpectedView(expected), a = ExpectedView(actual)
        func premultiplied(_ p: SIMD4<Double>) -> SIMD4<Double> { SIMD4(p.x * p.w, p.y * p.w, p.z * p.w, p.w) }
        var total = 0.0, coveredTotal = 0.0, left = 0.0
        for s in samples {
            let actualValue = premultiplied(a.pixel(s.x, s.y))
            let delta = actualValue - premultiplied(e.pixel(s.x, s.y))
            let energy = s.weight * (delta * delta).sum()
            total += energy
            guard covers(s.x, s.y) else { continue }
            coveredTotal += energy
            let r = actualValue - premultiplied(candidate.predict(e, s.x, s.y))
            left += s.weight * (r * r).sum()
        }
        guard all > 0, total > 0, coveredTotal > 0 else { return nil }
        coverage = Double(inside) / Double(all)
        interiorShare = coveredTotal / total
        explained = 1 - left / coveredTotal
    }
}
