import Foundation
import ImageCore

/// The single full-resolution pass behind the exact, bias, alpha, PSNR and colour metrics.
///
/// Per pixel (samples straight, differences in 8-bit code units = 16-bit difference / 257):
/// - *exact*: |Δ| of R, G, B where the pixel is visible in either image (α > 0), and of A
///   everywhere; the pixel's error is the largest of those;
/// - *hidden colour*: pixels transparent in both images (α = 0) whose colour changed;
/// - *bias*: signed mean Δ per channel, split by the expected pixel's alpha band
///   (opaque α = 1, translucent 0 < α < 1, transparent α = 0);
/// - *visible*: each image composited over each background in the encoded sRGB domain
///   (`c·α + bg·(1 − α)`; black and white when alpha is involved — since the composite is affine
///   in the background, these two bound the error over every grey), then PSNR sums (all
///   channels, per channel, and Y′ = 0.299R + 0.587G + 0.114B), CIELAB differences
///   (ΔL*, Δa*, Δb*) and CIEDE2000 with a histogram for percentiles.
struct PixelStatistics: Sendable {
    /// Histogram bucket upper edges for per-pixel |Δ|, 8-bit units; bucket 0 counts exact zeros.
    static let bucketEdges: [Double] = [0, 1, 2, 5, 10, 20, 50, 100, 255]
    /// ΔE00 histogram resolution (percentiles are rounded up to a multiple of this).
    static let deltaEStep = 0.001
    static let deltaEBins = 200_001

    // Exact
    var maxAbs = [Double](repeating: 0, count: 4)
    var buckets = [Int](repeating: 0, count: bucketEdges.count)
    var overTolerance = 0
    var differing = 0
    // Hidden colour
    var hiddenChanged = 0
    var hiddenMax = 0.0
    // Bias [band][channel]
    var biasSums = [[Double]](repeating: [Double](repeating: 0, count: 4), count: 3)
    var bandPixels = [Int](repeating: 0, count: 3)
    // Alpha channel
    var alphaMax = 0.0, alphaSum = 0.0
    // Translucent colour (expected 0 < α < 1, actual α > 0)
    var translucentMax = 0.0, translucentSum = 0.0, translucentSamples = 0
    // Visible, per background
    var visible: [Visible]
    var pixels = 0

    /// Accumulators for one background.
    struct Visible: Sendable {
        var maxAbs = 0.0, sumAbs = 0.0, differing = 0
        /// Σ d² of R, G, B in lanes 0…2 (a SIMD value, so the per-pixel update needs no array).
        var squared = SIMD4<Double>()
        var squaredY = 0.0
        var sumDL = 0.0, sumDA = 0.0, sumDB = 0.0
        var sumDE = 0.0, maxDE = 0.0
        var histogram = [UInt32](repeating: 0, count: PixelStatistics.deltaEBins)
    }

    init(backgrounds: Int) {
        visible = [Visible](repeating: Visible(), count: backgrounds)
    }

    /// Linear light of every 16-bit sample, for the colour conversions of opaque pixels.
    static let linearOf16: [Double] = (0...65535).map { SRGBTransfer.toLinear(Double($0) / 65535) }

    /// Runs the pass over two value images of equal size and channel count.
    static func measure(_ e: ValueImage, _ a: ValueImage, tolerance: Double) -> PixelStatistics {
        let backgrounds: [Double] = e.channels == 4 ? [0, 1] : [0]
        let bands = Parallel.bands(rows: e.height, rowsPerBand: max(64, e.height / 16))
        let parts = Parallel.map(bands.count) { b in
            var s = PixelStatistics(backgrounds: backgrounds.count)
            if e.channels == 3 && a.channels == 3 {
                s.accumulateOpaque(e, a, rows: bands[b], tolerance: tolerance)
            } else {
                s.accumulate(e, a, rows: bands[b], backgrounds: backgrounds, tolerance: tolerance)
            }
            return s
        }
        var total = PixelStatistics(backgrounds: backgrounds.count)
        for p in parts { total.merge(p) }
        return total
    }

