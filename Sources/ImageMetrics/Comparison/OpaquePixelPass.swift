import ImageCore

extension PixelStatistics {
    /// ``accumulate(_:_:rows:backgrounds:tolerance:)`` for two RGB value images (3 channels:
    /// every pixel opaque, one visible view, no compositing), with the same results bit for bit.
    ///
    /// Each row is read twice: an integer pass for exact, bias and the visible error sums,
    /// which collects the differing pixels, then their CIELAB values and CIEDE2000 eight pixels
    /// at a time in SIMD lanes read from plain arrays (``CIELab/labLanes(linearRed:green:blue:)``,
    /// ``CIEDE2000/fastDifferences(_:_:)``, each lane computed exactly as the scalar code
    /// computes one pixel). Every sum still receives its terms one pixel at a time in pixel
    /// order, so the sums (and the JSON) are those of the general pass.
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
        // Per row: the differing pixels' linear-light values, six arrays (expected R, G, B,
        // actual R, G, B) read eight lanes at a time, and their Lab differences and ΔE00.
        // Rows are padded to a multiple of 8 lanes.
        let lanes = (w + 7) / 8 * 8
        var linear = [Double](repeating: 0, count: 6 * lanes)
        var results = [Double](repeating: 0, count: 4 * lanes)
        histogram.withUnsafeMutableBufferPointer { hist in
        bucketCounts.withUnsafeMutableBufferPointer { bucketCounts in
        linear.withUnsafeMutableBufferPointer { linear in
        results.withUnsafeMutableBufferPointer { results in
        e.samples.withUnsafeBufferPointer { es in
        a.samples.withUnsafeBufferPointer { as_ in
        PixelStatistics.linearOf16.withUnsafeBufferPointer { lut in
            guard let lin = linear.baseAddress, let out = results.baseAddress else { return }
            let re = lin, ge = lin + lanes, be = lin + 2 * lanes, ra = lin + 3 * lanes, ga = lin + 4 * lanes, ba = lin + 5 * lanes
            let dL = out, dA = out + lanes, dB = out + 2 * lanes, dE = out + 3 * lanes
            @inline(__always) func load(_ p: UnsafeMutablePointer<Double>, _ k: Int) -> SIMD8<Double> {
                UnsafeRawPointer(p + k).loadUnaligned(as: SIMD8<Double>.self)
            }
            @inline(__always) func store(_ v: SIMD8<Double>, _ p: UnsafeMutablePointer<Double>, _ k: Int) {
                UnsafeMutableRawPointer(p + k).storeBytes(of: v, as: SIMD8<Double>.self)
            }
            for y in rows {
                let rowStart = y * w * 3
                var count = 0
                for x in 0..<w {
                    let i = rowStart + x * 3
                    let er = Int(es[i]), eg = Int(es[i + 1]), eb = Int(es[i + 2])
                    let ar = Int(as_[i]), ag = Int(as_[i + 1]), ab = Int(as_[i + 2])
                    let dr = ar - er, dg = ag - eg, db = ab - eb
                    let adr = abs(dr), adg = abs(dg), adb = abs(db)
                    if adr > mR { mR = adr }
                    if adg > mG { mG = adg }
                    if adb > mB { mB = adb }
                    let pixelMax = max(adr, adg, adb)
                    biasR += dr; biasG += dg; biasB += db
                    if pixelMax == 0 { bucketCounts[0] += 1; hist[0] += 1; continue }
                    diff += 1
                    let pm = Double(pixelMax)
                    if pm > toleranceRaw { over += 1 }
                    var bucket = 0
                    while bucket < edgesRaw.count - 1 && pm > edgesRaw[bucket] { bucket += 1 }
                    bucketCounts[bucket] += 1
                    // Visible (no compositing): the general pass's arithmetic, term by term.
                    let d0 = Double(dr) / unit, d1 = Double(dg) / unit, d2 = Double(db) / unit
                    let m = max(abs(d0), abs(d1), abs(d2))
                    if m > v.maxAbs { v.maxAbs = m }
                    v.sumAbs += m
                    v.differing += 1
                    let d = SIMD4<Double>(d0, d1, d2, 0)
                    v.squared += d * d
                    let dy = 0.299 * d0 + 0.587 * d1 + 0.114 * d2
                    v.squaredY += dy * dy
                    re[count] = lut[er]; ge[count] = lut[eg]; be[count] = lut[eb]
                    ra[count] = lut[ar]; ga[count] = lut[ag]; ba[count] = lut[ab]
                    count += 1
                }
                guard count > 0 else { continue }
                // Unused lanes of the last group repeat the row's first differing pixel
                // (a regular colour pair; their results are never read).
                var k = count
                while k % 8 != 0 {
                    re[k] = re[0]; ge[k] = ge[0]; be[k] = be[0]; ra[k] = ra[0]; ga[k] = ga[0]; ba[k] = ba[0]
                    k += 1
                }
                // CIELAB and ΔE00, eight differing pixels per step.
                for start in Swift.stride(from: 0, to: count, by: 8) {
                    let labE = CIELab.labLanes(linearRed: load(re, start), green: load(ge, start), blue: load(be, start))
                    let labA = CIELab.labLanes(linearRed: load(ra, start), green: load(ga, start), blue: load(ba, start))
                    store(CIEDE2000.fastDifferences(labE, labA), dE, start)
                    store(labA.l - labE.l, dL, start)
                    store(labA.a - labE.a, dA, start)
                    store(labA.b - labE.b, dB, start)
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
