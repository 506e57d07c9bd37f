import Foundation

/// The SSIM and cs maps of ``SSIM`` summed over tiles, in `Float` planar rows: the engine behind
/// ``SSIM/mean(_:_:)`` (one plane) and ``VisiblePlane/ssimMeans(_:_:background:)`` (Y′, R, G and B at once).
///
/// **Signals.** For each of P planes, four signals x, y, x² + y² and (x − y)² are kept as
/// separate rows of `Float`, on samples *centred* by 128 (8-bit units, so |x| ≤ 128). Filtering
/// them with the window gives μx, μy, S = σx² + σy² (after subtracting μx² + μy²) and
/// D = σ²(x−y) (after subtracting (μx − μy)²), and the identity 2σxy = S − D gives the SSIM
/// definition's terms without a fifth signal: `cs = (S − D + C2)/(S + C2)`,
/// `l = (2μxμy + C1)/(μx² + μy² + C1)` with μ = centred μ + 128 (the window sums to 1 and the map
/// is "valid", so centring changes nothing but the rounding).
///
/// **Kernels.** Every step is a plain loop over one contiguous row (the separable 11-tap filter
/// with its symmetric taps folded, the per-pixel SSIM formula), which LLVM's loop vectorizer
/// widens to as many lanes as the target has (4, or 8 with AVX2); the lanes run the same
/// operations in the same order as one pixel alone, so the result does not depend on the width.
///
/// **Tiles.** The valid map is cut into fixed tiles of ``bandRows`` × ``tileColumns`` output
/// pixels (the split depends only on the sizes). A tile streams its input rows: each is filtered
/// horizontally into a ring of 14 rows (256 columns × 14 rows × 4P signals × 4 B = 224 KiB for
/// P = 4: it stays in L2), and from the 11th row on, every fourth row the vertical filter gives
/// four output rows (``rowsTogether``), scored at once. Tiles run in parallel and their sums are added in tile order, so the result
/// does not depend on the cores.
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
/// values ≤ 1 in magnitude, added in pixel order: error ≤ 256u ≈ 1.5e-5 of the row sum) and are
/// added in `Double`. Identical inputs still give exactly 1: then D = 0 and x, y take the same
/// rounding, so the numerators equal the denominators bit for bit.
enum SSIMTiles {
    /// Output rows per tile.
    static let bandRows = 256
    /// Output columns per tile (keeps the ring of horizontally filtered rows in L2).
    static let tileColumns = 256
    /// Centre subtracted from the 8-bit-unit samples.
    static let centre: Float = 128

    /// The window taps in `Float` (t0 … t5; t10−k = tk).
    typealias Taps = (Float, Float, Float, Float, Float, Float)
    /// ``SSIM/taps`` rounded to `Float`.
    static let taps: Taps = {
        let t = SSIM.taps.map(Float.init)
        return (t[0], t[1], t[2], t[3], t[4], t[5])
    }()

    /// Fills `count` pixels of input row `y` from column `x0` with the centred samples of every
    /// plane: plane p of the first image at `x + p·stride`, of the second at `y + p·stride`.
    typealias SignalRow = @Sendable (_ row: Int, _ x0: Int, _ count: Int, _ stride: Int,
                                     _ x: UnsafeMutablePointer<Float>, _ y: UnsafeMutablePointer<Float>) -> Void

    /// Sums of the SSIM and cs maps of `planes` planes over the valid (h − 10) × (w − 10) map:
    /// Σ SSIM of planes 0 ..< P, then Σ cs of planes 0 ..< P.
    static func sums(width w: Int, height h: Int, planes: Int, signals: SignalRow) -> [Double] {
        let mw = w - 10, mh = h - 10
        guard mw > 0, mh > 0, planes > 0 else { return [Double](repeating: 0, count: 2 * max(0, planes)) }
        let bands = Parallel.bands(rows: mh, rowsPerBand: bandRows)
        let strips = Parallel.bands(rows: mw, rowsPerBand: tileColumns)
        let parts = Parallel.map(bands.count * strips.count) { job -> [Double] in
            tileSums(rows: bands[job / strips.count], columns: strips[job % strips.count],
                     planes: planes, signals: signals)
        }
        var total = [Double](repeating: 0, count: 2 * planes)
        for part in parts { for i in total.indices { total[i] += part[i] } }
        return total
    }

