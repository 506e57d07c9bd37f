import Testing
import Foundation
import ImageCore
@testable import ImageMetrics

/// The SIMD-lane form of the per-pixel pass against the scalar code it replaces: the `Float`
/// lanes the opaque pass uses, within their stated error bound (the scalar code is itself
/// validated against Sharma's table and the reference data in `ColourScienceTests`).
@Suite("pixel pass in lanes")
struct PixelPassLanesTests {
    /// A deterministic LCG in 0…1.
    struct Noise {
        var s: UInt32
        mutating func next() -> Double { s = s &* 1664525 &+ 1013904223; return Double(s >> 8) / Double(1 << 24) }
    }

    /// ``CIEDE2000/floatDifferences(_:)`` of eight 16-bit code pairs (linear values from the
    /// `Double` table, differences in `Double`, as the opaque pass feeds them) against the scalar
    /// `Double` path of the general pass (``CIELab/labPair(_:_:)`` + ``CIEDE2000/fastDifference(_:_:)``).
    /// Returns per lane: the Float result (nil where the lane is left to the scalar path) and the
    /// Double reference (ΔE00, ΔL*, Δa*, Δb*).
    static func floatAgainstDouble(_ e: [(Int, Int, Int)], _ a: [(Int, Int, Int)]) -> [((Double, Double, Double, Double)?, (Double, Double, Double, Double))] {
        let lut = PixelStatistics.linearOf16
        var p = LinearPairLanes(green: .zero, redMinusGreen: .zero, blueMinusGreen: .zero, actualRedMinusGreen: .zero,
                                actualBlueMinusGreen: .zero, dRed: .zero, dGreen: .zero, dBlue: .zero)
        for i in 0..<8 {
            let (er, eg, eb) = (lut[e[i].0], lut[e[i].1], lut[e[i].2]), (ar, ag, ab) = (lut[a[i].0], lut[a[i].1], lut[a[i].2])
            p.green[i] = Float(eg); p.redMinusGreen[i] = Float(er - eg); p.blueMinusGreen[i] = Float(eb - eg)
            p.actualRedMinusGreen[i] = Float(ar - ag); p.actualBlueMinusGreen[i] = Float(ab - ag)
            p.dRed[i] = Float(ar - er); p.dGreen[i] = Float(ag - eg); p.dBlue[i] = Float(ab - eb)
        }
        let r = CIEDE2000.floatDifferences(p)
        return (0..<8).map { i in
            let (x, y) = CIELab.labPair((lut[e[i].0], lut[e[i].1], lut[e[i].2]), (lut[a[i].0], lut[a[i].1], lut[a[i].2]))
            let reference = (CIEDE2000.fastDifference(x, y), y.l - x.l, y.a - x.a, y.b - x.b)
            let lane = r.scalar[i] ? nil : (Double(r.deltaE[i]), Double(r.dL[i]), Double(r.dA[i]), Double(r.dB[i]))
            return (lane, reference)
        }
    }

