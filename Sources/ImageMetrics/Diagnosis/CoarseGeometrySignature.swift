/// The signature of a geometric change the fine detail hides: two samplings of one picture at
/// slightly different positions (a downscale without a filter on another pixel grid, the
/// corner-aligned against the centre-aligned convention) share their coarse content, moved by
/// the geometry, while their fine detail comes from source pixels the other image never shows.
/// A pixel-wise prediction then explains little, though the geometry is right.
///
/// The image is tiled into blocks of ``block``×``block`` pixels; the block means of the
/// difference are its coarse band. Over the premultiplied RGB values (0…1):
/// - `coarseShare = Σ b²·mean(a − e)² / Σ (a − e)²`, the share of the difference energy that is
///   coarse (block means, each standing for its b² pixels);
/// - `explained = 1 − Σ mean(a − g(e))² / Σ mean(a − e)²`, the share of the coarse difference the
///   geometry `g` (a fitted ``GeometryFit`` candidate) predicts.
///
/// It names the geometry only when the coarse band carries at least ``minimumShare`` of the
/// difference and the geometry explains at least ``minimumExplained`` of it; noise and lossy
/// re-encoding carry almost nothing in block means, and what they carry no geometry predicts.
/// Large images are read on a regular subsample of blocks (at most about 2¹⁴), which depends
/// only on the size.
struct CoarseGeometrySignature: Sendable, Hashable {
    /// Share of the difference energy in the block means, 0…1.
    var coarseShare: Double
    /// Share of the coarse difference the geometry explains (≤ 1; negative when it adds some).
    var explained: Double

    /// Side of a block, in pixels.
    static let block = 4
    /// Smallest ``coarseShare`` that is read.
    static let minimumShare = 0.05
    /// Smallest ``explained`` that names the geometry.
    static let minimumExplained = 0.5

    /// Fewest blocks read for a signature to name anything: a handful of block means fits any
    /// smooth change, so a small image is not read by its coarse band at all.
    static let minimumBlocks = 256
    /// Number of blocks read.
    var blocks: Int

    /// Whether the signature names the geometry.
    var names: Bool {
        blocks >= CoarseGeometrySignature.minimumBlocks
            && coarseShare >= CoarseGeometrySignature.minimumShare && explained >= CoarseGeometrySignature.minimumExplained
    }

    /// Smallest move of the image's corners, in pixels, for a geometry to be named by its
    /// coarse band: a smaller one changes block means by rounding, not content.
    static let minimumMove = 0.125

    /// Largest distance, in pixels, the geometry with `parameters` (``GeometryFit``'s
    /// `scale.x`, `scale.y`, `dx`, `dy`; absent ones 1 or 0) moves a corner of a `width`×`height` image.
    static func largestMove(_ parameters: [String: Double], width: Int, height: Int) -> Double {
        let cx = Double(width - 1) / 2, cy = Double(height - 1) / 2
        let fit = GeometryFit.Fit(parameters: parameters)
        return max(abs((fit.ax - 1) * cx) + abs(fit.dx), abs((fit.ay - 1) * cy) + abs(fit.dy))
    }

    /// Measures `candidate` (a geometry predicting `actual` from `expected`, equal sizes).
    init(expected: ValueImage, actual: ValueImage, candidate: Candidate) {
        let b = CoarseGeometrySignature.block
        let e = ExpectedView(expected), a = ExpectedView(actual)
        let across = expected.width / b, down = expected.height / b
        let stride = max(1, Int((Double(across * down) / Double(1 << 14)).squareRoot().rounded(.up)))
        func premultiplied(_ p: SIMD4<Double>) -> SIMD4<Double> { SIMD4(p.x * p.w, p.y * p.w, p.z * p.w, p.w) }
        var total = 0.0, coarse = 0.0, left = 0.0, read = 0
        for by in Swift.stride(from: 0, to: down, by: stride) {
            for bx in Swift.stride(from: 0, to: across, by: stride) {
                var d = SIMD4<Double>(), r = SIMD4<Double>()
                for y in by * b..<(by + 1) * b {
                    for x in bx * b..<(bx + 1) * b {
                        let actualValue = premultiplied(a.pixel(x, y))
                        let delta = actualValue - premultiplied(e.pixel(x, y))
                        total += (delta * delta).sum()
                        d += delta
                        r += actualValue - premultiplied(candidate.predict(e, x, y))
                    }
                }
                let n = Double(b * b)
                read += 1
                coarse += (d * d).sum() / n
                left += (r * r).sum() / n
            }
        }
        blocks = read
        coarseShare = total > 0 ? coarse / total : 0
        explained = coarse > 0 ? 1 - left / coarse : 0
    }
}
