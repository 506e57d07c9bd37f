import ImageCore

extension PixelStatistics {
    /// ``accumulate(_:_:rows:backgrounds:tolerance:)`` for two RGB value images (3 channels:
    /// every pixel opaque, one visible view, no compositing), with the same results up to the `Float` ΔE00 below.
    ///
    /// One integer pass per pixel for exact, bias and the visible error sums (tables for the
    /// bucket and the quotients by 257), which collects the differing pixels' inputs into a
    /// block of 64; each full block (and the band's last) gets its CIELAB differences and
    /// CIEDE2000 in one vectorized `Float` loop (``CIEDE2000/floatDifferences(block:count:)``,
    /// error analysis at ``CIEDE2000/floatDifference(_:)``: ΔE00 within ~1e-5·ΔE00 of the scalar
    /// `Double` value; achromatic pairs, nearly opposite hues and pairs across the CIELAB knee
    /// take the scalar path). Every sum still receives its terms one pixel at a time in pixel
    /// order, in `Double`. Exact, bias, maxima, buckets and the visible RGB error sums are those
    /// of the general pass bit for bit; the mean ΔE00 and the cast agree to ~1e-6, and a pixel's
    /// ΔE00 within 1e-5 of a 0.001 bin edge may land in the neighbouring bin (so p95 / p99 may
    /// move by one bin, 0.001).
    mutating func accumulateOpaque(_ e: ValueImage, _ a: ValueImage, rows: Range<Int>, tolerance: Double) {
        precondition(e.channels == 3 && a.channels == 3, "the opaque pass reads RGB value images")
        let w = e.width
        let unit = ValueImage.perEightBitUnit
        // pixelMax > tolerance·257 for an integer pixelMax in 1…65535 ⇔ pixelMax > overThreshold
        // (the floor of the bound; none above NaN or 65535, all above a negative bound): an
        // integer comparison in the loop (a conversion to `Double` there carried a dependency on
        // its register's previous value).
        let toleranceRaw = tolerance * unit
        let overThreshold = toleranceRaw.isNaN ? Int.max
            : toleranceRaw < 0 ? -1 : toleranceRaw >= 65535 ? 65535 : Int(toleranceRaw.rounded(.down))
        let binScale = 1 / PixelStatistics.deltaEStep
        let lastBin = Double(PixelStatistics.deltaEBins - 1)
        var v = visible[0]
        var histogram = v.histogram
        v.histogram = []
        var bucketCounts = [Int](repeating: 0, count: PixelStatistics.bucketEdges.count)
        // The differing pixels' inputs of ``CIEDE2000/floatDifferences(block:count:)`` (linear-light
        // differences taken in `Double`), 64 at a time, and each one's first sample index.
        let n = FloatDifferenceBlock.lanes
        var block = [Float](repeating: 0, count: FloatDifferenceBlock.floats)
        var sampleIndices = [Int](repeating: 0, count: n)
        // The accumulators live in the closure below as locals (captured variables would be
        // boxed, every update a load and a store) and are folded into `self` after it.
        var integerSums = (mR: 0, mG: 0, mB: 0, over: 0, diff: 0, biasR: 0, biasG: 0, biasB: 0)
        histogram.withUnsafeMutableBufferPointer { hist in
        bucketCounts.withUnsafeMutableBufferPointer { bucketCounts in
        block.withUnsafeMutableBufferPointer { block in
        sampleIndices.withUnsafeMutableBufferPointer { sampleIndices in
        e.samples.withUnsafeBufferPointer { es in
        a.samples.withUnsafeBufferPointer { as_ in
        PixelStatistics.linearOf16.withUnsafeBufferPointer { lut in
        PixelStatistics.bucketOfDifference.withUnsafeBufferPointer { bucketOf in
        PixelStatistics.eightBitUnitsOfDifference.withUnsafeBufferPointer { unitsOf in
            guard let blk = block.baseAddress else { return }
            var mR = 0, mG = 0, mB = 0, over = 0, diff = 0, equal = 0
            // Bias sums of integers: exact in Int, as they were exact in Double (|Σ| < 2⁵³).
            var biasR = 0, biasG = 0, biasB = 0
            var sumAbs = v.sumAbs, squared = v.squared, squaredY = v.squaredY
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
                for lane in 0..<filled {
                    var de = Double(blk[FloatDifferenceBlock.deltaE * n + lane])
                    var dl = Double(blk[FloatDifferenceBlock.dL * n + lane])
                    var da = Double(blk[FloatDifferenceBlock.dA * n + lane])
                    var db = Double(blk[FloatDifferenceBlock.dB * n + lane])
                    if blk[FloatDifferenceBlock.scalar * n + lane] != 0 {
                        let i = sampleIndices[lane]
                        let (labE, labA) = CIELab.labPair((lut[Int(es[i])], lut[Int(es[i + 1])], lut[Int(es[i + 2])]),
                                                          (lut[Int(as_[i])], lut[Int(as_[i + 1])], lut[Int(as_[i + 2])]))
                        de = CIEDE2000.fastDifference(labE, labA)
                        dl = labA.l - labE.l
                        da = labA.a - labE.a
                        db = labA.b - labE.b
                    }
                    sumDL += dl
                    sumDA += da
                    sumDB += db
                    sumDE += de
                    maxDE = max(maxDE, de)
                    // ⌈de·1000⌉ capped at the last bin (de ≥ 0): the truncation, plus one
                    // below a fractional part (`rounded(.up)` is a libm call here).
                    let scaled = min(de * binScale, lastBin)
                    let truncated = Int(scaled)
                    hist[truncated + (Double(truncated) < scaled ? 1 : 0)] += 1
                }
                filled = 0
            }
            for y in rows {
                let rowStart = y * w * 3
                for x in 0..<w {
                    let i = rowStart + x * 3
                    let er = Int(es[i]), eg = Int(es[i + 1]), eb = Int(es[i + 2])
                    let ar = Int(as_[i]), ag = Int(as_[i + 1]), ab = Int(as_[i + 2])
                    let dr = ar - er, dg = ag - eg, db = ab - eb
                    let adr = abs(dr), adg = abs(dg), adb = abs(db)
                    mR = max(mR, adr); mG = max(mG, adg); mB = max(mB, adb)
                    let pixelMax = max(adr, adg, adb)
                    biasR += dr; biasG += dg; biasB += db
                    if pixelMax == 0 { equal += 1; continue }
                    diff += 1
                    over += pixelMax > overThreshold ? 1 : 0
                    bucketCounts[Int(bucketOf[pixelMax])] += 1
                    // Visible (no compositing): the general pass's arithmetic, term by term,
                    // its quotients by 257 read from a table.
                    let d0 = unitsOf[dr + 65535], d1 = unitsOf[dg + 65535], d2 = unitsOf[db + 65535]
                    sumAbs += unitsOf[pixelMax + 65535]
                    let d = SIMD4<Double>(d0, d1, d2, 0)
                    squared += d * d
                    let dy = 0.299 * d0 + 0.587 * d1 + 0.114 * d2
                    squaredY += dy * dy
                    let ler = lut[er], leg = lut[eg], leb = lut[eb], lar = lut[ar], lag = lut[ag], lab = lut[ab]
                    let column = blk + filled
                    column[0] = Float(leg); column[n] = Float(ler - leg); column[2 * n] = Float(leb - leg)
                    column[3 * n] = Float(lar - lag); column[4 * n] = Float(lab - lag)
                    column[5 * n] = Float(lar - ler); column[6 * n] = Float(lag - leg); column[7 * n] = Float(lab - leb)
                    sampleIndices[filled] = i
                    filled += 1
                    if filled == n { flush() }
                }
            }
            if filled > 0 { flush() }
            bucketCounts[0] += equal
            hist[0] += UInt32(equal)
            integerSums = (mR, mG, mB, over, diff, biasR, biasG, biasB)
            v.sumAbs = sumAbs; v.squared = squared; v.squaredY = squaredY
            v.sumDL = sumDL; v.sumDA = sumDA; v.sumDB = sumDB; v.sumDE = sumDE; v.maxDE = maxDE
        }
        }
        }
        }
        }
        }
        }
        }
        }
        v.histogram = histogram
        let t = integerSums
        v.maxAbs = max(v.maxAbs, Double(max(t.mR, t.mG, t.mB)) / unit)
        v.differing += t.diff
        visible[0] = v
        pixels += rows.count * w
        maxAbs = [Double(t.mR) / unit, Double(t.mG) / unit, Double(t.mB) / unit, 0]
        buckets = bucketCounts
        overTolerance = t.over
        differing = t.diff
        bandPixels[0] = rows.count * w
        biasSums[0] = [Double(t.biasR) / unit, Double(t.biasG) / unit, Double(t.biasB) / unit, 0]
    }
}