    mutating func accumulate(_ e: ValueImage, _ a: ValueImage, rows: Range<Int>, backgrounds: [Double], tolerance: Double) {
        let n = e.channels, w = e.width
        let unit = ValueImage.perEightBitUnit
        let edges = PixelStatistics.bucketEdges
        // Local accumulators (scalars and small arrays), folded into `self` at the end.
        var mR = 0, mG = 0, mB = 0, mA = 0          // max |Δ| in 16-bit units
        var bucketCounts = [Int](repeating: 0, count: edges.count)
        var over = 0, diff = 0, hidden = 0, hiddenMaxRaw = 0
        var bias = [Double](repeating: 0, count: 12), bandCount = [0, 0, 0]
        var alphaSumRaw = 0
        var transMaxRaw = 0, transSumRaw = 0, transSamples = 0
        let toleranceRaw = tolerance * unit
        let edgesRaw = edges.map { $0 * unit }
        let lin = PixelStatistics.linearOf16
        // The ΔE00 histograms are moved out of `visible` (not copied: a copy of `visible` would
        // share their storage) so the per-pixel updates go through plain pointers (no
        // copy-on-write checks on arrays nested in an array of structs).
        var hist0: [UInt32] = [], hist1: [UInt32] = []
        swap(&hist0, &visible[0].histogram)
        if visible.count > 1 { swap(&hist1, &visible[1].histogram) }
        var vis = visible
        hist0.withUnsafeMutableBufferPointer { h0 in
        hist1.withUnsafeMutableBufferPointer { h1 in
        vis.withUnsafeMutableBufferPointer { vis in
        e.withSamples { es in
        a.withSamples { as_ in
        lin.withUnsafeBufferPointer { lut in
            for y in rows {
                var i = y * w * n
                for _ in 0..<w {
                    defer { i += n }
                    let er = Int(es[i]), eg = Int(es[i + 1]), eb = Int(es[i + 2])
                    let ar = Int(as_[i]), ag = Int(as_[i + 1]), ab = Int(as_[i + 2])
                    let ea = n == 4 ? Int(es[i + 3]) : 65535, aa = n == 4 ? Int(as_[i + 3]) : 65535
                    let dr = ar - er, dg = ag - eg, db = ab - eb, da = aa - ea
                    let visibleEither = ea > 0 || aa > 0
                    var pixelMax = abs(da)
                    if abs(da) > mA { mA = abs(da) }
                    alphaSumRaw += abs(da)
                    if visibleEither {
                        let adr = abs(dr), adg = abs(dg), adb = abs(db)
                        if adr > mR { mR = adr }
                        if adg > mG { mG = adg }
                        if adb > mB { mB = adb }
                        pixelMax = max(pixelMax, adr, adg, adb)
                    } else if dr != 0 || dg != 0 || db != 0 {
                        hidden += 1
                        hiddenMaxRaw = max(hiddenMaxRaw, abs(dr), abs(dg), abs(db))
                    }
                    if pixelMax > 0 { diff += 1 }
                    let pm = Double(pixelMax)
                    if pm > toleranceRaw { over += 1 }
                    var bucket = 0
                    while bucket < edgesRaw.count - 1 && pm > edgesRaw[bucket] { bucket += 1 }
                    bucketCounts[bucket] += 1

                    let band = ea == 65535 ? 0 : (ea == 0 ? 2 : 1)
                    bandCount[band] += 1
                    bias[band * 4] += Double(dr); bias[band * 4 + 1] += Double(dg)
                    bias[band * 4 + 2] += Double(db); bias[band * 4 + 3] += Double(da)
                    // Where the actual stores α = 0 its colour is undefined; alpha gates that pixel.
                    if band == 1 && aa > 0 {
                        transMaxRaw = max(transMaxRaw, abs(dr), abs(dg), abs(db))
                        transSumRaw += abs(dr) + abs(dg) + abs(db)
                        transSamples += 3
                    }

                    // Visible: composite over each background, encoded domain.
                    let opaque = ea == 65535 && aa == 65535
                    for k in 0..<backgrounds.count {
                        var ve = (0.0, 0.0, 0.0), va = (0.0, 0.0, 0.0)
                        if opaque {
                            ve = (Double(er), Double(eg), Double(eb)); va = (Double(ar), Double(ag), Double(ab))
                        } else {
                            let bg = backgrounds[k] * 65535
                            let fe = Double(ea) / 65535, fa = Double(aa) / 65535
                            ve = (Double(er) * fe + bg * (1 - fe), Double(eg) * fe + bg * (1 - fe), Double(eb) * fe + bg * (1 - fe))
                            va = (Double(ar) * fa + bg * (1 - fa), Double(ag) * fa + bg * (1 - fa), Double(ab) * fa + bg * (1 - fa))
                        }
                        // Differences in 8-bit units.
                        let d0 = (va.0 - ve.0) / unit, d1 = (va.1 - ve.1) / unit, d2 = (va.2 - ve.2) / unit
                        let m = max(abs(d0), abs(d1), abs(d2))
                        let histogram = k == 0 ? h0 : h1
                        if m == 0 { histogram[0] += 1; continue }
                        if m > vis[k].maxAbs { vis[k].maxAbs = m }
                        vis[k].sumAbs += m
                        vis[k].differing += 1
                        let d = SIMD4<Double>(d0, d1, d2, 0)
                        vis[k].squared += d * d
                        let dy = 0.299 * d0 + 0.587 * d1 + 0.114 * d2
                        vis[k].squaredY += dy * dy
                        let labE: LabColor, labA: LabColor
                        if opaque {
                            (labE, labA) = CIELab.labPair((lut[er], lut[eg], lut[eb]), (lut[ar], lut[ag], lut[ab]))
                        } else {
                            func lin(_ v: Double) -> Double { SRGBTransfer.toLinear(v / 65535) }
                            (labE, labA) = CIELab.labPair((lin(ve.0), lin(ve.1), lin(ve.2)), (lin(va.0), lin(va.1), lin(va.2)))
                        }
                        vis[k].sumDL += labA.l - labE.l
                        vis[k].sumDA += labA.a - labE.a
                        vis[k].sumDB += labA.b - labE.b
                        let de = CIEDE2000.fastDifference(labE, labA)
                        vis[k].sumDE += de
                        if de > vis[k].maxDE { vis[k].maxDE = de }
                        histogram[PixelStatistics.deltaEBin(de)] += 1
                    }
                }
            }
        }
        }
        }
        }
        }
        }
        vis[0].histogram = hist0
        if vis.count > 1 { vis[1].histogram = hist1 }
        pixels += rows.count * w
        maxAbs = [Double(mR) / unit, Double(mG) / unit, Double(mB) / unit, Double(mA) / unit]
        buckets = bucketCounts
        overTolerance = over
        differing = diff
        hiddenChanged = hidden
        hiddenMax = Double(hiddenMaxRaw) / unit
        for band in 0..<3 {
            bandPixels[band] = bandCount[band]
            for c in 0..<4 { biasSums[band][c] = bias[band * 4 + c] / unit }
        }
        alphaMax = Double(mA) / unit
        alphaSum = Double(alphaSumRaw) / unit
        translucentMax = Double(transMaxRaw) / unit
        translucentSum = Double(transSumRaw) / unit
        translucentSamples = transSamples
        visible = vis
    }

