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
/// 0.07–0.2 over all edge samples, while 60–90 % of the mixing was lost).
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
    /// Largest ``lostMixing`` of a pair that is sharpened rather than point-sampled: a sharper
    /// filter or an unsharp mask loses 2–10 % of the mixing (Pillow's Lanczos against its
    /// bilinear, `UnsharpMask(2, 80, 2)`), nearest-neighbour sampling of a photograph about 30 %.
    static let sharpenedBelow = 0.2

    /// `1 − actualMixing / expectedMixing` (0 when there is nothing to compare).
    var lostMixing: Double { expectedMixing > 0 ? 1 - actualMixing / expectedMixing : 0 }

    /// Whether the signature names nearest-neighbour sampling.
    var names: Bool {
        edgeSamples >= AliasingSignature.minimumEdgeSamples
            && lostMixing >= AliasingSignature.minimumLost
    }

    /// Measures the signature of two value images of equal size and channel count.
    ///
    /// Speed (not behaviour): each read row's 3×3 ranges come from per-column ranges over its
    /// three rows, then the ranges of three neighbouring columns (the same integers as the
    /// nine reads); rows are read in fixed groups on every core, each returning its samples'
    /// mixedness values in order, and the means add them up in row and pixel order (the same
    /// sums whatever the number of cores).
    init(expected e: ValueImage, actual a: ValueImage) {
        let w = e.width, h = e.height
        let rowStride = max(1, (w * h) >> 18)
        let rows = Array(Swift.stride(from: 0, to: h, by: rowStride))
        let groups = Parallel.bands(rows: rows.count, rowsPerBand: 8)
        let parts = Parallel.map(groups.count) { g -> [SIMD2<Double>] in
            Self.mixedness(e, a, rows: rows[groups[g]])
        }
        var sumE = 0.0, sumA = 0.0, count = 0
        for part in parts {
            for m in part { sumE += m.x; sumA += m.y; count += 1 }
        }
        edgeSamples = count
        expectedMixing = count > 0 ? sumE / Double(count) : 0
        actualMixing = count > 0 ? sumA / Double(count) : 0
    }

    /// The mixedness of the expected and the actual image at the mixed edge samples of `rows`,
    /// in row, pixel and channel order.
    private static func mixedness(_ e: ValueImage, _ a: ValueImage, rows: ArraySlice<Int>) -> [SIMD2<Double>] {
        let w = e.width, h = e.height, n = e.channels, rowLength = w * n
        let threshold = Int((CandidateCatalog.edgeRange * 65535).rounded(.up))
        var out: [SIMD2<Double>] = []
        // Sample i of the row (pixel i / n, channel i % n): its minimum and maximum over the
        // row's three rows (clamped), for the expected and the actual image.
        var columns = [UInt16](repeating: 0, count: 4 * rowLength)
        e.withSamples { es in
        a.withSamples { as_ in
        columns.withUnsafeMutableBufferPointer { columns in
            func columnRanges(_ s: SampleView, _ y: Int, lo: Int, hi: Int) {
                let above = max(y - 1, 0) * rowLength, row = y * rowLength, below = min(y + 1, h - 1) * rowLength
                for i in 0..<rowLength {
                    let u = s[above &+ i], v = s[row &+ i], b = s[below &+ i]
                    columns[lo &+ i] = min(u, v, b); columns[hi &+ i] = max(u, v, b)
                }
            }
            /// Minimum and maximum of channel c in the 3×3 neighbourhood of column x, clamped.
            @inline(__always) func range(lo: Int, hi: Int, _ x: Int, _ c: Int) -> (Int, Int) {
                let left = max(x - 1, 0) &* n &+ c, centre = x &* n &+ c, right = min(x + 1, w - 1) &* n &+ c
                let l = min(columns[lo &+ left], columns[lo &+ centre], columns[lo &+ right])
                let u = max(columns[hi &+ left], columns[hi &+ centre], columns[hi &+ right])
                return (Int(l), Int(u))
            }
            func mixedness(_ v: Int, _ lo: Int, _ hi: Int) -> Double {
                let p = Double(v - lo) / Double(hi - lo)
                return 1 - abs(2 * p - 1)
            }
            let loE = 0, hiE = rowLength, loA = 2 * rowLength, hiA = 3 * rowLength
            for y in rows {
                columnRanges(es, y, lo: loE, hi: hiE)
                columnRanges(as_, y, lo: loA, hi: hiA)
                for x in 0..<w {
                    let i = (y * w + x) * n
                    guard n < 4 || (es[i + 3] == 65535 && as_[i + 3] == 65535) else { continue }
                    for c in 0..<3 {
                        let (lo, hi) = range(lo: loE, hi: hiE, x, c)
                        guard hi - lo >= threshold else { continue }
                        let (lowA, highA) = range(lo: loA, hi: hiA, x, c)
                        guard highA > lowA else { continue }
                        let mE = mixedness(Int(es[i + c]), lo, hi)
                        guard mE >= AliasingSignature.mixedSample else { continue }
                        out.append(SIMD2(mE, mixedness(Int(as_[i + c]), lowA, highA)))
                    }
                }
            }
        }
        }
        }
        return out
    }
}
