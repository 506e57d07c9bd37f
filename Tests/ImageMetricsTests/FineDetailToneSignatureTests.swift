import Testing
import ImageCore
@testable import ImageMetrics

/// ``FineDetailToneSignature`` on synthetic 8 × 16 grey images: a flat sRGB 188 (linear ½,
/// the linear mean of a 1-pixel black/white checker) whose left half comes out 128, the sRGB
/// mean of the same checker.
@Suite("fine-detail tone signature")
struct FineDetailToneSignatureTests {
    /// 8 × 16 opaque grey, the given 8-bit value per column.
    static func grey(_ columns: [Int]) -> ValueImage {
        var samples: [UInt16] = []
        for _ in 0..<16 { for v in columns { samples += [UInt16(v * 257), UInt16(v * 257), UInt16(v * 257)] } }
        return ValueImage(width: columns.count, height: 16, channels: 3, samples: samples, sourceBitsPerComponent: 8)
    }

    static let flat = grey(Array(repeating: 188, count: 8))

    /// Left 4 columns 188 → 128: d = −60/255 = −0.23529; the tone curve predicts
    /// t = toLinear(188/255) − 188/255 = 0.50289 − 0.73725 = −0.23437, so
    /// explained = 1 − ((d − t)/d)² = 1 − (0.00093/0.23529)² ≈ 0.99998. The right half is
    /// unchanged and not read; it adds nothing to the difference, so share = 1.
    @Test("a flat 188 that comes out 128 where the rest stays 188 is named: the sRGB mean of sub-pixel detail")
    func checkerHalf() {
        let s = FineDetailToneSignature(expected: Self.flat, actual: Self.grey([128, 128, 128, 128, 188, 188, 188, 188]))
        #expect(s.pixels == 64)
        #expect(abs(s.share - 1) < 1e-12)
        #expect(s.explained > 0.9999 && s.explained <= 1)
        #expect(s.names)
    }

    /// A uniform gain (a 4-bit shift widening: × 240/255, 188 → 177): d = −11/255 = −0.0431
    /// against t = −0.2344, explained = 1 − ((d − t)/d)² ≈ −18.7.
    @Test("a uniform gain on a flat area is not read as sRGB averaging")
    func gain() {
        let s = FineDetailToneSignature(expected: Self.flat, actual: Self.grey(Array(repeating: 177, count: 8)))
        #expect(s.pixels == 128)
        #expect(s.explained < -18 && s.explained > -20)
        #expect(!s.names)
    }

    /// ±10 code values alternating by column: the cross terms d·t cancel, so
    /// explained = −Σt²/Σd² = −(0.2344/0.0392)² ≈ −35.7.
    @Test("noise on a flat area is not read as sRGB averaging")
    func noise() {
        let s = FineDetailToneSignature(expected: Self.flat, actual: Self.grey([198, 178, 198, 178, 198, 178, 198, 178]))
        #expect(s.pixels == 128)
        #expect(s.explained < -30)
        #expect(!s.names)
    }

    /// One code value is rounding (≤ ``FineDetailToneSignature/minimumChange``): nothing read.
    @Test("a rounding difference of one code value is not read")
    func rounding() {
        let s = FineDetailToneSignature(expected: Self.flat, actual: Self.grey(Array(repeating: 187, count: 8)))
        #expect(s.pixels == 0 && !s.names)
    }

    /// An edge in the expected image (0 | 255) is not flat: its change is left to the
    /// edge-based candidate. Columns 3 and 4 see the edge, the others are flat and unchanged.
    @Test("pixels on an edge of the expected image are not read")
    func edge() {
        let e = Self.grey([0, 0, 0, 0, 255, 255, 255, 255]), a = Self.grey([0, 0, 0, 60, 200, 255, 255, 255])
        let s = FineDetailToneSignature(expected: e, actual: a)
        #expect(s.pixels == 0 && s.share == 0 && !s.names)
    }
}