    mutating func merge(_ o: PixelStatistics) {
        for c in 0..<4 { maxAbs[c] = max(maxAbs[c], o.maxAbs[c]) }
        for b in 0..<buckets.count { buckets[b] += o.buckets[b] }
        overTolerance += o.overTolerance
        differing += o.differing
        hiddenChanged += o.hiddenChanged
        hiddenMax = max(hiddenMax, o.hiddenMax)
        for band in 0..<3 {
            bandPixels[band] += o.bandPixels[band]
            for c in 0..<4 { biasSums[band][c] += o.biasSums[band][c] }
        }
        alphaMax = max(alphaMax, o.alphaMax); alphaSum += o.alphaSum
        translucentMax = max(translucentMax, o.translucentMax)
        translucentSum += o.translucentSum; translucentSamples += o.translucentSamples
        pixels += o.pixels
        for k in 0..<visible.count {
            // Moved out and back (a copy would share, then copy, the histogram's storage).
            var v = PixelStatistics.Visible(histogram: [])
            swap(&v, &visible[k])
            let p = o.visible[k]
            v.maxAbs = max(v.maxAbs, p.maxAbs); v.sumAbs += p.sumAbs; v.differing += p.differing
            for c in 0..<3 { v.squared[c] += p.squared[c] }
            v.squaredY += p.squaredY
            v.sumDL += p.sumDL; v.sumDA += p.sumDA; v.sumDB += p.sumDB
            v.sumDE += p.sumDE; v.maxDE = max(v.maxDE, p.maxDE)
            v.histogram.withUnsafeMutableBufferPointer { h in
                p.histogram.withUnsafeBufferPointer { q in
                    for i in 0..<min(h.count, q.count) { h[i] += q[i] }
                }
            }
            swap(&v, &visible[k])
        }
    }

    /// The ΔE00 value below which `fraction` of the pixels lie (nearest rank), rounded up to a
    /// multiple of ``deltaEStep``.
    static func percentile(_ histogram: [UInt32], fraction: Double, pixels: Int) -> Double {
        let rank = max(1, Int((fraction * Double(pixels)).rounded(.up)))
        var seen = 0
        for (bin, count) in histogram.enumerated() {
            seen += Int(count)
            if seen >= rank { return Double(bin) * deltaEStep }
        }
        return Double(histogram.count - 1) * deltaEStep
    }
}
