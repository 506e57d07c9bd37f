import Foundation
import Testing
@testable import ImageMetrics

/// Properties of the structural metrics that follow from their definitions.
@Suite("structural metrics")
struct StructureTests {
    @Test("the recursive Gaussian has the coefficients ssimulacra2.md lists for σ = 1.5")
    func recursiveGaussianCoefficients() {
        let g = RecursiveGaussian.sigma15
        #expect(g.radius == 5)
        let n2 = [0.05529523640871048, -0.0588366873562336, 0.012955819256603718]
        let d1 = [-1.9021130800247192, -1.1755704879760742, -1.2246468525851679e-16]
        for k in 0..<3 {
            #expect(abs(g.n2[k] - n2[k]) <= 1e-7 * abs(n2[k]) + 1e-12, "n2[\(k)] = \(g.n2[k])")
            #expect(abs(g.d1[k] - d1[k]) <= 1e-7 * abs(d1[k]) + 1e-15, "d1[\(k)] = \(g.d1[k])")
        }
    }

    @Test("the recursive Gaussian of a constant line is the constant away from the ends, and smaller near them")
    func recursiveGaussianNormalised() {
        let g = RecursiveGaussian.sigma15
        var out = [Double](repeating: 0, count: 64)
        g.blur([Double](repeating: 1, count: 64), into: &out)
        for i in 10..<54 { #expect(abs(out[i] - 1) < 1e-3, "interior \(i): \(out[i])") }
        #expect(out[0] < 0.75)  // zero outside the image, not renormalised
    }

    @Test("the SSIM window is the normalised 11-tap Gaussian with σ = 1.5")
    func ssimWindow() {
        #expect(SSIM.taps.count == 11)
        #expect(abs(SSIM.taps.reduce(0, +) - 1) < 1e-15)
        #expect(abs(SSIM.taps[5] / SSIM.taps[4] - exp(1 / (2 * 2.25))) < 1e-12)
        #expect(abs(SSIM.c1 - 6.5025) < 1e-12 && abs(SSIM.c2 - 58.5225) < 1e-12)
    }

    @Test("SSIM of a plane with itself is exactly 1 and is undefined under 11×11")
    func ssimIdentity() {
        let p = Plane(width: 30, height: 20, values: (0..<600).map { Double(($0 * 37) % 255) })
        #expect(SSIM.mean(p, p)?.ssim == 1)
        let small = Plane(width: 10, height: 20, values: [Double](repeating: 3, count: 200))
        #expect(SSIM.mean(small, small) == nil)
    }

    @Test("the Float 8-bit units of every 16-bit sample equal the correctly rounded Float quotient v / 257")
    func floatEightBitUnitsExact() {
        var mismatches = 0
        for v in 0...65535 where VisiblePlane.floatEightBitUnits(UInt16(v)) != Float(v) / 257 { mismatches += 1 }
        #expect(mismatches == 0)
    }

    @Test("Wang's box downsampling averages f×f blocks and mirrors at the edge (MATLAB 'symmetric')")
    func boxDownsample() {
        // 1-D check along x: values 0…4 in one row repeated; f = 2 covers (i, i+1), the last column mirrored.
        let p = Plane(width: 5, height: 2, values: [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        let d = Plane.boxDownsample(p.source, factor: 2)
        #expect(d.width == 3 && d.height == 1)
        #expect(d.values == [0.5, 2.5, 4])
    }

    @Test("downsampling by several factors in one read gives each factor's f×f box with MATLAB 'symmetric' edges")
    func boxDownsamplesTogether() {
        // 150 rows: three bands of 64 input rows for F = 8; odd sizes exercise the mirrored edges.
        let w = 23, h = 150
        let values = (0..<(w * h)).map { Double(($0 * 7919) % 251) }
        let p = Plane(width: w, height: h, values: values)
        func mirror(_ i: Int, _ n: Int) -> Int { i < 0 ? -i - 1 : i >= n ? 2 * n - i - 1 : i }
        let factors = [8, 2, 3]
        let planes = Plane.boxDownsamples(p.source, factors: factors)
        for (k, f) in factors.enumerated() {
            let b = (f - 1) / 2, ow = (w + f - 1) / f, oh = (h + f - 1) / f
            #expect(planes[k].width == ow && planes[k].height == oh, "factor \(f)")
            guard planes[k].values.count == ow * oh else { continue }
            var worst = 0.0
            for oy in 0..<oh {
                for ox in 0..<ow {
                    var sum = 0.0
                    for j in 0..<f {
                        for i in 0..<f { sum += values[mirror(oy * f - b + j, h) * w + mirror(ox * f - b + i, w)] }
                    }
                    worst = max(worst, abs(planes[k].values[oy * ow + ox] - sum / Double(f * f)))
                }
            }
            #expect(worst < 1e-12, "factor \(f): largest difference \(worst)")
        }
    }
}

/// The `Float` engines of the structural metrics against the definitions evaluated directly in `Double`.
@Suite("structural metrics in Float")
struct StructureFloatTests {
    /// Mean SSIM and cs of two planes straight from the definition (README §3): 2-D window sums of
    /// x, y, x², y², xy over every valid 11×11 window, in `Double`.
    static func definitionSSIM(_ x: [Double], _ y: [Double], width w: Int, height h: Int) -> (ssim: Double, cs: Double) {
        let raw = (-5...5).map { exp(-Double($0 * $0) / (2 * 1.5 * 1.5)) }
        let g = raw.map { $0 / raw.reduce(0, +) }
        let c1 = 6.5025, c2 = 58.5225
        var ssim = 0.0, cs = 0.0
        for j in 0..<(h - 10) {
            for i in 0..<(w - 10) {
                var mx = 0.0, my = 0.0, xx = 0.0, yy = 0.0, xy = 0.0
                for v in 0..<11 {
                    for u in 0..<11 {
                        let k = g[u] * g[v], p = x[(j + v) * w + i + u], q = y[(j + v) * w + i + u]
                        mx += k * p; my += k * q; xx += k * p * p; yy += k * q * q; xy += k * p * q
                    }
                }
                let sx = xx - mx * mx, sy = yy - my * my, sxy = xy - mx * my
                let c = (2 * sxy + c2) / (sx + sy + c2)
                ssim += (2 * mx * my + c1) / (mx * mx + my * my + c1) * c
                cs += c
            }
        }
        let n = Double((w - 10) * (h - 10))
        return (ssim / n, cs / n)
    }

    /// Deterministic test samples: a ramp plus an LCG texture (README §5's generator).
    static func samples(_ count: Int, seed: UInt32, range: Int) -> [Int] {
        var s = seed
        return (0..<count).map { i in
            s = s &* 1664525 &+ 1013904223
            return (i * 7) % range / 2 + Int(s >> 16) % (range / 2)
        }
    }

    @Test("single-plane SSIM and cs agree with the definition evaluated in Double within 1e-6")
    func planeAgainstDefinition() {
        let w = 37, h = 29
        let x = Self.samples(w * h, seed: 7, range: 256).map(Double.init)
        // A blurred-and-noised copy: a neighbour average plus small offsets.
        let y = (0..<(w * h)).map { i in (x[i] + x[(i + 1) % (w * h)]) / 2 + Double(i % 5) - 2 }
        let expected = Self.definitionSSIM(x, y, width: w, height: h)
        guard let got = SSIM.mean(Plane(width: w, height: h, values: x), Plane(width: w, height: h, values: y)) else {
            Issue.record("SSIM undefined on a 37×29 plane"); return
        }
        #expect(expected.ssim < 0.99)  // the pair really differs
        #expect(abs(got.ssim - expected.ssim) < 1e-6, "ssim \(got.ssim) vs \(expected.ssim)")
        #expect(abs(got.cs - expected.cs) < 1e-6, "cs \(got.cs) vs \(expected.cs)")
    }

    @Test("the one-pass SSIM of Y′, R, G, B over a background agrees with the definition on each composited plane", arguments: [0.0, 1.0])
    func visiblePlanesAgainstDefinition(background bg: Double) {
        // 300 columns: two column tiles; 150 rows: two row bands.
        let w = 300, h = 150
        let rgb1 = Self.samples(w * h * 3, seed: 11, range: 65536)
        let rgb2 = Self.samples(w * h * 3, seed: 12, range: 65536).enumerated().map { i, v in (rgb1[i] + v / 8) / 2 * 2 % 65536 }
        let alpha = (0..<(w * h)).map { i in i % 3 == 0 ? 65535 : (i * 97) % 65536 }
        func image(_ rgb: [Int]) -> ValueImage {
            var s: [UInt16] = []
            for p in 0..<(w * h) { s += [UInt16(rgb[3 * p]), UInt16(rgb[3 * p + 1]), UInt16(rgb[3 * p + 2]), UInt16(alpha[p])] }
            return ValueImage(width: w, height: h, channels: 4, samples: s)
        }
        // Composited planes as VisiblePlane documents them: c·a + 255·bg·(1 − a), c = v/257, a = A/65535.
        func planes(_ rgb: [Int]) -> [[Double]] {
            var out = [[Double]](repeating: [], count: 4)
            for p in 0..<(w * h) {
                let a = Double(alpha[p]) / 65535
                let c = (0..<3).map { Double(rgb[3 * p + $0]) / 257 * a + 255 * bg * (1 - a) }
                out[0].append(0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2])
                for k in 0..<3 { out[k + 1].append(c[k]) }
            }
            return out
        }
        let e = planes(rgb1), a = planes(rgb2)
        guard let got = VisiblePlane.ssimMeans(image(rgb1), image(rgb2), background: bg) else {
            Issue.record("SSIM undefined on a 300×150 image"); return
        }
        for p in 0..<4 {
            let expected = Self.definitionSSIM(e[p], a[p], width: w, height: h)
            #expect(abs(got[p].ssim - expected.ssim) < 1e-6, "plane \(p): ssim \(got[p].ssim) vs \(expected.ssim)")
            #expect(abs(got[p].cs - expected.cs) < 1e-6, "plane \(p): cs \(got[p].cs) vs \(expected.cs)")
        }
    }

    @Test("the Float lane recursion follows the Double line recursion along a 3840-sample line within 1e-4")
    func floatRecursionAgainstDouble() {
        let g = RecursiveGaussian.sigma15
        let len = 3840
        let values = Self.samples(len, seed: 3, range: 1000).map { Double($0) / 1000 }
        var reference = [Double](repeating: 0, count: len)
        g.blur(values, into: &reference)
        // Lane k carries the line scaled by (k + 1)/16, so every lane is checked.
        let lanes = values.map { v in SIMD16<Float>((0..<16).map { Float(v * Double($0 + 1) / 16) }) }
        var out = [SIMD16<Float>](repeating: SIMD16<Float>(), count: len)
        lanes.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                if let s = src.baseAddress, let d = dst.baseAddress { g.blur(lanes: s, into: d, count: len) }
            }
        }
        var worst = 0.0
        for i in 0..<len {
            for k in 0..<16 { worst = max(worst, abs(Double(out[i][k]) - reference[i] * Double(k + 1) / 16)) }
        }
        #expect(worst < 1e-4, "largest difference \(worst)")
    }

    @Test("the Float cube root is within 4 ulp of Foundation's cbrt over XYB's range")
    func floatCubeRoot() {
        var worst: Float = 0
        var t: Float = 0.0037930732552754493
        while t < 1.2 {
            let root = CubeRoot.ofPositive(t)
            let exact = Float(Foundation.cbrt(Double(t)))
            worst = max(worst, abs(root - exact) / exact.ulp)
            t *= 1.0009
        }
        #expect(worst <= 4, "largest error \(worst) ulp")
    }
}