    @Test("ΔE00 and ΔL*, Δa*, Δb* in Float lanes agree with the scalar Double path within 1e-5·max(1, ΔE00 + |ΔLab|), and ΔE00 within 1e-5·max(1, ΔE00), on 48 000 pairs; greys and opposite hues go to the scalar path")
    func floatLanes() {
        var noise = Noise(s: 4242)
        func code() -> Int { Int(noise.next() * 256) * 257 }
        var worst = 0.0, worstDeltaE = 0.0, scalarLanes = 0, lanes = 0
        for k in 0..<6_000 {
            var e: [(Int, Int, Int)] = [], a: [(Int, Int, Int)] = []
            for i in 0..<8 {
                var x = (code(), code(), code())
                var y: (Int, Int, Int)
                func near(_ c: Int, _ r: Int) -> Int { min(max(c + (Int(noise.next() * Double(2 * r + 1)) - r) * 257, 0), 65535) }
                switch (k + i) % 6 {
                case 0: y = (near(x.0, 3), near(x.1, 3), near(x.2, 3))                 // noise ±3 codes
                case 1: y = (near(x.0, 60), near(x.1, 60), near(x.2, 60))              // large changes
                case 2: x = (x.0, x.0, x.0); y = (near(x.0, 2), near(x.0, 2), near(x.0, 2))  // grey → near grey
                case 3: y = (65535 - x.0, 65535 - x.1, 65535 - x.2)                   // complementary: hues ~180° apart
                case 4: y = (near(x.0, 1), x.1, x.2); if noise.next() < 0.5 { y = (x.0, x.1, x.2 ^ 1) }  // one code / 16-bit step
                default:                                                               // 16-bit samples
                    x = (Int(noise.next() * 65535), Int(noise.next() * 65535), Int(noise.next() * 65535))
                    y = (min(x.0 + Int(noise.next() * 40), 65535), x.1, max(x.2 - Int(noise.next() * 40), 0))
                }
                e.append(x); a.append(y)
            }
            for (i, (lane, reference)) in Self.floatAgainstDouble(e, a).enumerated() {
                lanes += 1
                guard let lane else { scalarLanes += 1; continue }
                let scale = max(1, reference.0 + abs(reference.1) + abs(reference.2) + abs(reference.3))
                let error = max(abs(lane.0 - reference.0), abs(lane.1 - reference.1), abs(lane.2 - reference.2), abs(lane.3 - reference.3)) / scale
                worst = max(worst, error)
                #expect(error <= 1e-5, "pair \(e[i]) → \(a[i]): Float \(lane), Double \(reference)")
                // ΔE00 alone, against its own size (the error analysis at floatDifference(_:)).
                let deltaEError = abs(lane.0 - reference.0) / max(1, reference.0)
                worstDeltaE = max(worstDeltaE, deltaEError)
                #expect(deltaEError <= 1e-5, "pair \(e[i]) → \(a[i]): ΔE00 Float \(lane.0), Double \(reference.0)")
                let isGrey = e[i].0 == e[i].1 && e[i].1 == e[i].2
                #expect(!isGrey, "a grey expected pixel must take the scalar path")
            }
        }
        #expect(lanes == 48_000)
        // Greys (a sixth of the pairs) take the scalar path; few others do.
        #expect(scalarLanes >= 8_000 / 2 && scalarLanes < 48_000 / 4, "\(scalarLanes) scalar lanes")
        print("Float lanes: worst relative error \(worst), ΔE00 alone \(worstDeltaE), \(scalarLanes) of \(lanes) lanes scalar")
    }

    @Test("a ΔE00 histogram bin is ⌈ΔE00 · 1000⌉ capped at the last bin, at and beside every bin edge, for Float and Double values")
    func deltaEBins() {
        let last = PixelStatistics.deltaEBins - 1
        // The definition, with libm's ceiling.
        func definition(_ de: Double) -> Int { min(Int((de * 1000).rounded(.up)), last) }
        var values: [Double] = [0, 0.0004, 0.0005, 0.0015, 0.999_999_999_9, 1, 199.9995, 200, 200.0004, 250, 1e6]
        for k in 0...(last + 5) {
            let edge = Double(k) / 1000
            let f = Float(edge)  // a Float ΔE00 at the edge, as the lanes give it, and its neighbours
            values += [edge, edge.nextUp, edge.nextDown, Double(f), Double(f.nextUp), Double(f.nextDown)]
        }
        let wrong = values.filter { $0 >= 0 && PixelStatistics.deltaEBin($0) != definition($0) }
        #expect(wrong.isEmpty, "\(wrong.count) values binned differently, first \(wrong.prefix(5))")
        #expect(PixelStatistics.deltaEBin(0) == 0 && PixelStatistics.deltaEBin(0.0015) == 2)
        #expect(PixelStatistics.deltaEBin(1) == 1000 && PixelStatistics.deltaEBin(1e6) == last)
    }

    /// Two RGB value images with every kind of pixel: equal, ±1…±3 noise, large changes, grey.
    static func pair(width: Int, height: Int) -> (ValueImage, ValueImage) {
        var noise = Noise(s: 2024)
        var e: [UInt16] = [], a: [UInt16] = []
        for p in 0..<(width * height) {
            for _ in 0..<3 {
                let v = Int(noise.next() * 255)
                let change: Int
                switch p % 5 {
                case 0: change = 0
                case 1, 2: change = Int(noise.next() * 7) - 3
                case 3: change = Int(noise.next() * 120) - 60
                default: change = Int(noise.next() * 3) - 1
                }
                e.append(UInt16(v * 257))
                // Every 7th pixel also off by 100/65535 (between 8-bit codes, a 16-bit source).
                var changed = min(max(v + change, 0), 255) * 257
                if p % 7 == 0 { changed += changed >= 100 ? -100 : 100 }
                a.append(UInt16(changed))
            }
        }
        return (ValueImage(width: width, height: height, channels: 3, samples: e),
                ValueImage(width: width, height: height, channels: 3, samples: a))
    }

