import ImageCore

extension PixelStatistics {
    /// ``accumulate(_:_:rows:backgrounds:tolerance:)`` for two RGB value images (3 channels:
    /// every pixel opaque, one visible view, no compositing), with the same results up to the `Float` ΔE00 below.
    ///
    /// Each row is read twice: an integer pass for exact, bias and the visible error sums,
    /// which collects the differing pixels, then their CIELAB differences and CIEDE2000 eight
    /// pixels at a time in `Float` lanes read from plain arrays
    /// (``CIEDE2000/floatDifferences(_:)``, error analysis there: ΔE00 within ~1e-5·ΔE00 of
    /// the scalar `Double` value; achromatic pairs, nearly opposite hues and pairs across the CIELAB
    /// knee take the scalar path). Every sum still receives its terms one pixel at a time in
    /// pixel order, in `Double`. Exact, bias, maxima, buckets and the visible RGB error sums
    /// are those of the general pass bit for bit; the mean ΔE00 and the cast agree to ~1e-6,
    /// and a pixel's ΔE00 within 1e-5 of a 0.001 bin edge may land in the neighbouring bin
    /// (so p95 / p99 may move by one bin, 0.001).
    mutating func accumulateOpaque(_ e: ValueImage, _ a: ValueImage, rows: Range<Int>, tolerance: Double) {
        precondition(e.channels == 3 && a.channels == 3, "the opaque pass reads RGB value images")
        let w = e.width
        let unit = ValueImage.perEightBitUnit
        let toleranceRaw = tolerance * unit
        let binScale = 1 / PixelStatistics.deltaEStep
        let lastBin = Double(PixelStatistics.deltaEBins - 1)
        var v = visible[0]
        var histogram = v.histogram
        v.histogram = []
        var bucketCounts = [Int](repeating: 0, count: PixelStatistics.bucketEdges.count)
        // Per row: the differing pixels' linear-light inputs of
        // ``CIEDE2000/floatDifferences(_:)`` (eight `Float` arrays, differences taken in
        // `Double`), read eight lanes at a time, their column, and their Lab differences and
        // ΔE00. Rows are padded to a multiple of 8 lanes.
        let lanes = (w + 7) / 8 * 8
        var linear = [Float](repeating: 0, count: 8 * lanes)
        var columns = [Int](repeating: 0, count: lanes)
        var results = [Double](repeating: 0, count: 4 * lanes)
        // The accumulators live in the closure below as locals (captured variables would be
        // boxed, every update a load and a store) and are folded into `self` after it.
        var integerSums = (mR: 0, mG: 0, mB: 0, over: 0, diff: 0, biasR: 0, biasG: 0, biasB: 0)
        histogram.withUnsafeMutableBufferPointer { hist in
        bucketCounts.withUnsafeMutableBufferPointer { bucketCounts in
        linear.withUnsafeMutableBufferPointer { linear in
        columns.withUnsafeMutableBufferPointer { columns in
        results.withUnsafeMutableBufferPointer { results in
        e.samples.withUnsafeBufferPointer { es in
        a.samples.withUnsafeBufferPointer { as_ in
        PixelStatistics.linearOf16.withUnsafeBufferPointer { lut in
        PixelStatistics.bucketOfDifference.withUnsafeBufferPointer { bucketOf in
        PixelStatistics.eightBitUnitsOfDifference.withUnsafeBufferPointer { unitsOf in
            guard let lin = linear.baseAddress, let out = results.baseAddress else { return }
            let g1 = lin, rg1 = lin + lanes, bg1 = lin + 2 * lanes, rg2 = lin + 3 * lanes, bg2 = lin + 4 * lanes
            let dr = lin + 5 * lanes, dg = lin + 6 * lanes, db = lin + 7 * lanes
            let dL = out, dA = out + lanes, dB = out + 2 * lanes, dE = out + 3 * lanes
            let width = FloatLanes.scalarCount
            @inline(__always) func load(_ p: UnsafeMutablePointer<Float>, _ k: Int) -> FloatLanes {
                UnsafeRawPointer(p + k).loadUnaligned(as: FloatLanes.self)
            }
            @inline(__always) func store(_ v: FloatLanes, _ p: UnsafeMutablePointer<Double>, _ k: Int) {
                UnsafeMutableRawPointer(p + k).storeBytes(of: SIMD8<Double>(v), as: SIMD8<Double>.self)
            }
            var mR = 0, mG = 0, mB = 0, over = 0, diff = 0, equal = 0
            // Bias sums of integers: exact in Int, as they were exact in Double (|Σ| < 2⁵³).
            var biasR = 0, biasG = 0, biasB = 0
            var sumAbs = v.sumAbs, squared = v.squared, squaredY = v.squaredY
            var sumDL = v.sumDL, sumDA = v.sumDA, sumDB = v.sumDB, sumDE = v.sumDE, maxDE = v.maxDE
            for y in rows {
                let rowStart = y * w * 3
                var count = 0
                for x in 0..<w {
                    let i = rowStart + x * 3
                    let er = Int(es[i]), eg = Int(es[i + 1]), eb = Int(es[i + 2])
                    let ar = Int(as_[i]), ag = Int(as_[i + 1]), ab = Int(as_[i + 2])
                    let dr_ = ar - er, dg_ = ag - eg, db_ = ab - eb
                    let adr = abs(dr_), adg = abs(dg_), adb = abs(db_)
                    mR = max(mR, adr); mG = max(mG, adg); mB = max(mB, adb)
                    let pixelMax = max(adr, adg, adb)
                    biasR += dr_; biasG += dg_; biasB += db_
                    if pixelMax == 0 { equal += 1; continue }
                    diff += 1
                    over += Double(pixelMax) > toleranceRaw ? 1 : 0
                    bucketCounts[Int(bucketOf[pixelMax])] += 1
                    // Visible (no compositing): the general pass's arithmetic, term by term,
                    // its quotients by 257 read from a table.
                    let d0 = unitsOf[dr_ + 65535], d1 = unitsOf[dg_ + 65535], d2 = unitsOf[db_ + 65535]
                    sumAbs += unitsOf[pixelMax + 65535]
                    let d = SIMD4<Double>(d0, d1, d2, 0)
                    squared += d * d
                    let dy = 0.299 * d0 + 0.587 * d1 + 0.114 * d2
                    squaredY += dy * dy
                    let ler = lut[er], leg = lut[eg], leb = lut[eb], lar = lut[ar], lag = lut[ag], lab = lut[ab]
                    g1[count] = Float(leg); rg1[count] = Float(ler - leg); bg1[count] = Float(leb - leg)
                    rg2[count] = Float(lar - lag); bg2[count] = Float(lab - lag)
                    dr[count] = Float(lar - ler); dg[count] = Float(lag - leg); db[count] = Float(lab - leb)
                    columns[count] = x
                    count += 1
                }
                guard count > 0 else { continue }
                // Unused lanes of the last group repeat the row's first differing pixel
                // (a regular colour pair; their results are never read).
                var k = count
                while k % 8 != 0 {
                    for c in 0..<8 { lin[c * lanes + k] = lin[c * lanes] }
                    k += 1
                }
                // CIELAB differences and ΔE00, eight differing pixels per step; the lanes the
                // `Float` form leaves out (achromatic, opposite hues, across the knee ε) by
                // the scalar `Double` path.
                for start in Swift.stride(from: 0, to: count, by: width) {
                    let r = CIEDE2000.floatDifferences(LinearPairLanes(
                        green: load(g1, start), redMinusGreen: load(rg1, start), blueMinusGreen: load(bg1, start),
                        actualRedMinusGreen: load(rg2, start), actualBlueMinusGreen: load(bg2, start),
                        dRed: load(dr, start), dGreen: load(dg, start), dBlue: load(db, start)))
                    store(r.deltaE, dE, start)
                    store(r.dL, dL, start)
                    store(r.dA, dA, start)
                    store(r.dB, dB, start)
                    if ElementaryFloatLanes.anyLane(r.scalar) {
                        for lane in 0..<width where r.scalar[lane] && start + lane < count {
                            let i = rowStart + columns[start + lane] * 3
                            let (labE, labA) = CIELab.labPair((lut[Int(es[i])], lut[Int(es[i + 1])], lut[Int(es[i + 2])]),
                                                              (lut[Int(as_[i])], lut[Int(as_[i + 1])], lut[Int(as_[i + 2])]))
                            dE[start + lane] = CIEDE2000.fastDifference(labE, labA)
                            dL[start + lane] = labA.l - labE.l
                            dA[start + lane] = labA.a - labE.a
                            dB[start + lane] = labA.b - labE.b
                        }
                    }
                }
                for k in 0..<count {
                    sumDL += dL[k]
                    sumDA += dA[k]
                    sumDB += dB[k]
                    let de = dE[k]
                    sumDE += de
                    maxDE = max(maxDE, de)
                    // ⌈de·1000⌉ capped at the last bin (de ≥ 0): the truncation, plus one
                    // below a fractional part (`rounded(.up)` is a libm call here).
                    let scaled = min(de * binScale, lastBin)
                    let truncated = Int(scaled)
                    hist[truncated + (Double(truncated) < scaled ? 1 : 0)] += 1
                }
            }
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