    /// Output rows the vertical filter makes together: 4 rows read 14 ring rows instead of 44,
    /// so the ring is read from L2 about a third as often (each row's arithmetic is unchanged).
    static let rowsTogether = 4

    /// `Float`s between the ring's slots beyond their 4P rows: slots a multiple of 4 KiB apart
    /// map to the same sets of the 8-way L1 cache, so the 14 rows the vertical filter reads at
    /// once would evict each other (measured: the vertical pass 2–3× slower without it).
    static let slotPadding = 48

    /// One tile: output rows `rows` × output columns `columns` of the valid map.
    private static func tileSums(rows: Range<Int>, columns: Range<Int>, planes: Int, signals: SignalRow) -> [Double] {
        let tw = columns.count, inRows = rows.count + 10, line = tw + 10
        let signalRows = 4 * planes, together = rowsTogether, slots = 10 + together
        let slotSize = signalRows * tw + slotPadding
        // Scratch: samples x and y (2P lines), x² + y² and (x − y)² of one plane (2 lines), the
        // ring (10 + B slots of 4P rows), the filtered rows (B slots) and the SSIM and cs rows
        // (B × 2P), for B = `rowsTogether` output rows.
        let ringSize = slots * slotSize
        let scratch = UnsafeMutablePointer<Float>.allocate(
            capacity: (2 * planes + 2) * line + ringSize + together * (slotSize + 2 * planes * tw))
        defer { scratch.deallocate() }
        let xs = scratch, ys = xs + planes * line, squares = ys + planes * line, differences = squares + line
        let ring = differences + line, filtered = ring + ringSize, scores = filtered + together * slotSize
        var sums = [Double](repeating: 0, count: 2 * planes)
        let t = taps
        // Output rows first ..< first + n (n ≤ B) from ring slots (first + k) mod (10 + B): the
        // vertical filter runs over whole slots (all 4P signal rows in one loop); row b's SSIM
        // values of plane p go to scores + (2b·P + p)·tw, its cs values P rows further.
        func outputRows(first: Int, count n: Int) {
            if n == together {
                filterColumnsFour(ring, oldest: first % slots, slots: slots, slotSize: slotSize,
                                  filtered, slotSize, signalRows * tw, t)
            } else {
                for b in 0..<n {
                    filterColumns(ring, oldest: (first + b) % slots, slots: slots, slotSize: slotSize,
                                  filtered + b * slotSize, signalRows * tw, t)
                }
            }
            for b in 0..<n {
                let row = scores + 2 * b * planes * tw
                for p in 0..<planes {
                    let m = filtered + b * slotSize + 4 * p * tw
                    score(m, m + tw, m + 2 * tw, m + 3 * tw, row + p * tw, row + (planes + p) * tw, tw)
                }
            }
            sums.withUnsafeMutableBufferPointer { s in
                guard let s = s.baseAddress else { return }
                for b in 0..<n {
                    let row = scores + 2 * b * planes * tw
                    addRows(row, row + planes * tw, planes: planes, count: tw, to: s)
                }
            }
        }
        for r in 0..<inRows {
            signals(rows.lowerBound + r, columns.lowerBound, line, line, xs, ys)
            let slot = ring + (r % slots) * slotSize
            for p in 0..<planes {
                let x = xs + p * line, y = ys + p * line
                moments(x, y, squares, differences, line)
                let out = slot + 4 * p * tw
                filterRow(x, out, tw, t)
                filterRow(y, out + tw, tw, t)
                filterRow(squares, out + 2 * tw, tw, t)
                filterRow(differences, out + 3 * tw, tw, t)
            }
            // Input row r completes output row r − 10.
            let last = r - 10
            if last >= 0 && (last % together == together - 1 || r == inRows - 1) {
                let first = last - last % together
                outputRows(first: first, count: last - first + 1)
            }
        }
        return sums
    }

