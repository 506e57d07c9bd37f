import ImageCore

extension PixelStatistics {
    /// ``accumulate(_:_:rows:backgrounds:tolerance:)`` for two RGB value images (3 channels:
    /// every pixel opaque, one visible view, no compositing), with the same results up to the
    /// rounding of the sums and the `Float` ΔE00 below.
    ///
    /// Each row goes in segments of up to 1 024 pixels. First the exact, bias, bucket and visible
    /// RGB error figures of the segment, all integers (``OpaqueSegmentSums``, two vectorized
    /// loops); then its differing pixels' inputs are collected into a block of 64, and each full
    /// block (and the band's last) gets its CIELAB differences and CIEDE2000 in one vectorized
    /// `Float` loop (``CIEDE2000/floatDifferences(block:count:)``, error analysis at
    /// ``CIEDE2000/floatDifference(_:)``: ΔE00 within 1e-5·max(1, ΔE00) of the scalar `Double` value;
    /// achromatic pairs, nearly opposite hues and pairs across the CIELAB knee take the scalar
    /// path), then their ΔE00 histogram bins in a second vectorized loop (``deltaEBin(_:)``).
    /// Exact, bias, maxima, buckets and counts are those of the general pass bit for bit;
    /// the visible sums (Σ|Δ|, Σ Δ², Σ ΔY′²) are exact integer sums divided once, so they differ
    /// from the general pass's running `Double` sums only by that pass's rounding (relative
    /// ≲ n·2⁻⁵³ for n pixels); the mean ΔE00 and the cast agree to ~1e-6, and a pixel's ΔE00
    /// within 1e-5 of a 0.001 bin edge may land in the neighbouring bin (so p95 / p99 may move
    /// by one bin, 0.001).
    mutating func accumulateOpaque(_ e: ValueImage, _ a: ValueImage, rows: Range<Int>, tolerance: Double) {
        precondition(e.channels == 3 && a.channels == 3, "the opaque pass reads RGB value images")
        let w = e.width
        let unit = ValueImage.perEightBitUnit
        // pixelMax > tolerance·257 for an integer pixelMax in 1…65535 ⇔ pixelMax > overThreshold
        // (the floor of the bound; none above NaN or 65535, all above a negative bound).
        let toleranceRaw = tolerance * unit
        let overThreshold: Int32 = toleranceRaw.isNaN ? Int32.max
            : toleranceRaw < 0 ? -1 : toleranceRaw >= 65535 ? 65535 : Int32(toleranceRaw.rounded(.down))
        // The 8 bucket edges compared (the last, 255 codes, is above every |Δ|), floored like the threshold.
        let edge = PixelStatistics.bucketEdges.map { Int32(($0 * unit).rounded(.down)) }
        let edges = (edge[0], edge[1], edge[2], edge[3], edge[4], edge[5], edge[6], edge[7])
        // The histogram is moved out (not copied: `visible[0]` would still share its storage).
        var histogram: [UInt32] = []
        swap(&histogram, &visible[0].histogram)
        var v = visible[0]
        // The differing pixels' inputs of ``CIEDE2000/floatDifferences(block:count:)`` (linear-light
        // differences taken in `Double`), 64 at a time, and each one's first sample index.
        let n = FloatDifferenceBlock.lanes
        var block = [Float](repeating: 0, count: FloatDifferenceBlock.floats)
        var sampleIndices = [Int](repeating: 0, count: n)
        // Each column's ΔE00 histogram bin (``deltaEBin(_:)``), taken in a vectorized loop.
        var binIndices = [Int](repeating: 0, count: n)
        // Integer totals of the band (|Σ| ≤ pixels · 65535, far inside Int) and the squares' sums.
        var mR = 0, mG = 0, mB = 0, biasR = 0, biasG = 0, biasB = 0, sumMax = 0, over = 0
        var above = [Int](repeating: 0, count: 8)
        var squaredR = 0.0, squaredG = 0.0, squaredB = 0.0, squaredY = 0.0
        // The ΔE00 accumulators live in the closure below as locals (captured variables would be
        // boxed, every update a load and a store) and are folded into `self` after it.
        histogram.withUnsafeMutableBufferPointer { hist in
        block.withUnsafeMutableBufferPointer { block in
        sampleIndices.withUnsafeMutableBufferPointer { sampleIndices in
        binIndices.withUnsafeMutableBufferPointer { binIndices in
        e.withSamples { es in
        a.withSamples { as_ in
        PixelStatistics.linearOf16.withUnsafeBufferPointer { lut in
            // Base pointers: the loops below index them directly (no optional base per access).
            guard let blk = block.baseAddress,
                  let linear = lut.baseAddress, let bins = hist.baseAddress, let indices = sampleIndices.baseAddress,
                  let binOf = binIndices.baseAddress else { return }
            // The block's rows, each ``FloatDifferenceBlock/lanes`` floats (offsets taken once, so
            // the per-pixel stores and loads carry no offset arithmetic or overflow checks).
            typealias B = FloatDifferenceBlock
            let greenRow = blk, redMinusGreenRow = blk + n, blueMinusGreenRow = blk + 2 * n
            let actualRedMinusGreenRow = blk + 3 * n, actualBlueMinusGreenRow = blk + 4 * n
            let dRedRow = blk + 5 * n, dGreenRow = blk + 6 * n, dBlueRow = blk + 7 * n
            let deltaERow = blk + B.deltaE * n, dLRow = blk + B.dL * n, dARow = blk + B.dA * n, dBRow = blk + B.dB * n
            let scalarRow = blk + B.scalar * n
            var sumDL = v.sumDL, sumDA = v.sumDA, sumDB = v.sumDB, sumDE = v.sumDE, maxDE = v.maxDE
            var filled = 0
            // CIELAB differences and ΔE00 of the block's first `filled` pairs, then their sums in
            // pixel order. Unused columns up to a multiple of 8 repeat the first pair (a regular
            // colour pair; their results are never read), so the vector loop has no remainder.
            @inline(__always) func flush() {
                var k = filled
                while k % 8 != 0 {
                    for row in 0..<8 { blk[row * n + k] = blk[row * n] }
                    k += 1
                }
                CIEDE2000.floatDifferences(block: blk, count: k)
                for lane in 0..<k { binOf[lane] = PixelStatistics.deltaEBin(Double(deltaERow[lane])) }
                for lane in 0..<filled {
                    var bin = binOf[lane]
                    var de = Double(deltaERow[lane]), dl = Double(dLRow[lane]), da = Double(dARow[lane]), db = Double(dBRow[lane])
                    if scalarRow[lane] != 0 {
                        let i = indices[lane]
                        let (labE, labA) = CIELab.labPair((linear[Int(es[i])], linear[Int(es[i + 1])], linear[Int(es[i + 2])]),
                                                          (linear[Int(as_[i])], linear[Int(as_[i + 1])], linear[Int(as_[i + 2])]))
                        de = CIEDE2000.fastDifference(labE, labA)
                        dl = labA.l - labE.l
                        da = labA.a - labE.a
                        db = labA.b - labE.b
                        bin = PixelStatistics.deltaEBin(de)
                    }
                    sumDL += dl
                    sumDA += da
                    sumDB += db
                    sumDE += de
                    maxDE = max(maxDE, de)
                    // A bin counts at most a band's pixels: 2³² of them would be 24 GiB of samples per image.
                    bins[bin] &+= 1
                }
                filled = 0
            }
            for y in rows {
                var start = 0
                while start < w {
                    let count = min(OpaqueSegmentSums.maxPixels, w - start)
                    let first = (y * w + start) * 3
                    // The segment as 16-bit samples (an 8-bit image's codes widened into a stack buffer).
                    es.withSixteenBit(from: first, count: count * 3) { eBase in
                    as_.withSixteenBit(from: first, count: count * 3) { aBase in
                    let s = OpaqueSegmentSums(expected: eBase, actual: aBase, count: count,
                                              edges: edges, overThreshold: overThreshold)
                    mR = max(mR, Int(s.maxR)); mG = max(mG, Int(s.maxG)); mB = max(mB, Int(s.maxB))
                    biasR += Int(s.biasR); biasG += Int(s.biasG); biasB += Int(s.biasB)
                    sumMax += Int(s.sumMax)
                    over += Int(s.over)
                    above[0] += Int(s.above.0); above[1] += Int(s.above.1); above[2] += Int(s.above.2); above[3] += Int(s.above.3)
                    above[4] += Int(s.above.4); above[5] += Int(s.above.5); above[6] += Int(s.above.6); above[7] += Int(s.above.7)
                    squaredR += Double(s.squaredR); squaredG += Double(s.squaredG); squaredB += Double(s.squaredB)
                    squaredY += Double(s.squaredY)
                    // The differing pixels' linear-light inputs, in pixel order.
                    for i in stride(from: 0, to: count * 3, by: 3) {
                        let er = Int(eBase[i]), eg = Int(eBase[i &+ 1]), eb = Int(eBase[i &+ 2])
                        let ar = Int(aBase[i]), ag = Int(aBase[i &+ 1]), ab = Int(aBase[i &+ 2])
                        if er == ar && eg == ag && eb == ab { continue }
                        let ler = linear[er], leg = linear[eg], leb = linear[eb], lar = linear[ar], lag = linear[ag], lab = linear[ab]
                        greenRow[filled] = Float(leg); redMinusGreenRow[filled] = Float(ler - leg); blueMinusGreenRow[filled] = Float(leb - leg)
                        actualRedMinusGreenRow[filled] = Float(lar - lag); actualBlueMinusGreenRow[filled] = Float(lab - lag)
                        dRedRow[filled] = Float(lar - ler); dGreenRow[filled] = Float(lag - leg); dBlueRow[filled] = Float(lab - leb)
                        indices[filled] = first + i
                        filled += 1
                        if filled == n { flush() }
                    }
                    }
                    }
                    start += count
                }
            }
            if filled > 0 { flush() }
            v.sumDL = sumDL; v.sumDA = sumDA; v.sumDB = sumDB; v.sumDE = sumDE; v.maxDE = maxDE
        }
        }
        }
        }
        }
        }
        }
        let bandPixelCount = rows.count * w
        let equal = bandPixelCount - above[0]
        histogram[0] += UInt32(equal)
        v.histogram = histogram
        v.maxAbs = max(v.maxAbs, Double(max(mR, mG, mB)) / unit)
        v.differing += above[0]
        v.sumAbs += Double(sumMax) / unit
        v.squared += SIMD4(squaredR, squaredG, squaredB, 0) / (unit * unit)
        v.squaredY += squaredY / (1_000_000 * unit * unit)
        visible[0] = v
        pixels += bandPixelCount
        maxAbs = [Double(mR) / unit, Double(mG) / unit, Double(mB) / unit, 0]
        // Bucket 0 holds the equal pixels, bucket b those above edge b − 1 and not above edge b,
        // the last those above edge 7.
        buckets = [equal] + (1..<8).map { above[$0 - 1] - above[$0] } + [above[7]]
        overTolerance = over
        differing = above[0]
        bandPixels[0] = bandPixelCount
        biasSums[0] = [Double(biasR) / unit, Double(biasG) / unit, Double(biasB) / unit, 0]
    }

    /// The ΔE00 histogram bin of `deltaE` (≥ 0): the ceiling of the `Double` product
    /// deltaE · (1 / ``deltaEStep``) = deltaE · 1000 (exact for a `Float` ΔE00: 24 + 10 bits),
    /// capped at the last bin; both pixel passes bin with it. Branch-free and
    /// without a libm call or a checked conversion, so a loop of it is vectorized: adding 2⁵²
    /// rounds the product (0…200 000) to the nearest integer r, held in the sum's low mantissa
    /// bits; the ceiling is r, or r + 1 where r is below the product.
    @inline(__always)
    static func deltaEBin(_ deltaE: Double) -> Int {
        let lastBin = Double(deltaEBins - 1)
        let scaled = min(deltaE * (1 / deltaEStep), lastBin)
        let shifted = scaled + 0x1p52
        let nearest = Int(Int64(bitPattern: shifted.bitPattern) &- Int64(bitPattern: (0x1p52 as Double).bitPattern))
        return nearest &+ (shifted - 0x1p52 < scaled ? 1 : 0)
    }
}
