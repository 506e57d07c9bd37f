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
        let edgesRaw = PixelStatistics.bucketEdges.map { $0 * unit }
        let toleranceRaw = tolerance * unit
        let binScale = 1 / PixelStatistics.deltaEStep
        let lastBin = PixelStatistics.deltaEBins - 1
        var mR = 0, mG = 0, mB = 0
        var bucketCounts = [Int](repeating: 0, count: edgesRaw.count)
        var over = 0, diff = 0
        // Bias sums of integers: exact in Int, as they were exact in Double (|Σ| < 2⁵³).
        var biasR = 0, biasG = 0, biasB = 0
        var v = visible[0]
        var histogram = v.histogram
        v.histogram = []
        // Per row: the differing pixels' linear-light inputs of
        // ``CIEDE2000/floatDifferences(_:)`` (eight `Float` arrays, differences taken in
        // `Double`), read eight lanes at a time, their column, and their Lab differences and
        // ΔE00. Rows are padded to a multiple of 8 lanes.
        let lanes = (w + 7) / 8 * 8
        var linear = [Float](repeating: 0, count: 8 * lanes)
        var columns = [Int](repeating: 0, count: lanes)
        var results = [Double](repeating: 0, count: 4 * lanes)
        histogram.withUnsafeMutableBufferPointer { hist in
        bucketCounts.withUnsafeMutableBufferPointer { bucketCounts in
        linear.withUnsafeMutableBufferPointer { linear in
        columns.withUnsafeMutableBufferPointer { columns in
        results.withUnsafeMutableBufferPointer { results in
        e.samples.withUnsafeBufferPointer { es in
        a.samples.withUnsafeBufferPointer { as_ in
        PixelStatistics.linearOf16.withUnsafeBufferPointer { lut in
            guard let lin = linear.baseAddress, let out = results.baseAddress else { return }
            let g1 = lin, rg1 = lin + lanes, bg1 = lin + 2 * lanes, rg2 = lin + 3 * lanes, bg2 = lin + 4 * lanes
            let dr = lin + 5 * lanes, dg = lin + 6 * lanes, db = lin + 7 * lanes
            let dL = out, dA = out + lanes, dB = out + 2 * lanes, dE = out + 3 * lanes
            let width = FloatLanes.scalarCount
            @inline(__always) func load(_ p: UnsafeMutablePointer<Float>, _ k: Int) -> FloatLanes {
                UnsafeRawPointer(p + k).loadUnaligned(as: FloatLanes.self)
            }
            @inline(__always) func store(_ v: FloatLanes, _ p: UnsafeMutablePointer<Double>, _ k: Int) {
                for lane in 0..<width { p[k + lane] = Double(v[lane]) }
            }
            for y in rows {
                let rowStart = y * w * 3
                var count = 0
                for x in 0..<w {
                    let i = rowStart + x * 3
                    let er = Int(es[i]), eg = Int(es[i + 1]), eb = Int(es[i + 2])
                    let ar = Int(as_[i]), ag = Int(as_[i + 1]), ab = Int(as_[i + 2])
                    let dr_ = ar - er, dg_ = ag - eg, db_ = ab - eb
                    let adr = abs(dr_), adg = abs(dg_), adb = abs(db_)
                    if adr > mR { mR = adr }
                    if adg > mG { mG = adg }
                    if adb > mB { mB = adb }
                    let pixelMax = max(adr, adg, adb)
                    biasR += dr_; biasG += dg_; biasB += db_
                    if pixelMax == 0 { bucketCounts[0] += 1; hist[0] += 1; continue }
                    diff += 1
                    let pm = Double(pixelMax)
                    if pm > toleranceRaw { over += 1 }
                    var bucket = 0
                    while bucket < edgesRaw.count - 1 && pm > edgesRaw[bucket] { bucket += 1 }
                    bucketCounts[bucket] += 1
                    // Visible (no compositing): the general pass's arithmetic, term by term.
                    let d0 = Double(dr_) / unit, d1 = Double(dg_) / unit, d2 = Double(db_) / unit
                    let m = max(abs(d0), abs(d1), abs(d2))
                    if m > v.maxAbs { v.maxAbs = m }
                    v.sumAbs += m
                    v.differing += 1
                    let d = SIMD4<Double>(d0, d1, d2, 0)
                    v.squared += d * d
                    let dy = 0.299 * d0 + 0.587 * d1 + 0.114 * d2
                    v.squaredY += dy * dy
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
                    v.sumDL += dL[k]
                    v.sumDA += dA[k]
                    v.sumDB += dB[k]
                    let de = dE[k]
                    v.sumDE += de
                    if de > v.maxDE { v.maxDE = de }
                    hist[min(Int((de * binScale).rounded(.up)), lastBin)] += 1
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
        visible[0] = v
        pixels += rows.count * w
        maxAbs = [Double(mR) / unit, Double(mG) / unit, Double(mB) / unit, 0]
        buckets = bucketCounts
        overTolerance = over
        differing = diff
        bandPixels[0] = rows.count * w
        biasSums[0] = [Double(biasR) / unit, Double(biasG) / unit, Double(biasB) / unit, 0]
    }
}
