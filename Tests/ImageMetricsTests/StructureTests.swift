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
        #expect(SSIM.mean(p.source, p.source)?.ssim == 1)
        let small = Plane(width: 10, height: 20, values: [Double](repeating: 3, count: 200))
        #expect(SSIM.mean(small.source, small.source) == nil)
    }

    @Test("Wang's box downsampling averages f×f blocks and mirrors at the edge (MATLAB 'symmetric')")
    func boxDownsample() {
        // 1-D check along x: values 0…4 in one row repeated; f = 2 covers (i, i+1), the last column mirrored.
        let p = Plane(width: 5, height: 2, values: [0, 1, 2, 3, 4, 0, 1, 2, 3, 4])
        let d = Plane.boxDownsample(p.source, factor: 2)
        #expect(d.width == 3 && d.height == 1)
        #expect(d.values == [0.5, 2.5, 4])
    }
}
