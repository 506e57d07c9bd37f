import Testing
import ImageCore
import ImageResize
import ImageCodecs

/// The resizer's entry points throw ``ResizeError/invalidGeometry(_:)`` for NaN, infinite or
/// out-of-range geometry and for results beyond ``OutputLimits``, before allocating anything.
@Suite("geometry limits")
struct GeometryLimitTests {
    static let image: Image = {
        // 8×6 gray ramp; the bytes are 8 · 6 = 48 codes.
        Image(bitmap: Bitmap(uncheckedWidth: 8, height: 6, format: .gray8, bytesPerRow: 8, bytes: (0..<48).map { UInt8($0 * 5) }))
    }()

    @Test("a crop or source rectangle with NaN, ±∞ or a number past 2³¹ throws, naming the number",
          arguments: [
            (Rect(x: .nan, y: 0, width: 5, height: 5), "x nan"),
            (Rect(x: 0, y: 0, width: 5, height: .infinity), "height inf"),
            (Rect(x: -.infinity, y: 0, width: 5, height: 5), "x -inf"),
            (Rect(x: 0, y: 3e9, width: 5, height: 5), "y 3000000000.0"),
          ])
    func nonFiniteRectangles(rect: Rect, named: String) {
        func names(_ error: any Error) -> Bool {
            guard case .invalidGeometry(let why) = error as? ResizeError else { return false }
            return why.contains(named + " is not a finite number of pixels within ±2147483648")
        }
        #expect { _ = try Self.image.cropped(to: rect) } throws: { names($0) }
        #expect { _ = try Self.image.scaledToFill(from: rect, width: 4, height: 4) } throws: { names($0) }
    }

    @Test("Rect.integral of NaN and ±∞ does not trap: coordinates are limited to ±2³¹ first")
    func integralIsTotal() {
        let r = Rect(x: .nan, y: -.infinity, width: .infinity, height: 1).integral
        #expect(r.x == -2_147_483_648 && r.y == -2_147_483_648)
    }

    @Test("results beyond 65535 pixels a side or 268402689 pixels in all throw before allocating",
          arguments: [(100_000, 1), (1, 99_999_999), (100_000, 100_000), (20_000, 20_000), (Int.max, Int.max)])
    func beyondTheOutputLimit(width: Int, height: Int) {
        #expect(OutputLimits.problem(width: width, height: height) != nil)
        #expect(throws: ResizeError.invalidGeometry("a \(width)×\(height) result is beyond the output limit (at most 65535 pixels a side and 268402689 pixels in all)")) {
            _ = try Self.image.resized(width: width, height: height)
        }
    }

    @Test("the output limit: 65535 a side (GIF and JPEG sizes are 16-bit), 16383² pixels (the decoders' pixel limit)")
    func limitValues() {
        #expect(OutputLimits.maxDimension == 65_535)
        #expect(OutputLimits.maxPixels == 16_383 * 16_383)
        #expect(OutputLimits.maxPixels == DecodeLimits.default.maxPixels)
        #expect(OutputLimits.problem(width: 65_535, height: 4_095) == nil)  // 268,365,825 ≤ 268,402,689
        #expect(OutputLimits.problem(width: 65_535, height: 4_096) != nil)  // 268,431,360 > 268,402,689
    }

    @Test("a border past the limit throws instead of overflowing", arguments: [Int.max, 65_536, 40_000])
    func hugeBorder(width: Int) {
        #expect(throws: ResizeError.self) { _ = try Self.image.transparentBorder(width: width) }
    }
}
