import Testing
import ImageCore
import ImageResize

/// The resizer's kernels at points whose weights follow from their published definitions, and
/// one impulse response worked out by hand from those weights.
///
/// - Mitchell & Netravali, "Reconstruction Filters in Computer Graphics", SIGGRAPH 1988, eq. 8:
///   k(x) = ((12 − 9B − 6C)|x|³ + (−18 + 12B + 6C)|x|² + (6 − 2B)) / 6 for |x| < 1,
///   ((−B − 6C)|x|³ + (6B + 30C)|x|² + (−12B − 48C)|x| + (8B + 24C)) / 6 for 1 ≤ |x| < 2, else 0.
///   Hence k(0) = (6 − 2B)/6 and k(1) = (−B − 6C + 6B + 30C − 12B − 48C + 8B + 24C)/6 = B/6.
///   Mitchell (B = C = ⅓): k(0) = 8/9, k(1) = 1/18. Catmull-Rom (B = 0, C = ½): k(0) = 1, k(1) = 0,
///   and k(½) = (9/8 − 15/4 + 6)/6 = 9/16, k(3/2) = (−81/8 + 135/4 − 36 + 12)/6 = −1/16
///   (Keys' cubic convolution with a = −½, whose half-pixel taps are −1/16, 9/16, 9/16, −1/16).
/// - Lanczos 3 (Duchon 1979; Turkowski 1990): L(x) = sinc(x)·sinc(x/3) = 3 sin(πx) sin(πx/3) / (πx)²
///   for |x| < 3, else 0: L(0) = 1, L(k) = 0 at every non-zero integer k, L(½) = 3·1·½ / (π²/4) = 6/π².
/// - Triangle: 1 − |x| for |x| < 1, so ½ at ½ and 0 from 1 on.
@Suite("Kernel weights")
struct KernelWeightTests {
    @Test("Lanczos 3 is 1 at 0 and 0 at every non-zero integer; 6/π² at ½")
    func lanczos3() {
        #expect(Kernel.lanczos3.weight(0) == 1)
        for k in 1...6 {
            // sin(kπ) is 1.2e-16·k in Double, not 0: the weight is within a few ulps of 0.
            #expect(abs(Kernel.lanczos3.weight(Double(k))) < 1e-15, "L(\(k))")
            #expect(abs(Kernel.lanczos3.weight(Double(-k))) < 1e-15, "L(-\(k))")
        }
        #expect(Kernel.lanczos3.weight(3) == 0 && Kernel.lanczos3.weight(-3.5) == 0)
        #expect(abs(Kernel.lanczos3.weight(0.5) - 6 / (Double.pi * Double.pi)) < 1e-15)
        #expect(abs(Kernel.lanczos3.weight(-0.5) - 6 / (Double.pi * Double.pi)) < 1e-15)
    }

    @Test("Mitchell (B = C = ⅓) is 8/9 at 0, 1/18 at ±1 and 0 from 2 on")
    func mitchell() {
        #expect(abs(Kernel.mitchell.weight(0) - 8.0 / 9) < 1e-15)
        #expect(abs(Kernel.mitchell.weight(1) - 1.0 / 18) < 1e-15)
        #expect(abs(Kernel.mitchell.weight(-1) - 1.0 / 18) < 1e-15)
        #expect(Kernel.mitchell.weight(2) == 0 && Kernel.mitchell.weight(-2.5) == 0)
        // Both pieces meet at |x| = 1: just below 1 the first piece gives B/6 too.
        #expect(abs(Kernel.mitchell.weight(1 - 1e-9) - 1.0 / 18) < 1e-8)
    }

    @Test("Catmull-Rom (B = 0, C = ½) is 1 at 0, 0 at ±1 and ±2, 9/16 at ½ and −1/16 at 3/2")
    func catmullRom() {
        #expect(Kernel.catmullRom.weight(0) == 1)
        #expect(Kernel.catmullRom.weight(1) == 0 && Kernel.catmullRom.weight(-1) == 0)
        #expect(Kernel.catmullRom.weight(2) == 0)
        #expect(Kernel.catmullRom.weight(0.5) == 9.0 / 16)
        #expect(Kernel.catmullRom.weight(-1.5) == -1.0 / 16)
    }

    @Test("triangle is 1 at 0, ½ at ±½ and 0 from 1 on; the box takes [−½, ½)")
    func triangleAndBox() {
        #expect(Kernel.triangle.weight(0) == 1)
        #expect(Kernel.triangle.weight(0.5) == 0.5 && Kernel.triangle.weight(-0.5) == 0.5)
        #expect(Kernel.triangle.weight(1) == 0 && Kernel.triangle.weight(-1.25) == 0)
        #expect(Kernel.nearest.weight(-0.5) == 1 && Kernel.nearest.weight(0.5) == 0 && Kernel.nearest.weight(0) == 1)
    }

    /// Enlarging 2× with Catmull-Rom, output pixel i's centre lies at input coordinate (i + ½)/2,
    /// so input pixel p (centre p + ½) sits at distance p + ¼ − i/2 from it: ±¼, ±¾, ±5/4, ±7/4
    /// for the eight outputs 2p − 3 … 2p + 4. From the formula above:
    /// k(¼) = (9/64 − 15/16 + 6)/6 = 111/128, k(¾) = (243/64 − 135/16 + 6)/6 = 29/128,
    /// k(5/4) = (−375/64 + 375/16 − 30 + 12)/6 = −9/128, k(7/4) = (−1029/64 + 735/16 − 42 + 12)/6 = −3/128.
    /// Each output's four taps sum to 128/128, so no renormalisation happens away from the edges.
    @Test("a 2× Catmull-Rom enlargement of a single bright pixel gives the hand-computed taps −3, −9, 29, 111, 111, 29, −9, −3 (/128)")
    func impulseResponse() {
        let p = 7
        var image = WorkingImage(width: 16, height: 1, lightSpace: .linear)
        for x in 0..<16 { image.pixels[x * 4 + 3] = 1 }
        for c in 0..<3 { image.pixels[p * 4 + c] = 1 }
        let out = Resample.resample(image, width: 32, height: 1, kernel: .catmullRom)
        let taps: [Float] = [-3, -9, 29, 111, 111, 29, -9, -3].map { $0 / 128 }
        var expected = [Float](repeating: 0, count: 32)
        for (k, w) in taps.enumerated() { expected[2 * p - 3 + k] = w }
        for i in 0..<32 {
            for c in 0..<3 {
                #expect(abs(out.pixels[i * 4 + c] - expected[i]) < 1e-6, "output \(i) channel \(c): \(out.pixels[i * 4 + c]), expected \(expected[i])")
            }
            #expect(abs(out.pixels[i * 4 + 3] - 1) < 1e-6, "output \(i) alpha")
        }
    }
}