    /// Tolerance, width, height and the rows passed: narrow rows, and rows of several segments
    /// (``OpaqueSegmentSums/maxPixels`` = 1 024 pixels) with a partial last one.
    @Test("the opaque pass gives every sum, maximum, count and histogram of the general pass",
          arguments: [(0.0, 77, 31, 3..<29), (2.5, 77, 31, 3..<29), (1.0, 2_300, 4, 1..<4)])
    func opaquePass(tolerance: Double, width: Int, height: Int, rows: Range<Int>) {
        let (e, a) = Self.pair(width: width, height: height)
        var general = PixelStatistics(backgrounds: 1)
        general.accumulate(e, a, rows: rows, backgrounds: [0], tolerance: tolerance)
        var opaque = PixelStatistics(backgrounds: 1)
        opaque.accumulateOpaque(e, a, rows: rows, tolerance: tolerance)
        #expect(opaque.maxAbs == general.maxAbs)
        #expect(opaque.buckets == general.buckets)
        #expect(opaque.overTolerance == general.overTolerance && opaque.differing == general.differing)
        #expect(opaque.biasSums == general.biasSums && opaque.bandPixels == general.bandPixels)
        #expect(opaque.alphaMax == general.alphaMax && opaque.alphaSum == general.alphaSum)
        #expect(opaque.hiddenChanged == general.hiddenChanged && opaque.translucentSamples == general.translucentSamples)
        #expect(opaque.pixels == general.pixels)
        let v = opaque.visible[0], g = general.visible[0]
        #expect(v.maxAbs == g.maxAbs && v.differing == g.differing)
        // The opaque pass sums |Δ|, Δ² and ΔY′² exactly in integers and divides once; the general
        // pass adds n rounded `Double` terms ≥ 0, each addition off by ≤ 2⁻⁵³ of the running sum.
        let n = Double(general.pixels)
        func close(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= n * 0x1p-52 * y }
        #expect(close(v.sumAbs, g.sumAbs) && close(v.squaredY, g.squaredY))
        #expect((0..<3).allSatisfy { close(v.squared[$0], g.squared[$0]) })
        #expect(g.sumAbs > 0 && g.squaredY > 0, "the fixture has visible differences")
        // ΔE00 and the Lab differences come from `Float` lanes (floatLanes above: each within
        // 1e-5·max(1, ΔE00 + |ΔLab|) of the Double value), so their sums within the sum of bounds.
        let bound = 1e-5 * (Double(g.differing) + g.sumDE) * 4
        #expect(abs(v.sumDL - g.sumDL) <= bound && abs(v.sumDA - g.sumDA) <= bound && abs(v.sumDB - g.sumDB) <= bound)
        #expect(abs(v.sumDE - g.sumDE) <= bound && abs(v.maxDE - g.maxDE) <= 1e-5 * 4 * (1 + g.maxDE))
        // Each pixel's 0.001 bin may move by one: cumulative counts stay within a bin's shift.
        #expect(v.histogram.count == g.histogram.count && v.histogram.reduce(0, +) == g.histogram.reduce(0, +))
        var cv = 0, cg = [0] + g.histogram.reduce(into: [Int]()) { $0.append(($0.last ?? 0) + Int($1)) }
        cg.append(cg.last ?? 0)
        for (k, n) in v.histogram.enumerated() {
            cv += Int(n)
            #expect(cv >= cg[k] && cv <= cg[k + 2], "bin \(k)")
        }
        #expect(g.differing > 0 && g.sumDE > 0, "the fixture has differences")
    }

