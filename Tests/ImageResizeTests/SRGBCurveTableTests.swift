import Foundation
import Testing
import ImageCore
@testable import ImageResize

/// The interpolated sRGB curves against the IEC 61966-2-1 formulas evaluated in Double.
@Suite("sRGB curve table")
struct SRGBCurveTableTests {
    /// The encoding formula written out from IEC 61966-2-1 (not ImageCore's `SRGBTransfer`).
    static func encode(_ x: Double) -> Double { x <= 0.0031308 ? 12.92 * x : 1.055 * pow(x, 1 / 2.4) - 0.055 }
    static func decode(_ v: Double) -> Double { v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4) }

    /// Values spread over 0…1 at 2,000,003 points (a prime count, so they fall between samples
    /// at every phase), plus the darkest tones at finer steps.
    static let points: [Float] = (0...2_000_003).map { Float(Double($0) / 2_000_003) }
        + (0...100_000).map { Float(0.01 * Double($0) / 100_000) }

    /// h²/8 · |f″| ≤ 7e-8 on smooth steps; the step holding the joint of the two segments (slopes
    /// 12.92 and 12.70) adds up to h · 0.22 / 4 = 8.4e-7 (h = 1/65535); Float storage ~6e-8.
    @Test("encoding off the samples stays within 9e-7 of the formula (0.0002 of an 8-bit code)")
    func encodingIsExactToFloatPrecision() {
        var worst = 0.0
        SRGBCurveTable.encoding.withUnsafeBufferPointer { table in
            for v in Self.points { worst = max(worst, abs(Double(SRGBCurveTable.value(at: v, in: table)) - Self.encode(Double(v)))) }
        }
        // The nearest sample alone would be off by up to 12.92 · ½ / 65535 ≈ 9.9e-5 in the darkest tones.
        #expect(worst < 9e-7, "worst \(worst)")
    }

    @Test("decoding off the samples stays within 2e-7 of the formula")
    func decodingIsExactToFloatPrecision() {
        var worst = 0.0
        SRGBCurveTable.decoding.withUnsafeBufferPointer { table in
            for v in Self.points { worst = max(worst, abs(Double(SRGBCurveTable.value(at: v, in: table)) - Self.decode(Double(v)))) }
        }
        #expect(worst < 2e-7, "worst \(worst)")
    }

    @Test("the ends map to themselves: 0 → 0 and 1 → 1")
    func endsAreFixed() {
        for table in [SRGBCurveTable.encoding, SRGBCurveTable.decoding] {
            table.withUnsafeBufferPointer { t in
                #expect(SRGBCurveTable.value(at: 0, in: t) == 0)
                #expect(abs(SRGBCurveTable.value(at: 1, in: t) - 1) < 1e-7)
            }
        }
    }
}
