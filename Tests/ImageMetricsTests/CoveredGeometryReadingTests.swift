import Testing
import ImageCore
@testable import ImageMetrics

/// Geometry read where the moved picture covers the frame (``CoveredGeometryReading``), and the
/// translation's refinement to whole pixels, on synthetic 320 × 240 pictures whose shifts are
/// made by index arithmetic.
@Suite("geometry where the moved picture covers the frame")
struct CoveredGeometryReadingTests {
    /// A mostly flat grey picture (a gentle ramp, one soft disc) with a dark band along the
    /// bottom 24 rows: a wrapped shift moves the band to the top, where it holds most of the difference.
    static func flatPicture(_ x: Int, _ y: Int) -> UInt8 {
        if y >= 216 { return 30 }
        let dx = Double(x - 80), dy = Double(y - 100)
        let disc = max(0, 40 - (dx * dx + dy * dy).squareRoot() / 2)
        return UInt8(150 + Double(x) / 16 + disc)
    }

    static func bitmap(_ value: (Int, Int) -> UInt8, width: Int = 320, height: Int = 240) throws -> Bitmap {
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        for y in 0..<height { for x in 0..<width { for c in 0..<3 { bytes[(y * width + x) * 3 + c] = value(x, y) } } }
        return try Bitmap(width: width, height: height, format: .rgb8, bytes: bytes)
    }

    /// `value` moved `dx` right and `dy` down, wrapped round (NumPy's `roll`).
    static func rolled(_ value: @escaping (Int, Int) -> UInt8, dx: Int, dy: Int) -> (Int, Int) -> UInt8 {
        { x, y in value(((x - dx) % 320 + 320) % 320, ((y - dy) % 240 + 240) % 240) }
    }

    static func diagnose(_ expected: Bitmap, _ actual: Bitmap) -> Diagnosis { pairDiagnosis(expected, actual) }

    @Test("a flat picture rolled 5 px left and 2 px down is named by what the shift explains where it covers the frame")
    func flatRoll() throws {
        let d = Self.diagnose(try Self.bitmap(Self.flatPicture), try Self.bitmap(Self.rolled(Self.flatPicture, dx: -5, dy: 2)))
        #expect(d.bugClass == "pixel-shift", "\(d.summary)")
        #expect(d.parameters?["dx"] == -5 && d.parameters?["dy"] == 2, "\(d.parameters ?? [:])")
        #expect(d.summary.contains("where the moved picture covers the frame"), "\(d.summary)")
    }

    @Test("a picture that differs only in a band along its edge is not named a shift")
    func edgeOnlyChange() throws {
        let painted: (Int, Int) -> UInt8 = { x, y in y < 2 || x >= 315 ? 30 : Self.flatPicture(x, y) }
        let d = Self.diagnose(try Self.bitmap(Self.flatPicture), try Self.bitmap(painted))
        #expect(d.bugClass == nil, "\(d.summary)")
    }

    @Test("a whole-pixel shift is fitted to whole pixels when the search reduces by an odd factor (320 px: 5)",
          arguments: [(-5, 2), (3, -7), (1, 1)])
    func wholePixels(_ dx: Int, _ dy: Int) throws {
        // A textured picture without a period (an integer hash, averaged over 3 × 3 pixels so that
        // neighbours correlate as in a photograph), so the shift explains most of the difference
        // over the whole frame and no other shift fits.
        func hash(_ x: Int, _ y: Int) -> UInt32 {
            var v = UInt32(truncatingIfNeeded: x &* 73_856_093 ^ y &* 19_349_663)
            v = (v ^ (v >> 13)) &* 1_274_126_177
            return (v ^ (v >> 16)) % 170
        }
        let textured: (Int, Int) -> UInt8 = { x, y in
            var sum: UInt32 = 0
            for v in y - 1...y + 1 { for u in x - 1...x + 1 { sum += hash(u, v) } }
            return UInt8(40 + sum / 9)
        }
        let d = Self.diagnose(try Self.bitmap(textured), try Self.bitmap(Self.rolled(textured, dx: dx, dy: dy)))
        #expect(d.bugClass == "pixel-shift", "\(d.summary)")
        #expect(d.parameters?["dx"] == Double(dx) && d.parameters?["dy"] == Double(dy), "\(d.parameters ?? [:]) \(d.summary)")
    }
}
