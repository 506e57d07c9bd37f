/// The signature of nearest-neighbour sampling where a filter was expected (D10, "no
/// antialiasing when shrinking"), for the case no pixel-wise prediction can cover: the aliased
/// detail of a point-sampled image comes from source pixels the expected image never shows, so
/// ``CandidateCatalog/nearestNeighbour`` explains little of it, but the *kind* of edge pixel
/// changes. A filter leaves mixed pixels on edges (values between the two sides); point sampling
/// copies one side or the other, so its edges are hard steps.
///
/// Per colour channel, at the edge pixels of the expected image (3×3 range ≥
/// ``CandidateCatalog/edgeRange``, both images opaque there), the *mixedness* of a value v
/// between its own 3×3 neighbourhood's minimum and maximum is `1 − |2p − 1|` with
/// `p = (v − min)/(max − min)`: 0 on either side, 1 halfway. The signature reads only the
/// expected image's *mixed* edge samples (mixedness ≥ ``mixedSample``: the value lies in the
/// middle half of its neighbourhood, a pixel a filter mixed from both sides) and compares the
/// actual image's mixedness there (where the actual neighbourhood is flat it is undefined and
/// the sample is skipped):
/// - `lostMixing = 1 − mixed(actual) / mixed(expected)`, the share of the expected's mixing
///   the actual replaced by hard steps;
/// - it is read only when there are at least ``minimumEdgeSamples`` mixed samples: a sharp
///   expected image (synthetic edges on pixel boundaries, pixel art) has none, so nothing to lose.
///
/// Reading the mixed samples only, rather than every edge sample, matters on small, mostly
/// sharp images: an edge a filter leaves one pixel wide has two side samples (mixedness 0) for
/// each mixed one, so a mean over all edge samples stays near ⅓ of the mixed pixels' value
/// even where every mixed pixel was lost (the quick corpus's 24×16…40×27 shrinks: means of
/// 0.07–0.2, under the former 0.25 floor, while 60–90 % of the mixing was lost).
/// Point-sampling smooth content (ramps, the zone plate's low frequencies) still gives
/// mixed values, so a named result is reliable, a missing one is not proof of filtering.
/// Large images are read on a deterministic row subsample (every k-th row, about 2¹⁸ pixels at most), which does not
/// depend on the number of cores.
struct AliasingSignature: Sendable, Hashable {
    /// Mean mixedness of the expected and the actual image at the expected's mixed edge samples.
    var expectedMixing: Double, actualMixing: Double
    /// Number of (pixel, channel) mixed edge samples of the expected image.
    var edgeSamples: Int

    /// Smallest mixedness of an expected edge sample for it to be read: the value lies in the
    /// middle half of its neighbourhood's range, a pixel a filter mixed from both sides.
    static let mixedSample = 0.5
    /// Smallest number of mixed edge samples.
    static let minimumEdgeSamples = 64
    /// Smallest ``lostMixing`` that names the bug.
    static let minimumLost = 0.55

    /// `1 − actualMixing / expectedMixing` (0 when there is nothing to compare).
    var lostMixing: Double { expectedMixing > 0 ? 1 - actualMixing / expectedMixing : 0 }

    /// Whether the signature names nearest-neighbour sampling.
    var names: Bool {
        edgeSamples >= AliasingSignature.minimumEdgeSamples
            && lostMixing >= AliasingSignature.minimumLost
    }

    /// Measures the signature of two value images of equal size and channel count.
    init(expected e: ValueImage, actual a: ValueImage) {
        let w = e.width, h = e.height, n = e.channels
        let threshold = Int((CandidateCatalog.edgeRange * 65535).rounded(.up))
        let rowStride = max(1, (w * h) >> 18)
        var sumE = 0.0, sumA = 0.0, count = 0
        e.samples.withUnsafeBufferPointer { es in
        a.samples.withUnsafeBufferPointer { as_ in
            func opaque(_ s: UnsafeBufferPointer<UInt16>, _ i: Int) -> Bool { n < 4 || s[i + 3] == 65535 }
            /// Minimum and maximum of channel c in the 3×3 neighbourhood of (x, y), clamped.
            func range(_ s: UnsafeBufferPointer<UInt16>, _ x: Int, _ y: Int, _ c: Int) -> (Int, Int) {
                var lo = Int.max, hi = Int.min
                for yy in max(y - 1, 0)...min(y + 1, h - 1) {
                    for xx in max(x - 1, 0)...min(x + 1, w - 1) {
                        let v = Int(s[(yy * w + xx) * n + c])
                        lo = min(lo, v); hi = max(hi, v)
                    }
                }
                return (lo, hi)
            }
            func mixedness(_ v: Int, _ lo: Int, _ hi: Int) -> Double {
                let p = Double(v - lo) / Double(hi - lo)
                return 1 - abs(2 * p - 1)
            }
            for y in Swift.stride(from: 0, to: h, by: rowStride) {
                for x in 0..<w {
                    let i = (y * w + x) * n
                    guard opaque(es, i), opaque(as_, i) else { continue }
                    for c in 0..<3 {
                        let (lo, hi) = range(es, x, y, c)
                        guard hi - lo >= threshold else { continue }
                        let (loA, hiA) = range(as_, x, y, c)
                        guard hiA > loA else { continue }
                        let mE = mixedness(Int(es[i + c]), lo, hi)
                        guard mE >= AliasingSignature.mixedSample else { continue }
                        sumE += mE
                        sumA += mixedness(Int(as_[i + c]), loA, hiA)
                        count += 1
                    }
                }
            }
        }
        }
        edgeSamples = count
        expectedMixing = count > 0 ? sumE / Double(count) : 0
        actualMixing = count > 0 ? sumA / Double(count) : 0
    }
}
