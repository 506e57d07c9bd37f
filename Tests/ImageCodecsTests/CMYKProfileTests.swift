import Foundation
import Testing
import ImageCore
@testable import ImageCodecs

/// CMYK pixels rendered in sRGB through their CMYK profile (``SRGBRendering``). The profile is
/// built by ``ICCProfileBuilder/cmyk(grid:prints:)`` from inks with a dot gain (each ink prints
/// as `1 − (1 − ink)^1.8`), which the test's oracle states by arithmetic: the rendering must
/// follow the profile, not the naive ink formula (which ignores the dot gain and is far off),
/// whether the inks are stored plainly or inverted as Adobe's JPEGs store them.
@Suite("CMYK through its profile")
struct CMYKProfileTests {
    static func gained(_ ink: Double) -> Double { 1 - pow(1 - ink, 1.8) }
    /// The sRGB colour (0…1) the inks print as under the profile.
    static func prints(_ c: Double, _ m: Double, _ y: Double, _ k: Double) -> (Double, Double, Double) {
        let black = 1 - gained(k)
        return ((1 - gained(c)) * black, (1 - gained(m)) * black, (1 - gained(y)) * black)
    }

    /// 24 × 16 inks (plain: 0 is no ink): C across, M down, Y and K in blocks.
    static func inks() -> [[UInt8]] {
        var out: [[UInt8]] = []
        for row in 0..<16 {
            for col in 0..<24 {
                let c = col * 255 / 23, m = row * 255 / 15, y = (col / 6) * 60, k = (row / 8) * 90
                out.append([UInt8(c), UInt8(m), UInt8(y), UInt8(k)])
            }
        }
        return out
    }

    static func bitmap(inverted: Bool) throws -> Bitmap {
        let bytes = inks().flatMap { inverted ? $0.map { 255 - $0 } : $0 }
        return try Bitmap(width: 24, height: 16, format: PixelFormat(colorModel: .cmyk(inverted: inverted), bitsPerComponent: 8), bytes: bytes)
    }

    /// Largest and mean |Δ| (in 8-bit codes) of `rendered` from the oracle.
    static func departure(_ rendered: Bitmap) throws -> (max: Double, mean: Double) {
        let rgb = try rendered.converted(to: .rgb8).bytes
        var worst = 0.0, total = 0.0
        for (i, ink) in inks().enumerated() {
            let p = prints(Double(ink[0]) / 255, Double(ink[1]) / 255, Double(ink[2]) / 255, Double(ink[3]) / 255)
            for (c, v) in [p.0, p.1, p.2].enumerated() {
                let d = abs(Double(rgb[i * 3 + c]) - v * 255)
                worst = max(worst, d)
                total += d
            }
        }
        return (worst, total / Double(inks().count * 3))
    }

    @Test("plain and Adobe-inverted inks render through the profile within 4 codes (mean ≤ 1.5) of the oracle", arguments: [false, true])
    func rendersThroughProfile(inverted: Bool) throws {
        let profile = try #require(ICCProfileBuilder.cmyk(prints: Self.prints))
        let image = Image(bitmap: try Self.bitmap(inverted: inverted), metadata: ImageMetadata(iccProfile: profile))
        #expect(SRGBRendering.needsConversion(image))
        let d = try Self.departure(try SRGBRendering.render(image).bitmap)
        #expect(d.max <= 4 && d.mean <= 1.5, "max \(d.max), mean \(d.mean)")
    }

    @Test("the naive ink formula (the profile ignored) is far from the oracle, so the bound above can fail")
    func naiveIsFar() throws {
        #expect(try Self.departure(try Self.bitmap(inverted: false)).max > 20)
    }

    @Test("a CMYK JPEG keeps its profile and inversion through a round trip and renders within 8 codes of the oracle")
    func jpegRoundTrip() throws {
        let profile = try #require(ICCProfileBuilder.cmyk(prints: Self.prints))
        let image = Image(bitmap: try Self.bitmap(inverted: false), metadata: ImageMetadata(iccProfile: profile))
        let decoded = try ImageCodecs.decode(try ImageCodecs.encode(image, as: .jpeg, options: EncodeOptions(jpegQuality: 100)))
        #expect(decoded.metadata.iccProfile == profile)
        guard case .cmyk = decoded.format.colorModel else { Issue.record("decoded as \(decoded.format)"); return }
        let d = try Self.departure(try SRGBRendering.render(decoded).bitmap)
        #expect(d.max <= 8, "max \(d.max), mean \(d.mean)")
    }

    @Test("the same ink function gives the same profile bytes")
    func deterministic() {
        let first = ICCProfileBuilder.cmyk(grid: 5, prints: Self.prints)
        #expect(first != nil && first == ICCProfileBuilder.cmyk(grid: 5, prints: Self.prints))
        #expect(first.map { ICCProfileSummary($0).colorSpace } == "CMYK")
    }
}
