import Testing
import ImageCore
import ImageMetrics

/// The difference thumbnail of an index: the heat map reduced by blocks, each thumbnail pixel its
/// block's worst, so a single changed pixel of a large image is still seen.
@Suite("heat map thumbnail")
struct HeatMapThumbnailTests {
    /// 320×200 RGB of a smooth ramp, with pixel (101, 57) raised by `by` in red.
    static func values(changedBy by: Int) throws -> ValueImage {
        var bytes: [UInt8] = []
        for y in 0..<200 {
            for x in 0..<320 { bytes += [UInt8((x + y) % 200), 90, 60] }
        }
        bytes[(57 * 320 + 101) * 3] = UInt8(Int(bytes[(57 * 320 + 101) * 3]) + by)
        return ValueImage(Image(bitmap: try Bitmap(width: 320, height: 200, format: .rgb8, bytes: bytes)), withAlpha: false)
    }

    @Test("one pixel changed by 30 of a 320×200 image shows in the 160×100 thumbnail as the ramp's ≤ 50 colour at its 2×2 block; every other pixel is grey")
    func onePixelSurvives() throws {
        let e = try Self.values(changedBy: 0), a = try Self.values(changedBy: 30)
        let t = HeatMap.thumbnail(expected: e, actual: a, maxSide: 160)
        #expect(t.width == 160 && t.height == 100)
        let entries = HeatMap.palette.entries
        // The ramp entry for 20 < |Δ| ≤ 50 (red), by the legend.
        let red = try #require(HeatMap.ramp.firstIndex { $0.label == "≤ 50" })
        #expect(Int(t.bytes[28 * 160 + 50]) == red, "block (50, 28) holds pixel (101, 57)")
        let others = t.bytes.enumerated().filter { $0.offset != 28 * 160 + 50 }.map { entries[Int($0.element)] }
        #expect(others.allSatisfy { $0.red == $0.green && $0.green == $0.blue }, "an unchanged block is not grey")
        // Under a mask the change is not shown.
        var bits = [Bool](repeating: false, count: 320 * 200)
        bits[57 * 320 + 101] = true
        let masked = HeatMap.thumbnail(expected: e, actual: a, ignored: PixelMask(width: 320, height: 200, bits: bits), maxSide: 160)
        #expect(Int(masked.bytes[28 * 160 + 50]) != red)
    }
}
