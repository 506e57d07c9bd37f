import Foundation

/// The SSIM and cs maps of ``SSIM`` summed over tiles, in `Float` SIMD: the engine behind
/// ``SSIM/mean(_:_:)`` (one plane) and ``VisiblePlane/ssimMeans(_:_:background:)`` (Y′, R, G and B at once).
///
/// **Signals.** For each plane the four signals x, y, x² + y² and (x − y)² ride in the lanes of
/// one vector per pixel (lane = P·signal + plane for P planes: see ``scoreOne(_:_:_:)`` and
/// ``scoreFour(_:_:_:)``), on samples *centred* by 128 (8-bit units, so |x| ≤ 128). Filtering them with the window gives μx, μy, S = σx² + σy² (after
/// subtracting μx² + μy²) and D = σ²(x−y) (after subtracting (μx − μy)²), and the identity
/// 2σxy = S − D gives the SSIM definition's terms without a fifth signal:
/// `cs = (S − D + C2)/(S + C2)`, `l = (2μxμy + C1)/(μx² + μy² + C1)` with μ = centred μ + 128
/// (the window sums to 1 and the map is "valid", so centring changes nothing but the rounding).
///
/// **Tiles.** The valid map is cut into fixed tiles of ``bandRows`` × ``tileColumns`` output
/// pixels (the split depends only on the sizes). A tile streams its input rows: each is filtered
/// horizontally into an 11-row ring (256 columns × 11 rows × 64 B = 176 KiB: it stays in L2), and
/// from the 11th row on the vertical filter gives one output row, scored at once. Tiles run in
/// parallel and their sums are added in tile order, so the result does not depend on the cores.
///
/// **Error analysis (`Float`, unit roundoff u = 2⁻²⁴ ≈ 6e-8).** Centred samples are ≤ 128 in
/// magnitude, so x² + y² ≤ 32768. Each filter output is a sum of 11 products with positive taps
/// summing to 1; both passes together round at most ~30 times, each time by ≤ u × (the running
/// magnitude ≤ 32768), so |δ(G∗(x² + y²))| ≤ 30u·32768 ≈ 0.06 in the worst case, and
/// |δμ| ≤ 30u·128, |δ(μx² + μy²)| ≤ 0.06 likewise; D is built from differences and is exact to
/// a few u relative. The worst case moves S by 0.12 against S + C2 ≥ C2 = 58.5, i.e. a per-pixel
/// relative error ≤ 2e-3 in cs and SSIM. That bound needs every rounding to have the same sign;
/// round-to-nearest errors are unbiased and independent from pixel to pixel, so the typical
/// per-pixel error is √30·u·|v| ≈ 1e-5 of S + C2 and the error of a mean over n map pixels is
/// ~1e-5/√n: ≤ 3e-7 for the smallest reference image (54 × 38 map pixels), far under the 1e-4
/// tolerance of SSIM (and 1e-3 of MS-SSIM). Row sums run in `Float` over one tile row (≤ 256
/// values ≤ 1 in magnitude: error ≤ 256u ≈ 1.5e-5 of the row sum) and are added in `Double`.
/// Identical inputs still give exactly 1: then D = 0 and x, y take the same rounding, so the
/// numerators equal the denominators bit for bit.
enum SSIMTiles {
    /// Output rows per tile.
    static let bandRows = 256
    /// Output columns per tile (keeps the ring of horizontally filtered rows in L2).
    static let tileColumns = 256
    /// Centre subtracted from the 8-bit-unit samples.
    static let centre: Float = 128

    /// The window taps in `Float` (t0 … t5; t10−k = tk).
    static let taps: (Float, Float, Float, Float, Float, Float) = {
        let t = SSIM.taps.map(Float.init)
        return (t[0], t[1], t[2], t[3], t[4], t[5])
    }()

    /// Fills `count` pixels of input row `y` from column `x0` with the centred signals.
    typealias SignalRow<V: SIMD> = @Sendable (_ y: Int, _ x0: Int, _ count: Int, _ out: UnsafeMutablePointer<V>) -> Void
    /// Adds the SSIM and cs sums of one output row segment (`count` filtered pixels) to `sums`.
    typealias RowScore<V: SIMD> = @Sendable (_ row: UnsafePointer<V>, _ count: Int, _ sums: UnsafeMutablePointer<Double>) -> Void

    /// Sums of the SSIM and cs maps over the valid (h − 10) × (w − 10) map: `sumCount` values
    /// laid out as the `score` closure writes them.
    static func sums<V: SIMD>(width w: Int, height h: Int, sumCount: Int,
                              signals: SignalRow<V>, score: RowScore<V>) -> [Double] where V.Scalar == Float, V: SendableMetatype {
        let mw = w - 10, mh = h - 10
        guard mw > 0, mh > 0 else { return [Double](repeating: 0, count: sumCount) }
        let bands = Parallel.bands(rows: mh, rowsPerBand: bandRows)
        let strips = Parallel.bands(rows: mw, rowsPerBand: tileColumns)
        let parts = Parallel.map(bands.count * strips.count) { job -> [Double] in
            tileSums(rows: bands[job / strips.count], columns: strips[job % strips.count],
                     sumCount: sumCount, signals: signals, score: score)
        }
        var total = [Double](repeating: 0, count: sumCount)
        for part in parts { for i in 0..<sumCount { total[i] += part[i] } }
        return total
    }