    /// x² + y² and (x − y)² of `count` centred samples.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func moments(_ x: UnsafePointer<Float>, _ y: UnsafePointer<Float>,
                                _ squares: UnsafeMutablePointer<Float>, _ differences: UnsafeMutablePointer<Float>, _ count: Int) {
        for k in 0..<count {
            let a = x[k], b = y[k], d = a - b
            squares[k] = a * a + b * b
            differences[k] = d * d
        }
    }

    /// The horizontal window: `out[i]` = Σ_k t_k · `row[i + k]`, k = 0…10, for i in 0 ..< `count`.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func filterRow(_ row: UnsafePointer<Float>, _ out: UnsafeMutablePointer<Float>, _ count: Int, _ t: Taps) {
        for i in 0..<count {
            let s = row + i
            var a = t.5 * s[5]
            a += t.0 * (s[0] + s[10])
            a += t.1 * (s[1] + s[9])
            a += t.2 * (s[2] + s[8])
            a += t.3 * (s[3] + s[7])
            a += t.4 * (s[4] + s[6])
            out[i] = a
        }
    }

    /// The vertical window over the ring: `out[i]` = Σ_k t_k · (row k of the window)`[i]`, k = 0…10,
    /// where row k is `column` in ring slot (`oldest` + k) mod `slots` and slots are `slotSize` apart.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func filterColumns(_ column: UnsafePointer<Float>, oldest: Int, slots: Int, slotSize: Int,
                                      _ out: UnsafeMutablePointer<Float>, _ count: Int, _ t: Taps) {
        func row(_ k: Int) -> UnsafePointer<Float> { column + ((oldest + k) % slots) * slotSize }
        let r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3), r4 = row(4), r5 = row(5)
        let r6 = row(6), r7 = row(7), r8 = row(8), r9 = row(9), r10 = row(10)
        for i in 0..<count {
            var a = t.5 * r5[i]
            a += t.0 * (r0[i] + r10[i])
            a += t.1 * (r1[i] + r9[i])
            a += t.2 * (r2[i] + r8[i])
            a += t.3 * (r3[i] + r7[i])
            a += t.4 * (r4[i] + r6[i])
            out[i] = a
        }
    }

    /// ``filterColumns(_:oldest:slots:slotSize:_:_:_:)`` for four consecutive output rows at once
    /// (row b written at `out + b·outStride`), each computed with the same operations in the same
    /// order as alone; the 14 input rows are read once for all four.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func filterColumnsFour(_ column: UnsafePointer<Float>, oldest: Int, slots: Int, slotSize: Int,
                                          _ out: UnsafeMutablePointer<Float>, _ outStride: Int, _ count: Int, _ t: Taps) {
        func row(_ k: Int) -> UnsafePointer<Float> { column + ((oldest + k) % slots) * slotSize }
        let r0 = row(0), r1 = row(1), r2 = row(2), r3 = row(3), r4 = row(4), r5 = row(5), r6 = row(6)
        let r7 = row(7), r8 = row(8), r9 = row(9), r10 = row(10), r11 = row(11), r12 = row(12), r13 = row(13)
        let o0 = out, o1 = o0 + outStride, o2 = o1 + outStride, o3 = o2 + outStride
        for i in 0..<count {
            var a = t.5 * r5[i]
            a += t.0 * (r0[i] + r10[i])
            a += t.1 * (r1[i] + r9[i])
            a += t.2 * (r2[i] + r8[i])
            a += t.3 * (r3[i] + r7[i])
            a += t.4 * (r4[i] + r6[i])
            o0[i] = a
            var b = t.5 * r6[i]
            b += t.0 * (r1[i] + r11[i])
            b += t.1 * (r2[i] + r10[i])
            b += t.2 * (r3[i] + r9[i])
            b += t.3 * (r4[i] + r8[i])
            b += t.4 * (r5[i] + r7[i])
            o1[i] = b
            var c = t.5 * r7[i]
            c += t.0 * (r2[i] + r12[i])
            c += t.1 * (r3[i] + r11[i])
            c += t.2 * (r4[i] + r10[i])
            c += t.3 * (r5[i] + r9[i])
            c += t.4 * (r6[i] + r8[i])
            o2[i] = c
            var d = t.5 * r8[i]
            d += t.0 * (r3[i] + r13[i])
            d += t.1 * (r4[i] + r12[i])
            d += t.2 * (r5[i] + r11[i])
            d += t.3 * (r6[i] + r10[i])
            d += t.4 * (r7[i] + r9[i])
            o3[i] = d
        }
    }

    /// The per-pixel SSIM and cs of one filtered row of one plane: μx, μy, G∗(x² + y²),
    /// G∗(x − y)², centred.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func score(_ meanX: UnsafePointer<Float>, _ meanY: UnsafePointer<Float>,
                              _ squares: UnsafePointer<Float>, _ differences: UnsafePointer<Float>,
                              _ ssim: UnsafeMutablePointer<Float>, _ cs: UnsafeMutablePointer<Float>, _ count: Int) {
        let c1 = Float(SSIM.c1), c2 = Float(SSIM.c2)
        for i in 0..<count {
            let mx = meanX[i], my = meanY[i], dm = mx - my
            let sigmaSum = squares[i] - mx * mx - my * my
            let sigmaDiff = differences[i] - dm * dm
            let ux = mx + centre, uy = my + centre
            let structure = (sigmaSum - sigmaDiff + c2) / (sigmaSum + c2)
            let luminance = (2 * ux * uy + c1) / (ux * ux + uy * uy + c1)
            ssim[i] = luminance * structure
            cs[i] = structure
        }
    }

    /// Adds each plane's row of SSIM values to `sums[p]` and its row of cs values to
    /// `sums[P + p]`: one `Float` running sum per plane and term, in pixel order.
    @inline(never)  // compiled alone, where the vectorizer sees the plain loop
    private static func addRows(_ ssim: UnsafePointer<Float>, _ cs: UnsafePointer<Float>, planes: Int,
                                count: Int, to sums: UnsafeMutablePointer<Double>) {
        if planes == 4 {
            // The eight running sums side by side, so they do not wait for each other.
            let s1 = ssim + count, s2 = s1 + count, s3 = s2 + count
            let c1 = cs + count, c2 = c1 + count, c3 = c2 + count
            var a0: Float = 0, a1: Float = 0, a2: Float = 0, a3: Float = 0
            var b0: Float = 0, b1: Float = 0, b2: Float = 0, b3: Float = 0
            for i in 0..<count {
                a0 += ssim[i]; a1 += s1[i]; a2 += s2[i]; a3 += s3[i]
                b0 += cs[i]; b1 += c1[i]; b2 += c2[i]; b3 += c3[i]
            }
            sums[0] += Double(a0); sums[1] += Double(a1); sums[2] += Double(a2); sums[3] += Double(a3)
            sums[4] += Double(b0); sums[5] += Double(b1); sums[6] += Double(b2); sums[7] += Double(b3)
            return
        }
        for p in 0..<planes {
            var a: Float = 0, b: Float = 0
            for i in 0..<count { a += ssim[p * count + i]; b += cs[p * count + i] }
            sums[p] += Double(a)
            sums[planes + p] += Double(b)
        }
    }
}
