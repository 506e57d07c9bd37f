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
/// `p = (v − min)/(max − min)`: 0 on either side, 1 halfway; where the actual image's
/// neighbourhood is flat, mixedness is undefined and the sample is skipped. The signature compares the mean mixedness of the actual image with
/// the expected's at the same places:
/// - `lostMixing = 1 − mixed(actual) / mixed(expected)`, the share of the expected's mixed edge
///   pixels the actual replaced by hard steps;
/// - it is read only when the expected image is itself filtered (`mixed(expected) ≥`
///   ``minimumExpectedMixing``; a sharp expected image — synthetic edges, pixel art — has no
///   mixing to lose) and there are at least ``minimumEdgeSamples`` edge samples.
///
/// Measured on the reference bases shrunk ÷2, ÷3, ÷4 with Lanczos 3 as the expected image:
/// noise, JPEG q85 and sRGB-vs-linear averaging lose at most 29 % (usually they add mixing),
/// blur adds it, a box filter instead of Lanczos loses up to 49 % (the gray base, ÷2); a
/// point-sampled shrink loses 63–84 % on `rgb203x181` and 55–58 % on `rgb97x61` ÷2, but only
/// 36–43 % on `rgb97x61` ÷3/÷4, and on the gray base 57 % at ÷3 but little at ÷2 and ÷4 (its
/// 8-px checker has a contrast of 48 over a ramp, so its edges are barely edges): a named result
/// is reliable, a missing one is not proof of filtering. A 2×2 block average of the sharp
/// `rgb203x181` base (reference pair P18) loses 75 %, but its expected image has almost no
/// mixing to lose (0.07 < ``minimumExpectedMixing``), so it is not named.
/// Large images are read on a deterministic row subsample (every k-th row, about 2¹⁸ pixels at most), which does not
/// depend on the number of cores.
struct AliasingSignature: Sendable, Hashable {
    /// Mean mixedness of the expected and the actual image at the expected's edge samples.
    var expectedMixing: Double, actualMixing: Double
    /// Number of (pixel, channel) edge samples.
    var edgeSamples: Int

    /// Smallest mean mixedness of the expected image's edges for the signature to be read.
    static let minimumExpectedMixing = 0.25
    /// Smallest number of edge samples.
    static let minimumEdgeSamples = 64
    /// Smallest ``lostMixing`` that names the bug.
    static let minimumLost = 0.55

    /// `1 − actualMixing / expectedMixing` (0 when there is nothing to compare).
    var lostMixing: Double { expectedMixing > 0 ? 1 - actualMixing / expectedMixing : 0 }

    /// Whether the signature names nearest-neighbour sampling.
    var names: Bool {
        edgeSamples >= AliasingSignature.minimumEdgeSamples
            && expectedMixing >= AliasingSignature.minimumExpectedMixing
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
                        sumE += mixedness(Int(es[i + c]), lo, hi)
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
