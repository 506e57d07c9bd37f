/// Whether the difference of two images of equal size is plain noise: zero-mean, uncorrelated
/// between neighbouring pixels, and as strong on flat areas as on edges. Lossy re-encoding and
/// resampling differ: their errors are correlated (a block's quantisation error spreads over its
/// pixels) and gather at edges. Noise is never a bug class; the diagnosis says so when no class
/// is named (``Diagnosis/noteUnexplained(expected:actual:expectedMetadata:actualMetadata:)``).
///
/// Read on the opaque pixels of a regular subset of rows (at most ``rowBudget`` pixels), in
/// 8-bit code units.
struct NoiseSignature: Sendable {
    /// Largest number of pixels read.
    static let rowBudget = 1 << 18
    /// Largest neighbour correlation of noise.
    static let maximumCorrelation = 0.1
    /// Range of the ratio of the difference's variance on edges to that on flat areas.
    static let edgeRatioRange = 0.5...2.0

    /// Standard deviation of the difference, 8-bit codes per value.
    let sigma: Double
    /// Correlation of the difference with its right and lower neighbours.
    let correlation: (horizontal: Double, vertical: Double)
    /// Variance of the difference on edges of the expected image ÷ on its flat areas (`nil` when
    /// either holds too few pixels to tell).
    let edgeRatio: Double?
    /// Largest |mean| of a channel's difference ÷ `sigma`.
    let bias: Double

    /// Whether the difference is noise: σ of at least half a code, neighbours uncorrelated,
    /// no bias, and no preference for edges.
    var isNoise: Bool {
        sigma >= 0.5 && abs(correlation.horizontal) <= Self.maximumCorrelation && abs(correlation.vertical) <= Self.maximumCorrelation
            && bias <= 0.25 && (edgeRatio.map { Self.edgeRatioRange.contains($0) } ?? true)
    }

    /// Reads the difference of `actual` from `expected` (equal sizes and channel counts).
    init(expected e: ValueImage, actual a: ValueImage) {
        let n = e.channels, w = e.width, h = e.height
        let step = max(1, (w * h) / Self.rowBudget)
        var count = 0.0, sum = SIMD3<Double>(), squares = 0.0
        var pairs = (h: 0.0, v: 0.0), products = (h: 0.0, v: 0.0)
        var edge = (n: 0.0, s: 0.0, s2: 0.0), flat = (n: 0.0, s: 0.0, s2: 0.0)
        let unit = ValueImage.perEightBitUnit
        e.withSamples { es in
            a.withSamples { as_ in
                func opaque(_ i: Int) -> Bool { n == 3 || (es[i * n + 3] == 65535 && as_[i * n + 3] == 65535) }
                func difference(_ i: Int) -> SIMD3<Double> {
                    let o = i * n
                    return SIMD3(Double(as_[o]) - Double(es[o]), Double(as_[o + 1]) - Double(es[o + 1]), Double(as_[o + 2]) - Double(es[o + 2])) / unit
                }
                func luma(_ i: Int) -> Double {
                    let o = i * n
                    return (0.299 * Double(es[o]) + 0.587 * Double(es[o + 1]) + 0.114 * Double(es[o + 2])) / unit
                }
                guard w >= 3 && h >= 3 else { return }
                for y in Swift.stride(from: 1, to: h - 1, by: step) {
                    for x in 1..<(w - 1) {
                        let i = y * w + x
                        guard opaque(i) else { continue }
                        let d = difference(i), d2 = (d * d).sum()
                        count += 3; sum += d; squares += d2
                        if opaque(i + 1) { pairs.h += 3; products.h += (d * difference(i + 1)).sum() }
                        if opaque(i + w) { pairs.v += 3; products.v += (d * difference(i + w)).sum() }
                        let gradient = abs(luma(i + 1) - luma(i - 1)) + abs(luma(i + w) - luma(i - w))
                        if gradient >= 24 { edge.n += 3; edge.s2 += d2 } else if gradient <= 2 { flat.n += 3; flat.s2 += d2 }
                    }
                }
            }
        }
        let mean = count > 0 ? (sum / (count / 3)) : .zero
        let variance = count > 0 ? max(0, squares / count - (mean * mean).sum() / 3) : 0
        sigma = variance.squareRoot()
        let scale = max(variance, 1e-12)
        correlation = (pairs.h > 0 ? products.h / pairs.h / scale : 0, pairs.v > 0 ? products.v / pairs.v / scale : 0)
        edgeRatio = edge.n >= 100 && flat.n >= 100 && flat.s2 > 0 ? (edge.s2 / edge.n) / (flat.s2 / flat.n) : nil
        let largestMean = max(abs(mean.x), abs(mean.y), abs(mean.z))
        bias = variance > 0 ? largestMean / variance.squareRoot() : 0
    }
}