    /// One tile: output rows `rows` × output columns `columns` of the valid map.
    private static func tileSums<V: SIMD>(rows: Range<Int>, columns: Range<Int>, sumCount: Int,
                                          signals: SignalRow<V>, score: RowScore<V>) -> [Double] where V.Scalar == Float, V: SendableMetatype {
        let tw = columns.count, inRows = rows.count + 10
        var line = [V](repeating: V(), count: tw + 10)
        var ring = [V](repeating: V(), count: 11 * tw)
        var out = [V](repeating: V(), count: tw)
        var sums = [Double](repeating: 0, count: sumCount)
        let t = taps
        let t0 = V(repeating: t.0), t1 = V(repeating: t.1), t2 = V(repeating: t.2)
        let t3 = V(repeating: t.3), t4 = V(repeating: t.4), t5 = V(repeating: t.5)
        line.withUnsafeMutableBufferPointer { lineB in
        ring.withUnsafeMutableBufferPointer { ringB in
        out.withUnsafeMutableBufferPointer { outB in
        sums.withUnsafeMutableBufferPointer { sumsB in
            guard let lp = lineB.baseAddress, let ringP = ringB.baseAddress,
                  let op = outB.baseAddress, let sp = sumsB.baseAddress else { return }
            for r in 0..<inRows {
                signals(rows.lowerBound + r, columns.lowerBound, tw + 10, lp)
                let slot = ringP + (r % 11) * tw
                for i in 0..<tw {
                    let s = lp + i
                    var a = t5 * s[5]
                    a += t0 * (s[0] + s[10])
                    a += t1 * (s[1] + s[9])
                    a += t2 * (s[2] + s[8])
                    a += t3 * (s[3] + s[7])
                    a += t4 * (s[4] + s[6])
                    slot[i] = a
                }
                guard r >= 10 else { continue }
                func row(_ k: Int) -> UnsafeMutablePointer<V> { ringP + ((r - 10 + k) % 11) * tw }
                let r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3), r4 = row(4), r5 = row(5)
                let r6 = row(6), r7 = row(7), r8 = row(8), r9 = row(9), r10 = row(10)
                for i in 0..<tw {
                    var a = t5 * r5[i]
                    a += t0 * (r0[i] + r10[i])
                    a += t1 * (r1[i] + r9[i])
                    a += t2 * (r2[i] + r8[i])
                    a += t3 * (r3[i] + r7[i])
                    a += t4 * (r4[i] + r6[i])
                    op[i] = a
                }
                score(op, tw, sp)
            }
        }
        }
        }
        }
        return sums
    }

    /// Scores one row of a single plane: lanes (μx, μy, G∗(x² + y²), G∗(x − y)²), centred;
    /// `sums[0]` += Σ SSIM, `sums[1]` += Σ cs.
    static func scoreOne(_ row: UnsafePointer<SIMD4<Float>>, _ count: Int, _ sums: UnsafeMutablePointer<Double>) {
        var s: Float = 0, c: Float = 0
        let c1 = Float(SSIM.c1), c2 = Float(SSIM.c2)
        for i in 0..<count {
            let v = row[i]
            let mx = v[0], my = v[1], dm = mx - my
            let sigmaSum = v[2] - mx * mx - my * my
            let sigmaDiff = v[3] - dm * dm
            let ux = mx + centre, uy = my + centre
            let cs = (sigmaSum - sigmaDiff + c2) / (sigmaSum + c2)
            s += (2 * ux * uy + c1) / (ux * ux + uy * uy + c1) * cs
            c += cs
        }
        sums[0] += Double(s)
        sums[1] += Double(c)
    }

    /// Scores one row of four planes side by side: lanes 0…3 μx, 4…7 μy, 8…11 G∗(x² + y²),
    /// 12…15 G∗(x − y)² of planes 0…3; `sums[p]` += Σ SSIM, `sums[4 + p]` += Σ cs of plane p.
    static func scoreFour(_ row: UnsafePointer<SIMD16<Float>>, _ count: Int, _ sums: UnsafeMutablePointer<Double>) {
        typealias P = SIMD4<Float>
        var s = P(), c = P()
        let c1 = P(repeating: Float(SSIM.c1)), c2 = P(repeating: Float(SSIM.c2))
        let centre = P(repeating: centre), two = P(repeating: 2)
        for i in 0..<count {
            let v = row[i]
            let mx = v.lowHalf.lowHalf, my = v.lowHalf.highHalf
            let dm = mx - my
            let sigmaSum: P = v.highHalf.lowHalf - mx * mx - my * my
            let sigmaDiff: P = v.highHalf.highHalf - dm * dm
            let ux = mx + centre, uy = my + centre
            let cs: P = (sigmaSum - sigmaDiff + c2) / (sigmaSum + c2)
            let l: P = (two * ux * uy + c1) / (ux * ux + uy * uy + c1)
            s += l * cs
            c += cs
        }
        for p in 0..<4 {
            sums[p] += Double(s[p])
            sums[4 + p] += Double(c[p])
        }
    }
}
