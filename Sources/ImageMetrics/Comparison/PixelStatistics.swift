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
    // Translucent colour (expected 0 < α < 1)
    var translucentMax = 0.0, translucentSum = 0.0, translucentSamples = 0
    // Visible, per background
    var visible: [Visible]
    var pixels = 0

    /// Accumulators for one background.
    struct Visible: Sendable {
        var maxAbs = 0.0, sumAbs = 0.0, differing = 0
        var squared = [Double](repeating: 0, count: 3)
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
            s.accumulate(e, a, rows: bands[b], backgrounds: backgrounds, tolerance: tolerance)
            return s
        }
        var total = PixelStatistics(backgrounds: backgrounds.count)
        for p in parts { total.merge(p) }
        return total
    }

    mutating func accumulate(_ e: ValueImage, _ a: ValueImage, rows: Range<Int>, backgrounds: [Double], tolerance: Double) {
        let n = e.channels, w = e.width
        let unit = ValueImage.perEightBitUnit
        let lin = PixelStatistics.linearOf16
        e.samples.withUnsafeBufferPointer { es in
            a.samples.withUnsafeBufferPointer { as_ in
                lin.withUnsafeBufferPointer { lut in
                    for y in rows {
                        var i = y * w * n
                        for _ in 0..<w {
                            defer { i += n }
                            pixels += 1
                            let ea = n == 4 ? Int(es[i + 3]) : 65535, aa = n == 4 ? Int(as_[i + 3]) : 65535
                            let visibleEither = ea > 0 || aa > 0
                            var pixelMax = 0.0
                            var colourChanged = false
                            for c in 0..<3 {
                                let d = Int(as_[i + c]) - Int(es[i + c])
                                if d != 0 { colourChanged = true }
                                let ad = Double(abs(d)) / unit
                                if visibleEither {
                                    if ad > maxAbs[c] { maxAbs[c] = ad }
                                    if ad > pixelMax { pixelMax = ad }
                                }
                            }
                            let alphaDiff = Double(abs(aa - ea)) / unit
                            if alphaDiff > maxAbs[3] { maxAbs[3] = alphaDiff }
                            if alphaDiff > pixelMax { pixelMax = alphaDiff }
                            alphaSum += alphaDiff
                            if alphaDiff > alphaMax { alphaMax = alphaDiff }
                            if !visibleEither && colourChanged {
                                hiddenChanged += 1
                                for c in 0..<3 {
                                    hiddenMax = max(hiddenMax, Double(abs(Int(as_[i + c]) - Int(es[i + c]))) / unit)
                                }
                            }
                            if pixelMax > 0 { differing += 1 }
                            if pixelMax > tolerance { overTolerance += 1 }
                            var bucket = 0
                            while bucket < PixelStatistics.bucketEdges.count - 1 && pixelMax > PixelStatistics.bucketEdges[bucket] { bucket += 1 }
                            buckets[bucket] += 1

                            let band = ea == 65535 ? 0 : (ea == 0 ? 2 : 1)
                            bandPixels[band] += 1
                            for c in 0..<3 { biasSums[band][c] += Double(Int(as_[i + c]) - Int(es[i + c])) / unit }
                            biasSums[band][3] += Double(aa - ea) / unit
                            if band == 1 {
                                for c in 0..<3 {
                                    let ad = Double(abs(Int(as_[i + c]) - Int(es[i + c]))) / unit
                                    translucentMax = max(translucentMax, ad)
                                    translucentSum += ad
                                }
                                translucentSamples += 3
                            }

                            // Visible: composite over each background, encoded domain.
                            for (k, bg) in backgrounds.enumerated() {
                                var ve = (0.0, 0.0, 0.0), va = (0.0, 0.0, 0.0)
                                var le = (0.0, 0.0, 0.0), la = (0.0, 0.0, 0.0)
                                if ea == 65535 && aa == 65535 {
                                    ve = (Double(es[i]) / 65535, Double(es[i + 1]) / 65535, Double(es[i + 2]) / 65535)
                                    va = (Double(as_[i]) / 65535, Double(as_[i + 1]) / 65535, Double(as_[i + 2]) / 65535)
                                    le = (lut[Int(es[i])], lut[Int(es[i + 1])], lut[Int(es[i + 2])])
                                    la = (lut[Int(as_[i])], lut[Int(as_[i + 1])], lut[Int(as_[i + 2])])
                                } else {
                                    let fe = Double(ea) / 65535, fa = Double(aa) / 65535
                                    func over(_ v: UInt16, _ alpha: Double) -> Double { Double(v) / 65535 * alpha + bg * (1 - alpha) }
                                    ve = (over(es[i], fe), over(es[i + 1], fe), over(es[i + 2], fe))
                                    va = (over(as_[i], fa), over(as_[i + 1], fa), over(as_[i + 2], fa))
                                    le = (SRGBTransfer.toLinear(ve.0), SRGBTransfer.toLinear(ve.1), SRGBTransfer.toLinear(ve.2))
                                    la = (SRGBTransfer.toLinear(va.0), SRGBTransfer.toLinear(va.1), SRGBTransfer.toLinear(va.2))
                                }
                                let d = ((va.0 - ve.0) * 255, (va.1 - ve.1) * 255, (va.2 - ve.2) * 255)
                                let m = max(abs(d.0), abs(d.1), abs(d.2))
                                visible[k].maxAbs = max(visible[k].maxAbs, m)
                                visible[k].sumAbs += m
                                if m > 0 { visible[k].differing += 1 }
                                visible[k].squared[0] += d.0 * d.0
                                visible[k].squared[1] += d.1 * d.1
                                visible[k].squared[2] += d.2 * d.2
                                let dy = 0.299 * d.0 + 0.587 * d.1 + 0.114 * d.2
                                visible[k].squaredY += dy * dy
                                if m == 0 { visible[k].histogram[0] += 1; continue }
                                let labE = CIELab.lab(linearRed: le.0, green: le.1, blue: le.2)
                                let labA = CIELab.lab(linearRed: la.0, green: la.1, blue: la.2)
                                visible[k].sumDL += labA.l - labE.l
                                visible[k].sumDA += labA.a - labE.a
                                visible[k].sumDB += labA.b - labE.b
                                let de = CIEDE2000.difference(labE, labA)
                                visible[k].sumDE += de
                                visible[k].maxDE = max(visible[k].maxDE, de)
                                let bin = min(Int((de / PixelStatistics.deltaEStep).rounded(.up)), PixelStatistics.deltaEBins - 1)
                                visible[k].histogram[bin] += 1
                            }
                        }
                    }
                }
            }
        }
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
            var v = visible[k]
            let p = o.visible[k]
            v.maxAbs = max(v.maxAbs, p.maxAbs); v.sumAbs += p.sumAbs; v.differing += p.differing
            for c in 0..<3 { v.squared[c] += p.squared[c] }
            v.squaredY += p.squaredY
            v.sumDL += p.sumDL; v.sumDA += p.sumDA; v.sumDB += p.sumDB
            v.sumDE += p.sumDE; v.maxDE = max(v.maxDE, p.maxDE)
            for i in 0..<v.histogram.count where p.histogram[i] != 0 { v.histogram[i] += p.histogram[i] }
            visible[k] = v
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