    @Test("the heat map stored as palette indices shows the same colours as the RGB heat map")
    func indexedHeatMap() throws {
        let (e, a) = Self.pair(width: 40, height: 20)
        let rgb = HeatMap.bitmap(expected: e, actual: a)
        let indexed = HeatMap.indexedBitmap(expected: e, actual: a)
        #expect(HeatMap.palette.count <= 256)
        let entries = HeatMap.palette.entries
        var expanded: [UInt8] = []
        for i in indexed.bytes { let c = entries[Int(i)]; expanded += [c.red, c.green, c.blue] }
        #expect(expanded == rgb.bytes)
        // Every pixel against the heat map's definition, evaluated directly (composited over
        // black and white with α = 1, the worse channel, the ramp's first limit ≥ the error).
        for p in 0..<(e.width * e.height) {
            var err = 0.0
            for c in 0..<3 {
                let ev = Double(e.sample(p * 3 + c)) / 65535, av = Double(a.sample(p * 3 + c)) / 65535
                err = max(err, abs(av * 1 - ev * 1) * 255, abs(av * 1 + 1 - 1 - (ev * 1 + 1 - 1)) * 255)
            }
            let expected: (UInt8, UInt8, UInt8)
            if err > 1e-9 {
                expected = HeatMap.ramp.first { err <= $0.limit }?.color ?? (255, 255, 255)
            } else {
                let y = (0.299 * Double(e.sample(p * 3)) + 0.587 * Double(e.sample(p * 3 + 1)) + 0.114 * Double(e.sample(p * 3 + 2))) / 65535
                let g = UInt8(clamping: Int(40 + y * 60))
                expected = (g, g, g)
            }
            #expect(rgb.bytes[p * 3] == expected.0 && rgb.bytes[p * 3 + 1] == expected.1 && rgb.bytes[p * 3 + 2] == expected.2, "pixel \(p)")
        }
        // The ramp's colours are at their legend positions (≤ 1 blue … > 50 magenta-white).
        for (i, r) in HeatMap.ramp.enumerated() {
            #expect(entries[i] == Palette.Entry(red: r.color.0, green: r.color.1, blue: r.color.2))
        }
    }

    @Test("8-bit RGB and gray rows unpack as c·257, 16-bit big-endian rows as the value, padded rows skip their padding")
    func unpacking() throws {
        // 3 × 2 RGB 8-bit with 2 padding bytes per row.
        let rgbBytes: [UInt8] = [0, 1, 2, 3, 4, 5, 255, 128, 7, 9, 9,
                                 10, 20, 30, 40, 50, 60, 70, 80, 90, 9, 9]
        let rgb = Bitmap(uncheckedWidth: 3, height: 2, format: .rgb8, bytesPerRow: 11, bytes: rgbBytes)
        let v = ValueImage(rgb, withAlpha: false)
        let codes = [0, 1, 2, 3, 4, 5, 255, 128, 7, 10, 20, 30, 40, 50, 60, 70, 80, 90]
        #expect(v.wideSamples == codes.map { UInt16($0 * 257) })
        let withAlpha = ValueImage(rgb, withAlpha: true)
        #expect(withAlpha.wideSamples[3] == 65535 && withAlpha.wideSamples[4] == 3 * 257 && withAlpha.wideSamples[7] == 65535)
        let grey = Bitmap(uncheckedWidth: 2, height: 1, format: PixelFormat(colorModel: .gray, bitsPerComponent: 8), bytesPerRow: 2, bytes: [7, 200])
        #expect(ValueImage(grey, withAlpha: false).wideSamples == [7, 7, 7, 200, 200, 200].map { UInt16($0 * 257) })
        let deep = Bitmap(uncheckedWidth: 1, height: 1, format: .rgb16, bytesPerRow: 6, bytes: [0x12, 0x34, 0xFF, 0x00, 0x00, 0x01])
        #expect(ValueImage(deep, withAlpha: false).wideSamples == [0x1234, 0xFF00, 0x0001])
    }

    @Test("the tone-signature screen lets through every pair the signature names and stops noise")
    func toneScreen() {
        let flat = FineDetailToneSignatureTests.flat
        let named = FineDetailToneSignatureTests.grey([128, 128, 128, 128, 188, 188, 188, 188])
        #expect(FineDetailToneSignature(expected: flat, actual: named).names)
        #expect(DifferenceScan(expected: flat, actual: named).fineDetailToneMayName)
        let (e, a) = Self.pair(width: 64, height: 64)
        #expect(!FineDetailToneSignature(expected: e, actual: a).names)
        #expect(!DifferenceScan(expected: e, actual: a).fineDetailToneMayName)
        // 2/255 of full scale is 514 codes; the changed test in Double starts just above.
        #expect(FineDetailToneSignature.changedCodes == 515)
    }
}
