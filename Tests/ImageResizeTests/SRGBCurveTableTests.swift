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

    /// Each curve, its formula and its bound: h²/8 · |f″| ≤ 7e-8 on smooth steps (h = 1/65535);
    /// the step that holds the joint of the encoding's two segments (slopes 12.92 and 12.70) adds
    /// up to h · 0.22 / 4 = 8.4e-7; the decoding's joint (slopes 0.0774 and 0.0786) next to
    /// nothing; Float storage ~6e-8. The nearest sample alone would be off by up to
    /// 12.92 · ½ / 65535 ≈ 9.9e-5 in the darkest tones.
    enum Curve: String, CaseIterable, CustomStringConvertible {
        case encoding, decoding
        var description: String { rawValue }
        var table: [Float] { self == .encoding ? SRGBCurveTable.encoding : SRGBCurveTable.decoding }
        func formula(_ x: Double) -> Double { self == .encoding ? SRGBCurveTableTests.encode(x) : SRGBCurveTableTests.decode(x) }
        var bound: Double { self == .encoding ? 9e-7 : 2e-7 }
    }

    @Test("off the samples each curve stays within its bound of the formula (9e-7 encoding, 0.0002 of an 8-bit code; 2e-7 decoding)",
          arguments: Curve.allCases)
    func interpolationIsExactToFloatPrecision(_ curve: Curve) {
        var worst = 0.0
        curve.table.withUnsafeBufferPointer { table in
            for v in Self.points { worst = max(worst, abs(Double(SRGBCurveTable.value(at: v, in: table)) - curve.formula(Double(v)))) }
        }
        #expect(worst < curve.bound, "worst \(worst)")
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
